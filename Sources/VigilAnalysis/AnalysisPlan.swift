import VigilCore
import VigilDetectors
import VigilEvents

/// What to run on a recording and how to turn detections into output: the event policy
/// (from the device), the detector settings, and whether suppressed candidates are reported.
/// Pure: the CLI and the live server share it.
public struct AnalysisPlan: Sendable {
    /// The device's event policy.
    public var policy: EventPolicy
    /// Detector settings (sensitivities, alarm tolerance and confirmation cycles).
    public var settings: DetectorSettings
    /// Report suppressed candidates with the rule that suppressed them.
    public var explain: Bool

    /// Creates a plan.
    public init(policy: EventPolicy = EventPolicy(), settings: DetectorSettings = DetectorSettings(), explain: Bool = false) {
        self.policy = policy
        self.settings = settings
        self.explain = explain
    }

    /// The sound triggers whose detectors must run. With `explain`, every sound trigger this build
    /// can detect runs, so that candidates the device would suppress can be reported; otherwise
    /// only enabled ones, and none when the policy would suppress every sound event anyway
    /// (transport inactive, liveView, microphone muted).
    public var detectorTriggers: Set<EventTriggerType> {
        let available = Set(DetectorRegistry.availableSoundTriggers)
        if explain { return available }
        if !policy.transportActive || policy.recordingMode == .liveView || policy.microphoneMuted { return [] }
        return available.intersection(policy.enabledTriggers)
    }

    /// Runs the event engine over a recording's `detections` (any order) up to `endTime`
    /// and tags the records with `file`. Suppressed candidates are kept only with `explain`,
    /// consecutive suppressed vision detections grouped (``SuppressionGrouper``).
    /// - Parameter visionEnd: the end of the recording's video, when it has one (see
    ///   ``EventEngine/run(policy:detections:endTime:visionEnd:)``).
    public func records(file: String, detections: [Detection], endTime: Double, visionEnd: Double? = nil) -> [AnalysisRecord] {
        let records = EventEngine.run(policy: policy, detections: detections, endTime: endTime, visionEnd: visionEnd)
        let kept = explain ? SuppressionGrouper.grouped(records) : records.filter { if case .suppressed = $0 { false } else { true } }
        return kept.map { AnalysisRecord(file: file, content: .engine($0)) }
    }
}
