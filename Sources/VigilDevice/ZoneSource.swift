/// Who defined a zone (Matter `ZoneSourceEnum`).
public enum ZoneSource: String, Sendable, Hashable, CaseIterable {
    /// Manufacturer-defined (0): read-only.
    case mfg
    /// User-defined (1).
    case user

    /// Matter's numeric value.
    public var matterValue: Int { self == .mfg ? 0 : 1 }
}
