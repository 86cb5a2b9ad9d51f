import VigilCore

/// The early record of an event that is not final yet: reported when the event is created
/// (the detector confirmed an activity that is still going on, a vision group started, or an
/// ebr clip is still recording), before the final ``Event`` with the same ``id``.
///
/// Emitted only by an engine created with `reportsStarts: true` (the live stream); batch
/// output has final events only.
public struct EventStart: Sendable, Hashable {
    /// The media known when the event starts.
    public enum Media: Sendable, Hashable {
        /// cvr: the range on the continuous recording starts at the event's start; its end
        /// comes with the final event.
        case range(start: Double)
        /// ebr or etr: clip `id` from `start`; `end` is known for etr (fixed length) and for an
        /// ebr clip that has already closed, `nil` while the clip is recording.
        case clip(id: Int, start: Double, end: Double?)
        /// images: still image `index` at `time`.
        case snapshot(time: Double, index: Int)
    }

    /// The event's number: the final ``Event`` has the same.
    public var id: Int
    /// The trigger.
    public var trigger: EventTriggerType
    /// The activity zone of a vision event; `nil` for sound events and outside every zone.
    public var zone: UInt16?
    /// Media time the activity began, as known at confirmation.
    public var start: Double
    /// Media time at which the detector confirmed the activity.
    public var detectedAt: Double
    /// Confidence so far.
    public var confidence: Double
    /// Evidence so far (vision events: `detections` = 1).
    public var evidence: [String: EvidenceValue]
    /// The media known so far; `nil` when the recording mode attaches none.
    public var media: Media?

    /// Creates an event start.
    public init(
        id: Int, trigger: EventTriggerType, zone: UInt16?, start: Double, detectedAt: Double, confidence: Double,
        evidence: [String: EvidenceValue], media: Media?
    ) {
        self.id = id
        self.trigger = trigger
        self.zone = zone
        self.start = start
        self.detectedAt = detectedAt
        self.confidence = confidence
        self.evidence = evidence
        self.media = media
    }
}
