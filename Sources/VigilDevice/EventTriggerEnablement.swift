import VigilCore

/// One entry of `SetOrUpdateEventDetectionTriggers`: enable or disable one trigger.
public struct EventTriggerEnablement: Sendable, Hashable {
    /// Whether a trigger is on or off.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Detect and report this trigger.
        case enabled
        /// Do not report this trigger.
        case disabled
    }

    /// The trigger to change.
    public var eventTriggerType: EventTriggerType
    /// Its new status.
    public var enablementStatus: Status

    /// Creates an enablement entry.
    public init(_ eventTriggerType: EventTriggerType, _ enablementStatus: Status) {
        self.eventTriggerType = eventTriggerType
        self.enablementStatus = enablementStatus
    }
}
