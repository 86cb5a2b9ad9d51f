/// One value of a detector's evidence (tone frequency, cycles seen, level in dBFS, ...).
public enum EvidenceValue: Sendable, Hashable {
    case int(Int)
    case number(Double)
    case string(String)
    case numbers([Double])
}

/// What a detector found: the input of the event engine.
///
/// Times are seconds of media time (sample or frame timestamps), never the wall clock.
/// A point detection (one motion observation) has `start == end == detectedAt`.
///
/// A detector may announce an activity at confirmation, while it is still going on, with a
/// ``Phase/started`` detection (see `SpectralDetector.reportStarts(into:)`); the
/// ``Phase/complete`` detection of the same activity (same trigger and `detectedAt`) follows
/// when it has ended.
public struct Detection: Sendable, Hashable {
    /// Whether the detected activity has ended.
    public enum Phase: String, Sendable, Hashable {
        /// Confirmed and still going on: `end` is the latest time known so far (at least
        /// `detectedAt`), confidence and evidence are provisional.
        case started
        /// Ended: every field is final. The default.
        case complete
    }

    /// The trigger this detection is a candidate for.
    public var trigger: EventTriggerType
    /// The activity zone, for zone-specific (vision) detections; `nil` means no zone or outside every zone.
    public var zoneID: UInt16?
    /// Media time at which the detected activity began (seconds).
    public var start: Double
    /// Media time at which the detected activity ended (seconds).
    public var end: Double
    /// Media time at which the detector confirmed the activity (seconds); `start <= detectedAt`.
    public var detectedAt: Double
    /// Confidence in 0...1.
    public var confidence: Double
    /// Detector-specific evidence, keyed by name.
    public var evidence: [String: EvidenceValue]
    /// Whether the activity has ended (``Phase/complete``, the default) or is confirmed and
    /// still going on (``Phase/started``).
    public var phase: Phase

    /// Creates a detection.
    public init(
        trigger: EventTriggerType, zoneID: UInt16? = nil, start: Double, end: Double, detectedAt: Double,
        confidence: Double, evidence: [String: EvidenceValue] = [:], phase: Phase = .complete
    ) {
        self.trigger = trigger
        self.zoneID = zoneID
        self.start = start
        self.end = end
        self.detectedAt = detectedAt
        self.confidence = confidence
        self.evidence = evidence
        self.phase = phase
    }

    /// A point detection at media time `time`.
    public static func point(
        _ trigger: EventTriggerType, zoneID: UInt16? = nil, at time: Double, confidence: Double = 1,
        evidence: [String: EvidenceValue] = [:]
    ) -> Detection {
        Detection(
            trigger: trigger, zoneID: zoneID, start: time, end: time, detectedAt: time, confidence: confidence,
            evidence: evidence)
    }
}
