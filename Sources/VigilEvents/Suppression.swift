import VigilCore

/// A candidate the engine withheld, with the rule that withheld it (for `--explain`).
public struct Suppression: Sendable, Hashable {
    /// The detection's (or event's) trigger.
    public var trigger: EventTriggerType
    /// The detection's zone for vision triggers; `nil` for sound triggers.
    public var zone: UInt16?
    /// The detection's (or event's) `detectedAt`; for a group of detections, the first one's.
    public var time: Double
    /// The last detection's `detectedAt` when this suppression stands for a group of
    /// detections (see `SuppressionGrouper` in VigilAnalysis); ``time`` otherwise.
    public var end: Double
    /// How many detections this suppression stands for (1 from the engine).
    public var count: Int
    /// The rule.
    public var rule: SuppressionRule
    /// A human-readable explanation.
    public var reason: String
    /// Whether a detection (`event`) or the media of an event (`clip`) was withheld.
    public var scope: SuppressionScope

    /// Creates a suppression.
    public init(
        trigger: EventTriggerType, zone: UInt16?, time: Double, rule: SuppressionRule, reason: String,
        scope: SuppressionScope, end: Double? = nil, count: Int = 1
    ) {
        self.trigger = trigger
        self.zone = zone
        self.time = time
        self.end = end ?? time
        self.count = count
        self.rule = rule
        self.reason = reason
        self.scope = scope
    }
}
