import VigilCore

/// One event the device reports.
public struct Event: Sendable, Hashable {
    /// Number of the event in creation order (1, 2, 3, ... per engine), creation being
    /// the first detection of the event.
    public var id: Int
    /// The trigger.
    public var trigger: EventTriggerType
    /// The activity zone of a vision event; `nil` for sound events and outside every zone.
    public var zone: UInt16?
    /// Media time the activity began: the (first) detection's `start`.
    public var start: Double
    /// Media time the event ended: a sound detection's `end`; for a vision event the stop
    /// time of its lifecycle.
    public var end: Double
    /// Media time of the (first) detection's `detectedAt`.
    public var detectedAt: Double
    /// Confidence: the detection's, or the maximum over a vision event's detections.
    public var confidence: Double
    /// Evidence of the (first) detection; vision events add `detections` (`.int`, count of
    /// detections grouped into the event).
    public var evidence: [String: EvidenceValue]
    /// The media for the recording mode; `nil` when there is none.
    public var media: EventMedia?

    /// Creates an event.
    public init(
        id: Int, trigger: EventTriggerType, zone: UInt16?, start: Double, end: Double, detectedAt: Double,
        confidence: Double, evidence: [String: EvidenceValue], media: EventMedia?
    ) {
        self.id = id
        self.trigger = trigger
        self.zone = zone
        self.start = start
        self.end = end
        self.detectedAt = detectedAt
        self.confidence = confidence
        self.evidence = evidence
        self.media = media
    }
}
