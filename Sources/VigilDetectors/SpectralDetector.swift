import VigilCore
import VigilDSP

/// A sound detector that runs on the shared STFT.
///
/// The analysis pipeline computes one STFT per stream and hands every frame, in order, to
/// every detector. A detector appends a ``Detection`` once it is sure of it (for a detection
/// with an extent, once the activity has ended, so that `end` is known) and must append
/// detections in nondecreasing `detectedAt` order. Detectors are pure: no I/O, no wall clock.
public protocol SpectralDetector: AnyObject {
    /// The trigger this detector reports.
    var trigger: EventTriggerType { get }
    /// Consumes the next frame. The frame's buffers are valid only during this call.
    func process(_ frame: SpectralFrame, into detections: inout [Detection])
    /// End of stream at media time `endTime` (seconds): close any open activity.
    func finish(at endTime: Double, into detections: inout [Detection])
    /// Appends a ``Detection/Phase/started`` detection for every activity confirmed since the
    /// last call that has not ended yet (its ``Detection/Phase/complete`` detection, with the
    /// same `detectedAt`, follows from ``process(_:into:)`` or ``finish(at:into:)`` when it
    /// ends). Streaming callers that want to report events at confirmation call it after each
    /// ``process(_:into:)``; batch callers never call it, so their detections are unchanged.
    /// The default reports nothing (the detector announces activities only when they end).
    func reportStarts(into detections: inout [Detection])
}

extension SpectralDetector {
    /// Reports nothing: this detector announces activities only when they end.
    public func reportStarts(into detections: inout [Detection]) {}
}
