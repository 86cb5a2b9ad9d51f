/// What starts a transport (Matter `TransportTriggerTypeEnum`).
public enum TransportTriggerType: String, Sendable, Hashable, CaseIterable {
    /// On command (0).
    case command
    /// On motion (1).
    case motion
    /// Always streaming (2).
    case continuous

    /// Matter's numeric value.
    public var matterValue: Int {
        switch self {
        case .command: return 0
        case .motion: return 1
        case .continuous: return 2
        }
    }

    /// The type for Matter's numeric value, if valid.
    public init?(matterValue: Int) {
        guard let match = Self.allCases.first(where: { $0.matterValue == matterValue }) else { return nil }
        self = match
    }
}
