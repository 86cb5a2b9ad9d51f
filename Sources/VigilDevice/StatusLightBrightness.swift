/// Status light brightness (Matter `ThreeLevelAutoEnum`).
public enum StatusLightBrightness: String, Sendable, Hashable, CaseIterable {
    /// Low.
    case low
    /// Medium.
    case medium
    /// High.
    case high
    /// Chosen by the device.
    case auto
}
