import VigilCore
import VigilDSP
import VigilDetectors

/// Runs the shared STFT and a set of sound detectors over one audio stream, pushed in blocks
/// of any size. Pure: samples in, detections out; memory does not grow with the stream length
/// (only with the number of detections).
public final class AudioStreamAnalyzer {
    /// The STFT configuration (from the stream's sample rate).
    public let configuration: STFTConfiguration
    /// The detectors, in a stable order.
    public let detectors: [any SpectralDetector]
    /// Samples consumed so far.
    public private(set) var sampleCount: Int64 = 0
    /// Detections found so far, in the order the detectors produced them.
    public private(set) var detections: [Detection] = []

    /// Called with every STFT frame before the detectors see it (for reports); nil by default.
    public var frameObserver: ((SpectralFrame) -> Void)?
    /// Whether the detectors also report activities as soon as they confirm them (a live
    /// stream's early records, ``SpectralDetector/reportStarts(into:)``), after each frame.
    public var reportsStarts = false

    private let stft: ShortTimeFourierTransform
    private var finished = false

    /// Creates an analyzer for a stream at `sampleRate` running the detectors of `triggers`
    /// that this build has (see ``DetectorRegistry``).
    public init(sampleRate: Double, triggers: Set<EventTriggerType>, settings: DetectorSettings = DetectorSettings()) {
        configuration = .standard(sampleRate: sampleRate)
        detectors = DetectorRegistry.makeDetectors(for: triggers, configuration: configuration, settings: settings)
        stft = ShortTimeFourierTransform(configuration: configuration)
    }

    /// Media time consumed so far, in seconds.
    public var mediaTime: Double { Double(sampleCount) / configuration.sampleRate }

    /// Consumes the next block of mono samples; returns the detections it completed.
    @discardableResult
    public func process(_ samples: UnsafeBufferPointer<Float>) -> ArraySlice<Detection> {
        precondition(!finished, "process after finish")
        let before = detections.count
        let detectors = self.detectors
        let observer = frameObserver
        let reportsStarts = self.reportsStarts
        stft.process(samples) { frame in
            observer?(frame)
            for detector in detectors {
                detector.process(frame, into: &detections)
                if reportsStarts { detector.reportStarts(into: &detections) }
            }
        }
        sampleCount += Int64(samples.count)
        return detections[before...]
    }

    /// Forgets the detections found so far (a stream of unbounded length keeps its memory flat by
    /// taking each block's detections and then removing them).
    public func removeDetections() { detections.removeAll(keepingCapacity: true) }

    /// Ends the stream: flushes the last frame and closes every detector. Returns the detections
    /// this completed. Further calls return nothing.
    @discardableResult
    public func finish() -> ArraySlice<Detection> {
        guard !finished else { return [] }
        finished = true
        let before = detections.count
        let detectors = self.detectors
        let observer = frameObserver
        stft.finish { frame in
            observer?(frame)
            for detector in detectors { detector.process(frame, into: &detections) }
        }
        let end = mediaTime
        for detector in detectors { detector.finish(at: end, into: &detections) }
        return detections[before...]
    }
}
