/// Infrared night vision mode (Matter `TriStateAutoEnum`).
public enum NightVision: String, Sendable, Hashable, CaseIterable {
    /// Never.
    case off
    /// Always.
    case on
    /// When dark.
    case auto
}
