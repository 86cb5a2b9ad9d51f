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
public struct Detection: Sendable, Hashable {
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

    /// Creates a detection.
    public init(
        trigger: EventTriggerType, zoneID: UInt16? = nil, start: Double, end: Double, detectedAt: Double,
        confidence: Double, evidence: [String: EvidenceValue] = [:]
    ) {
        self.trigger = trigger
        self.zoneID = zoneID
        self.start = start
        self.end = end
        self.detectedAt = detectedAt
        self.confidence = confidence
        self.evidence = evidence
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
