/// The kinds of event a camera or doorbell can detect (Matter `EventTriggerTypeEnum`,
/// Google Home `AvStreamAnalysisTrait`). Raw values are the wire names used in JSON.
public enum EventTriggerType: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case motion
    case personDetected
    case vehicleDetected
    case animalDetected
    case packageDetected
    case sound
    case personTalking
    case dogBark
    case glassBreak
    case smokeAlarm
    case coAlarm

    /// Sound triggers are device-level and are silenced by a muted microphone.
    public var isSound: Bool {
        switch self {
        case .sound, .personTalking, .dogBark, .glassBreak, .smokeAlarm, .coAlarm: return true
        case .motion, .personDetected, .vehicleDetected, .animalDetected, .packageDetected: return false
        }
    }

    /// Vision triggers may be zone-specific.
    public var isVision: Bool { !isSound }

    /// Life-safety alarms (smokeAlarm, coAlarm): always get their media, and stand for the
    /// generic `sound` of their own beeps (docs/event-engine.md).
    public var isSafetyAlarm: Bool { self == .smokeAlarm || self == .coAlarm }

    /// Stable order: declaration order.
    public static func < (lhs: EventTriggerType, rhs: EventTriggerType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
