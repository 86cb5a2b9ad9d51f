import VigilCore
import VigilDSP
import VigilInference

/// A sound-event detector driven by a small trained model (``SoundModel``): dogBark,
/// glassBreak and personTalking.
///
/// Features come from the shared STFT through one ``SharedFeatureStream`` per stream (computed
/// once per frame for all learned detectors whose models name the same ``SoundModel/frames``):
/// floor-relative log-mel bands, spectral flux,
/// centroid, flatness, harmonicity, band energy shares and syllable-rate (3-6 Hz) modulation,
/// pooled over centred windows (0.2 s and 0.75 s) every 4 frames, and the activity-weighted
/// spectral shape. The model's classifier (gradient-boosted trees over the pooled decision vector, or
/// a temporal convolutional network over the per-frame columns) gives a probability per decision; ``EventTracker`` smooths it (3-decision median,
/// hysteresis, gap bridging) into events. Glass break also needs the two-stage impact-then-
/// shatter evidence (``ImpactShatterGate``); the shatter band (above 4.5 kHz) is read at the
/// stream's native rate, so at 32 kHz and above the full band is used, and below it the
/// detector still runs on the reduced band.
///
/// Sensitivity 1...10 maps to the start threshold: logit(θ) = logit(θ5) − step × (level − 5),
/// where θ5 (the validation-optimal threshold) and step come from the model file.
///
/// Latency: a decision is available half the modulation window (0.5 s) after its centre. An
/// event is confirmed (its `detectedAt`) at the decision at which ``EventTracker`` has enough
/// active decisions and, for glass break, the impact-then-shatter evidence; ``reportStarts(into:)``
/// reports it then as ``Detection/Phase/started``. Its complete detection (same start and
/// `detectedAt`) is appended when the event ends (the merge gap after the last active decision)
/// or at `finish`.
public final class LearnedSoundDetector: SpectralDetector {
    /// The trigger reported.
    public let trigger: EventTriggerType
    /// The model in use.
    public let model: SoundModel
    /// The start threshold at the configured sensitivity.
    public var threshold: Double { tracker.startThreshold }
    private let tracker: EventTracker
    private var stream: SharedFeatureStream?
    // The same stream, read without retaining it per frame: the table of shared streams holds it
    // weakly, so each retain and release of it goes through the slow side-table path (about 9 % of
    // all six detectors' time). `stream` keeps it alive.
    private var streamReference: Unmanaged<SharedFeatureStream>?
    private var events: [TrackedEvent] = []
    /// The network's stream, when the model's classifier is a network.
    private let networkStream: TemporalConvolutionalNetworkStream?
    /// Decisions whose network logit waits for later frames (where the network's look-ahead exceeds the
    /// features' latency; never for a network on fixed-duration frames with the default pooling), decided as
    /// soon as the frame they wait for is in, and the index of the next decision.
    private var waiting: [(centerTime: Double, availableTime: Double, treesLogit: Float?)] = []
    private var nextDecision = 0

    /// A detector for `trigger` with `model` (whose label must be the trigger's name).
    public init(trigger: EventTriggerType, model: SoundModel, configuration: STFTConfiguration, sensitivity: Sensitivity) {
        precondition(model.label == trigger.rawValue, "model \(model.label) used for \(trigger.rawValue)")
        self.trigger = trigger
        self.model = model
        networkStream = model.classifier.network.map(TemporalConvolutionalNetworkStream.init(network:))
        let hop = model.frames.configuration(incoming: configuration).hopDuration
        tracker = EventTracker(
            parameters: model.decision, sensitivity: sensitivity,
            decisionPeriod: hop * Double(FeatureSpec.current.decisionStride), hop: hop)
    }

    /// The shipped (embedded) model for `trigger`, parsed once; nil if `trigger` has no learned
    /// detector. Throws ``ShippedModelError`` (with the label and the reason) when the embedded
    /// model does not load.
    public static func loadShippedModel(for trigger: EventTriggerType) throws(ShippedModelError) -> SoundModel? {
        guard let result = ShippedModels.byTrigger[trigger] else { return nil }
        return try result.get()
    }

