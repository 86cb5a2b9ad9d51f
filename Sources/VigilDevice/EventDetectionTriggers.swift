import VigilCore

/// Which event triggers a device can detect and which are on (AvStreamAnalysis).
public struct EventDetectionTriggers: Sendable, Hashable {
    /// What the device can detect.
    public private(set) var supported: Set<EventTriggerType>
    /// What the device reports; always a subset of ``supported``.
    public private(set) var enabled: Set<EventTriggerType>

    /// Creates the trigger sets; enabling an unsupported trigger is a ConstraintError
    /// (field `enabledEventTriggers`).
    public init(supported: Set<EventTriggerType>, enabled: Set<EventTriggerType>) throws(MatterCommandError) {
        if let unsupported = enabled.sorted().first(where: { !supported.contains($0) }) {
            throw Self.unsupportedError(unsupported, field: "enabledEventTriggers")
        }
        self.supported = supported
        self.enabled = enabled
    }

    /// The triggers Vigil has a detector for, supported and enabled: `motion` (the video motion
    /// detector) and the sound triggers `sound`, `personTalking`, `dogBark`, `glassBreak`,
    /// `smokeAlarm`, `coAlarm`. The default device's triggers: a device that nothing configured
    /// claims nothing the build cannot detect (no person, vehicle, animal or package detector
    /// exists). Kept equal to `DetectorRegistry.detectableTriggers` by a test.
    public static let detectable: EventDetectionTriggers = {
        let triggers: Set<EventTriggerType> = [.motion, .sound, .personTalking, .dogBark, .glassBreak, .smokeAlarm, .coAlarm]
        return EventDetectionTriggers(uncheckedSupported: triggers, enabled: triggers)
    }()

    /// Every trigger supported and enabled.
    public static let all = EventDetectionTriggers(
        uncheckedSupported: Set(EventTriggerType.allCases), enabled: Set(EventTriggerType.allCases))

    private init(uncheckedSupported: Set<EventTriggerType>, enabled: Set<EventTriggerType>) {
        self.supported = uncheckedSupported
        self.enabled = enabled
    }

    /// Whether `trigger` is enabled.
    public func isEnabled(_ trigger: EventTriggerType) -> Bool { enabled.contains(trigger) }

    /// `SetOrUpdateEventDetectionTriggers`: changes only the listed triggers, atomically: every
    /// entry is validated first and nothing changes if one fails. Enabling an unsupported trigger
    /// is ConstraintError with field `[index]`; disabling one is allowed (it is already off).
    /// When a trigger is listed twice the last entry wins.
    public mutating func setOrUpdateEventDetectionTriggers(_ changes: [EventTriggerEnablement]) throws(MatterCommandError) {
        for (index, change) in changes.enumerated()
        where change.enablementStatus == .enabled && !supported.contains(change.eventTriggerType) {
            throw Self.unsupportedError(change.eventTriggerType, field: "[\(index)]")
        }
        for change in changes {
            switch change.enablementStatus {
            case .enabled: enabled.insert(change.eventTriggerType)
            case .disabled: enabled.remove(change.eventTriggerType)
            }
        }
    }

    static func unsupportedError(_ trigger: EventTriggerType, field: String) -> MatterCommandError {
        MatterCommandError(.constraintError, field: field, "\(trigger.rawValue) is not in supportedEventTriggers")
    }
}
