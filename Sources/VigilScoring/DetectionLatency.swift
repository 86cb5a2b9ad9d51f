/// How long after a reference event's onset it was first detected, from
/// ``DetectionStatistics/detectionLatencies(reference:estimated:label:collar:)``.
package struct DetectionLatency: Sendable, Hashable {
    /// The reference event.
    package var reference: ScoredEvent
    /// The first detection (earliest onset) overlapping the reference; `nil` when it was missed.
    package var detection: ScoredEvent?

    /// Creates a latency record.
    package init(reference: ScoredEvent, detection: ScoredEvent?) {
        self.reference = reference
        self.detection = detection
    }

    /// `detection.onset − reference.onset` in seconds (negative when the detection starts early);
    /// `nil` when missed.
    package var latency: Double? { detection.map { $0.onset - reference.onset } }
}
