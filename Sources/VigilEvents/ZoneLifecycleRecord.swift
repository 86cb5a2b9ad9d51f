import VigilCore

/// A zone trigger lifecycle record: Matter `ZoneTriggered` or `ZoneStopped`.
public struct ZoneLifecycleRecord: Sendable, Hashable {
    /// The zone ID.
    public var zone: UInt16
    /// The vision trigger whose (trigger, zone) lifecycle this is.
    public var trigger: EventTriggerType
    /// Media time of the record: the first detection for `zoneTriggered`, the stop for `zoneStopped`.
    public var time: Double
    /// Media time of the activation's first detection (equals `time` for `zoneTriggered`).
    public var activationStart: Double
    /// Why the zone stopped; `nil` for `zoneTriggered` (whose Matter reason is always Motion).
    public var stopReason: ZoneStopReason?

    /// Creates a record.
    public init(
        zone: UInt16, trigger: EventTriggerType, time: Double, activationStart: Double,
        stopReason: ZoneStopReason?
    ) {
        self.zone = zone
        self.trigger = trigger
        self.time = time
        self.activationStart = activationStart
        self.stopReason = stopReason
    }

    /// The Matter reason wire name: `motion` for a trigger, else the stop reason.
    public var reasonName: String { stopReason?.rawValue ?? "motion" }
}