    /// The shipped (embedded) model for `trigger`, parsed once; nil if `trigger` has no learned
    /// detector. The embedded models are part of the build (a test decodes each one against its
    /// file in `Models/`): one that does not load is a defect of the build, and stops the program
    /// with its label and the reason instead of leaving the trigger without a detector. Callers
    /// that report errors themselves use ``loadShippedModel(for:)``.
    public static func shippedModel(for trigger: EventTriggerType) -> SoundModel? {
        do { return try loadShippedModel(for: trigger) } catch { fatalError(error.description) }
    }

    /// The shipped model for `trigger` on a stream at `sampleRate` Hz: below ``SoundModel/lowRateLimit`` the
    /// label's low-rate model (``SoundModel/trainingRate``) where it has one, else its model; nil if `trigger`
    /// has no learned detector. Stops the program like ``shippedModel(for:)`` when the embedded model does not load.
    public static func shippedModel(for trigger: EventTriggerType, sampleRate: Double) -> SoundModel? {
        if sampleRate < Double(SoundModel.lowRateLimit), let lowRate = ShippedModels.lowRateByTrigger[trigger] {
            do { return try lowRate.get() } catch { fatalError(error.description) }
        }
        return shippedModel(for: trigger)
    }

    /// A detector for `trigger` with the shipped model for the stream's rate
    /// (``shippedModel(for:sampleRate:)``), or nil if `trigger` has no learned detector.
    public static func shipped(
        for trigger: EventTriggerType, configuration: STFTConfiguration, sensitivity: Sensitivity
    ) -> LearnedSoundDetector? {
        guard let model = shippedModel(for: trigger, sampleRate: configuration.sampleRate) else { return nil }
        return LearnedSoundDetector(trigger: trigger, model: model, configuration: configuration, sensitivity: sensitivity)
    }

    public func process(_ frame: SpectralFrame, into detections: inout [Detection]) {
        if streamReference == nil {
            let stream = SharedFeatureStream.stream(for: frame, frames: model.frames)
            self.stream = stream
            streamReference = Unmanaged.passUnretained(stream)
        }
        streamReference!._withUnsafeGuaranteedRef { stream in
            let decisions = stream.advance(frame)
            observeMeasuredFrames(stream)
            for d in decisions { decide(d.centerTime, d.availableTime, d.vector) }
        }
        flush(into: &detections)
    }

    /// Hands the tracker the per-frame values of the feature frames the stream measured last.
    private func observeMeasuredFrames(_ stream: SharedFeatureStream) {
        let n = stream.columnCount
        let bands = FeatureSpec.current.melBands
        for (k, time) in stream.measuredTimes.enumerated() {
            let columns = stream.measuredColumns[(k * n)..<((k + 1) * n)]
            tracker.observeFrame(time: time, columns: columns, melBands: bands)
            if let networkStream {
                columns.withUnsafeBufferPointer { networkStream.append(columns: $0.baseAddress!, melBands: bands) }
                decideWaiting()
            }
        }
    }

    public func finish(at endTime: Double, into detections: inout [Detection]) {
        if let stream {
            let decisions = stream.finish()
            observeMeasuredFrames(stream)
            networkStream?.end()
            for d in decisions { decide(d.centerTime, d.availableTime, d.vector) }
            decideWaiting()
        }
        tracker.finish(into: &events)
        flush(into: &detections)
    }

    private func decide(_ center: Double, _ available: Double, _ vector: [Float]) {
        let treesLogit = model.classifier.trees.map { trees in vector.withUnsafeBufferPointer { trees.logit($0) } }
        guard networkStream != nil else {
            decide(center, available, logit: SoundClassifier.combined(trees: treesLogit, network: nil))
            return
        }
        waiting.append((center, available, treesLogit))
        decideWaiting()
    }

    private func decide(_ center: Double, _ available: Double, logit: Float) {
        tracker.decide(centerTime: center, availableTime: available, probability: Double(1 / (1 + expf(-logit))), into: &events)
    }

    /// The centre time of the frame decision `j`'s network logit reaches (the stream's last frame when that one
    /// never came): the decision is available no earlier.
    private func lookaheadFrameTime(decision j: Int) -> Double {
        guard let networkStream, let stream else { return 0 }
        let frame = min(TemporalConvolutionalNetwork.frameStride * j + networkStream.network.lookaheadFrames, networkStream.frameCount - 1)
        return stream.extractor.centerTime(ofFrame: max(0, frame))
    }

    /// Decides the waiting decisions whose network logits the frames so far allow.
    private func decideWaiting() {
        guard let networkStream else { return }
        var taken = 0
        for d in waiting {
            guard networkStream.isReady(decision: nextDecision) else { break }
            let networkLogit = networkStream.logit(decision: nextDecision)
            nextDecision += 1
            taken += 1
            decide(
                d.centerTime, max(d.availableTime, lookaheadFrameTime(decision: nextDecision - 1)),
                logit: SoundClassifier.combined(trees: d.treesLogit, network: networkLogit))
        }
        waiting.removeFirst(taken)
    }

    /// Reports the open event once the tracker has confirmed it, with what is known so far; its
    /// complete detection (same start and `detectedAt`) follows when it ends.
    public func reportStarts(into detections: inout [Detection]) {
        if let e = tracker.takeConfirmedStart() { detections.append(detection(e, phase: .started)) }
    }

    private func flush(into detections: inout [Detection]) {
        guard !events.isEmpty else { return }
        for e in events { detections.append(detection(e, phase: .complete)) }
        events.removeAll(keepingCapacity: true)
    }

    private func detection(_ e: TrackedEvent, phase: Detection.Phase) -> Detection {
        var evidence: [String: EvidenceValue] = [
            "peakProbability": .number(e.peakProbability), "meanProbability": .number(e.meanProbability),
            "threshold": .number(tracker.startThreshold), "model": .string("\(model.label) v\(model.modelVersion)"),
        ]
        if let t = e.impactTime { evidence["impactTime"] = .number(t) }
        if let s = e.shatterSeconds { evidence["shatterSeconds"] = .number(s) }
        return Detection(
            trigger: trigger, start: e.onset, end: max(e.offset, e.onset), detectedAt: e.detectedAt,
            confidence: min(1, max(0, e.peakProbability)), evidence: evidence, phase: phase)
    }
}

/// Why an embedded (shipped) sound model could not be loaded.
public struct ShippedModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model's label (its trigger's name).
    public let label: String
    /// Why it did not load.
    public let reason: String

    public var description: String { "the shipped \(label) model does not load: \(reason)" }
}

/// The embedded models, parsed once, by trigger: every learned trigger has an entry, a model or
/// the reason it did not load.
package enum ShippedModels {
    static let byTrigger: [EventTriggerType: Result<SoundModel, ShippedModelError>] = Dictionary(
        uniqueKeysWithValues: [EventTriggerType.dogBark, .glassBreak, .personTalking].map {
            ($0, decode(label: $0.rawValue, text: EmbeddedModels.text(for: $0)))
        })

    /// The embedded low-rate models (for streams below ``SoundModel/lowRateLimit``), parsed once, by trigger:
    /// only the triggers that have one.
    static let lowRateByTrigger: [EventTriggerType: Result<SoundModel, ShippedModelError>] = Dictionary(
        uniqueKeysWithValues: [EventTriggerType.dogBark, .glassBreak, .personTalking].compactMap { trigger in
            EmbeddedModels.lowRateText(for: trigger).map { (trigger, decode(label: trigger.rawValue, text: $0, lowRate: true)) }
        })

    /// Decodes the embedded `text` of the model of `label` (nil: none is embedded); `lowRate`: the text must be a
    /// low-rate model (``SoundModel/trainingRate`` set), else it must not be one.
    package static func decode(label: String, text: String?, lowRate: Bool = false) -> Result<SoundModel, ShippedModelError> {
        guard let text else {
            return .failure(ShippedModelError(label: label, reason: "no embedded model (EmbeddedModels.swift has none)"))
        }
        let model: SoundModel
        do { model = try SoundModel(fileText: text) } catch {
            return .failure(ShippedModelError(label: label, reason: "\(error)"))
        }
        guard model.label == label else {
            return .failure(ShippedModelError(label: label, reason: "the embedded text is the model of \(model.label)"))
        }
        guard (model.trainingRate != nil) == lowRate else {
            return .failure(
                ShippedModelError(
                    label: label,
                    reason: lowRate ? "the embedded low-rate model has no trainingRate" : "the embedded model is a low-rate model"))
        }
        return .success(model)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
