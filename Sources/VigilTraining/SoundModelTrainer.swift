import VigilCore
import VigilDSP
import VigilInference
import VigilScoring

/// Features of one recording: the decision vectors and the per-frame gate values.
package struct RecordingFeatures: Sendable {
    /// File name.
    package var name: String
    /// Duration (seconds).
    package var duration: Double
    /// Sample rate.
    package var sampleRate: Double
    /// Decision centre times.
    package var centerTimes: [Double] = []
    /// Times at which each decision was available.
    package var availableTimes: [Double] = []
    /// Decision vectors, row-major (`centerTimes.count x dimension`).
    package var matrix: [Float] = []
    /// Frame centre times.
    package var frameTimes: [Double] = []
    /// Per frame: flux, low-band flux, HF ratio, mean relative level, largest relative band level.
    package var gateValues: [Float] = []
    /// Per frame: the raw inputs of a ``TemporalConvolutionalNetwork`` (``TemporalConvolutionalNetwork/inputChannels`` values).
    package var networkInputs: [Float] = []
    /// The frames the features were taken on.
    package var frames: FeatureFrames

    /// Creates empty features for a recording, taken on `frames`.
    package init(name: String, duration: Double, sampleRate: Double, frames: FeatureFrames = .shared) {
        self.name = name
        self.duration = duration
        self.sampleRate = sampleRate
        self.frames = frames
    }
}

/// Validation figures of one model.
package struct ValidationFigures: Sendable, Hashable {
    /// Event-based figures (0.5 s onset collar, offsets ignored; VigilScoring, DCASE 2017 settings).
    package var event: LabelFigures
    /// Event-based figures in sed_eval's default setting (0.2 s onset collar, offsets within
    /// max(0.2 s, 50 % of the reference)): how closely onsets and offsets agree.
    package var eventSedEvalDefault: LabelFigures
    /// Segment-based figures (1 s segments; VigilScoring).
    package var segment: LabelFigures
    /// Detections on counted negative files.
    package var negativeFalseAlarms: Int
    /// Hours of counted negative material.
    package var negativeHours: Double
    /// False alarms per hour on negatives.
    package var falseAlarmsPerHour: Double { negativeHours > 0 ? Double(negativeFalseAlarms) / negativeHours : 0 }
}

/// Training of the sound models, in Swift, deterministic (fixed seed, fixed data order).
package enum SoundModelTrainer {
    /// Per-label settings (merge gap, gate, objective), from the label's ``SoundModelRecipe``.
    package static func defaults(for label: String) -> (
        mergeGap: Double, gate: ImpactShatterGate?, segmentObjective: Bool, splitPause: Double
    ) {
        let recipe = SoundModelRecipe.of(label: label)
        return (recipe.mergeGapSeconds, recipe.gate, recipe.segmentObjective, recipe.splitPauseSeconds)
    }

    /// Inputs each model ignores (scale 0): absolute level everywhere (recording gain is not a
    /// property of the sound); unless the recipe uses the high band (glassBreak), also the bands
    /// above 8 kHz, the HF share and the centroid (the sources differ in bandwidth, the classes do
    /// not); unless it uses the burst values (dogBark), those.
    package static func ignoredInputs(for label: String) -> [Int] {
        let recipe = SoundModelRecipe.of(label: label)
        let names = FeatureSpec.current.componentNames
        let spec = FeatureSpec.current
        let bank = MelFilterBank(
            configuration: .standard(sampleRate: 44_100), bands: spec.melBands, minFrequency: spec.minFrequency,
            maxFrequency: spec.maxFrequency)
        var ignored: Set<String> = ["mean.level", "short.level", "max.level"]
        if !recipe.usesHighBand {
            for (b, c) in bank.centers.enumerated() where c > 8_000 {
                ignored.formUnion(["mean.rel\(b)", "std.rel\(b)", "short.rel\(b)"])
            }
            ignored.formUnion([
                "mean.hfRatio", "std.hfRatio", "short.hfRatio", "max.hfRatio", "mean.centroid", "std.centroid", "short.centroid",
            ])
        }
        return names.indices.filter { ignored.contains(names[$0]) || (!recipe.usesBurstValues && names[$0].hasPrefix("burst.")) }
    }

    /// A training variant of a recording: gain `gainDB` and `background` (looped, any length)
    /// mixed in at `snrDB` below the recording's RMS. Deterministic.
    package static func augmented(_ samples: [Float], background: [Float], snrDB: Double, gainDB: Double, offset: Int) -> [Float] {
        func rms(_ x: [Float]) -> Double {
            var s = 0.0
            for v in x { s += Double(v) * Double(v) }
            return (s / Double(max(x.count, 1))).squareRoot()
        }
        let a = rms(samples)
        let b = rms(background)
        guard !background.isEmpty, b > 1e-9, a > 1e-9 else { return samples }
        let bgGain = Float(a / b * pow(10, -snrDB / 20))
        let g = Float(pow(10, gainDB / 20))
        var out = samples
        for i in 0..<out.count {
            let v = (out[i] + bgGain * background[(i + offset) % background.count]) * g
            out[i] = min(1, max(-1, v))
        }
        return out
    }

    /// Synthetic training negatives (20 s each): steady noises (white, pink-like, brown-like;
    /// three levels): steady broadband noise (fans, HVAC, rain) is never an event; and
    /// ``syntheticConfusers(sampleRate:seed:)``: abrupt noise bursts and steady tones.
    package static func syntheticNegatives(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        steadyNoises(sampleRate: sampleRate, seed: seed) + syntheticConfusers(sampleRate: sampleRate, seed: seed &+ 1)
    }

    /// Whether `label` trains on ``syntheticConfusers(sampleRate:seed:)`` (its recipe's ``SoundModelRecipe/syntheticConfusers``).
    package static func usesSyntheticConfusers(_ label: String) -> Bool { SoundModelRecipe.of(label: label).syntheticConfusers }

    /// Whether `name` is one of the recordings of ``syntheticConfusers(sampleRate:seed:)``.
    package static func isSyntheticConfuser(_ name: String) -> Bool {
        name.hasPrefix("synthetic-noise-bursts") || name.hasPrefix("synthetic-steady-tones")
    }

    /// Abrupt synthetic sounds that are none of the learned classes (20 s each): bursts of white,
    /// pink-like or brown-like noise (0.05-1 s, switched on within 1 ms, -45 to -6 dBFS) and steady
    /// sine or square tones (150-4000 Hz, 0.2-2 s, 6 files), over a quiet white floor. A burst of noise has
    /// glass's impact and high-frequency energy but none of its ringing fragments; a steady tone
    /// has voicing but no syllables or formant motion. Deterministic in `seed`.
    package static func syntheticConfusers(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        var rng = SplitMix64(seed: seed)
        var out: [(String, [Float])] = []
        let n = Int(20 * sampleRate)
        func quietFloor(_ level: Double) -> [Float] {
            (0..<n).map { _ in Float(rng.nextGaussian() * level) }
        }
        for k in 0..<4 {
            var x = quietFloor(pow(10, (-75 + 20 * rng.nextUnit()) / 20))
            var t = 0.3 + rng.nextUnit()
            while t < 19 {
                let duration = 0.05 + 0.95 * rng.nextUnit() * rng.nextUnit()
                let level = pow(10, (-45 + 39 * rng.nextUnit()) / 20)
                let color = rng.nextIndex(below: 3)
                let start = Int(t * sampleRate)
                let count = min(n - start, Int(duration * sampleRate))
                let ramp = max(1, Int(0.001 * sampleRate))
                var b0 = 0.0, b1 = 0.0, b2 = 0.0, brown = 0.0
                for j in 0..<max(0, count) {
                    let w = rng.nextGaussian()
                    var v: Double
                    switch color {
                    case 0: v = w
                    case 1:
                        b0 = 0.99765 * b0 + w * 0.0990460
                        b1 = 0.96300 * b1 + w * 0.2965164
                        b2 = 0.57000 * b2 + w * 1.0526913
                        v = (b0 + b1 + b2 + w * 0.1848) * 0.25
                    default:
                        brown = 0.995 * brown + w * 0.1
                        v = brown
                    }
                    let fade = Double(min(j, count - 1 - j, ramp)) / Double(ramp)
                    x[start + j] = Float(max(-1, min(1, Double(x[start + j]) + v * level * min(1, fade))))
                }
                t += duration + 0.4 + 2 * rng.nextUnit()
            }
            out.append(("synthetic-noise-bursts-\(k)", x))
        }
        for k in 0..<6 {
            var x = quietFloor(pow(10, (-75 + 20 * rng.nextUnit()) / 20))
            var t = 0.3 + rng.nextUnit()
            while t < 19 {
                let duration = 0.2 + 1.8 * rng.nextUnit()
                let amplitude = pow(10, (-40 + 30 * rng.nextUnit()) / 20) * 2.0.squareRoot()
                let frequency = 150 * pow(4000 / 150, rng.nextUnit())
                let square = rng.nextUnit() < 0.4
                let start = Int(t * sampleRate)
                let count = min(n - start, Int(duration * sampleRate))
                let ramp = max(1, Int(0.005 * sampleRate))
                var harmonics: [Double] = [1]
                if square {
                    var h = 3.0
                    while h * frequency < 0.45 * sampleRate {
                        harmonics.append(h)
                        h += 2
                    }
                }
                for j in 0..<max(0, count) {
                    let time = Double(j) / sampleRate
                    var v = 0.0
                    for h in harmonics { v += sin(2 * Double.pi * frequency * h * time) / h }
                    let fade = Double(min(j, count - 1 - j, ramp)) / Double(ramp)
                    x[start + j] = Float(max(-1, min(1, Double(x[start + j]) + amplitude * v * min(1, fade))))
                }
                t += duration + 0.4 + 2 * rng.nextUnit()
            }
            out.append(("synthetic-steady-tones-\(k)", x))
        }
        return out
    }

    /// Steady synthetic noises (white, pink-like, brown-like; 20 s each, three levels).
    static func steadyNoises(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        var rng = SplitMix64(seed: seed)
        var out: [(String, [Float])] = []
        let n = Int(20 * sampleRate)
        for (k, color) in ["white", "pink", "brown"].enumerated() {
            for (j, level) in [0.003, 0.03, 0.2].enumerated() {
                var x = [Float](repeating: 0, count: n)
                var b0 = 0.0, b1 = 0.0, b2 = 0.0, brown = 0.0
                for i in 0..<n {
                    let w = rng.nextGaussian()
                    var v: Double
                    switch k {
                    case 0: v = w
                    case 1:
                        b0 = 0.99765 * b0 + w * 0.0990460
                        b1 = 0.96300 * b1 + w * 0.2965164
                        b2 = 0.57000 * b2 + w * 1.0526913
                        v = (b0 + b1 + b2 + w * 0.1848) * 0.25
                    default:
                        brown = 0.995 * brown + w * 0.1
                        v = brown
                    }
                    x[i] = Float(max(-1, min(1, v * level)))
                }
                out.append(("synthetic-\(color)-noise-\(j)", x))
            }
        }
        return out
    }

    /// Name prefix of extra negative recordings (``extraNegativeFeatures(name:samples:sampleRate:)``).
    package static let extraNegativePrefix = "negative:"

    /// Features of an extra negative recording: audio with no event of any label, outside the labeled
    /// set (the shipped dogBark model's rendered music, `vigil train --negatives`). Its name carries
    /// ``extraNegativePrefix``, so it never matches a labeled file's annotations and is never drawn
    /// into the validation part: it is always training data.
    package static func extraNegativeFeatures(
        name: String, samples: [Float], sampleRate: Double, frames: FeatureFrames = .shared
    ) -> RecordingFeatures {
        extractFeatures(name: extraNegativePrefix + name, samples: samples, sampleRate: sampleRate, frames: frames)
    }

    /// Name prefix of extra labeled recordings (``extraPositiveFeatures(name:samples:sampleRate:)``).
    package static let extraPositivePrefix = "positive:"

    /// Features of an extra labeled recording, outside the labeled set (the shipped personTalking
    /// model's words of other speakers, `vigil train --positives`). Its name carries
    /// ``extraPositivePrefix`` (its annotations must too), so it never collides with a labeled file
    /// and is never drawn into the validation part: it is always training data.
    package static func extraPositiveFeatures(
        name: String, samples: [Float], sampleRate: Double, frames: FeatureFrames = .shared
    ) -> RecordingFeatures {
        extractFeatures(name: extraPositivePrefix + name, samples: samples, sampleRate: sampleRate, frames: frames)
    }

    /// The events of extra labeled recordings, named as ``extraPositiveFeatures(name:samples:sampleRate:)`` names their files.
    package static func extraPositiveEvents(_ events: [LabelEvent]) -> [LabelEvent] {
        events.map { LabelEvent(file: extraPositivePrefix + $0.file, onset: $0.onset, offset: $0.offset, label: $0.label) }
    }

    /// Extracts decision vectors and gate values from a whole recording, on `frames` (as the detector does).
    package static func extractFeatures(
        name: String, samples: [Float], sampleRate: Double, frames: FeatureFrames = .shared
    ) -> RecordingFeatures {
        let configuration = frames.configuration(sampleRate: sampleRate)
        let stft = ShortTimeFourierTransform(configuration: configuration)
        let extractor = SoundFeatureExtractor(configuration: configuration)
        var rec = RecordingFeatures(
            name: name, duration: Double(samples.count) / sampleRate, sampleRate: sampleRate, frames: frames)
        let nb = FeatureSpec.current.melBands
        func take(_ w: FeatureWindow) {
            rec.centerTimes.append(w.centerTime)
            rec.availableTimes.append(w.availableTime)
            rec.matrix.append(contentsOf: w.vector)
        }
        var inputs = [Float](repeating: 0, count: TemporalConvolutionalNetwork.inputChannels)
        func frame(_ f: SpectralFrame) {
            extractor.process(f, take)
            let c = extractor.newestColumns
            let b = c.startIndex + nb
            rec.frameTimes.append(f.centerTime)
            rec.gateValues.append(contentsOf: [c[b + 1], c[b + 2], c[b + 6], c[b + 9], c[b + 11]])
            c.withUnsafeBufferPointer { columns in
                inputs.withUnsafeMutableBufferPointer {
                    TemporalConvolutionalNetwork.rawInputs(columns: columns.baseAddress!, melBands: nb, into: $0.baseAddress!)
                }
            }
            rec.networkInputs.append(contentsOf: inputs)
        }
        samples.withUnsafeBufferPointer { stft.process($0, frame) }
        stft.finish(frame)
        extractor.finish(take)
        return rec
    }

    /// Where the sound of a clip-labelled positive is: runs of frames whose mean relative band level
    /// (over the running background floor, log10) is at least `minimumActivity` and at least
    /// `minimumActivity` above the clip's own median (its background: most of a clip is not the event),
    /// joined over gaps shorter than 0.1 s, as events of `label` on `rec`. A clip with no such frame gets none.
    package static func activityEvents(_ rec: RecordingFeatures, label: String, minimumActivity: Float) -> [LabelEvent] {
        let count = rec.frameTimes.count
        guard count > 0 else { return [] }
        let activity = (0..<count).map { rec.gateValues[5 * $0 + 3] }
        let median = activity.sorted()[count / 2]
        let level = max(minimumActivity, median + minimumActivity)
        let hop = count > 1 ? rec.frameTimes[1] - rec.frameTimes[0] : 0.01
        var events: [LabelEvent] = []
        var start: Int?
        var last = 0
        for i in 0..<count where activity[i] >= level {
            if let s = start, rec.frameTimes[i] - rec.frameTimes[last] >= 0.1 {
                events.append(
                    LabelEvent(
                        file: rec.name, onset: max(0, rec.frameTimes[s] - hop / 2), offset: rec.frameTimes[last] + hop / 2, label: label))
                start = i
            } else if start == nil {
                start = i
            }
            last = i
        }
        if let s = start {
            events.append(
                LabelEvent(
                    file: rec.name, onset: max(0, rec.frameTimes[s] - hop / 2), offset: min(rec.duration, rec.frameTimes[last] + hop / 2),
                    label: label))
        }
        return events
    }

    /// Runs `model` over precomputed features as the streaming detector would.
    package static func simulate(_ rec: RecordingFeatures, model: SoundModel, sensitivity: Sensitivity = .medium) -> [TrackedEvent] {
        simulate(rec, classifier: model.classifier, decision: model.decision, sensitivity: sensitivity)
    }

    /// Runs `classifier` and a tracker over precomputed features (the same order of operations as
    /// the streaming detector). `probabilities` may pass cached classifier outputs.
    package static func simulate(
        _ rec: RecordingFeatures, classifier: SoundClassifier, decision: DecisionParameters, sensitivity: Sensitivity = .medium,
        probabilities: [Float]? = nil
    ) -> [TrackedEvent] {
        let spec = FeatureSpec.current
        let hop = rec.frames.configuration(sampleRate: rec.sampleRate).hopDuration
        let tracker = EventTracker(
            parameters: decision, sensitivity: sensitivity, decisionPeriod: hop * Double(spec.decisionStride), hop: hop)
        let probs = probabilities ?? self.probabilities(rec, classifier: classifier)
        var events: [TrackedEvent] = []
        var f = 0
        for i in 0..<rec.centerTimes.count {
            // A network's decision waits for the frame its look-ahead reaches, where that comes after the features'.
            var available = rec.availableTimes[i]
            if let network = classifier.network, !rec.frameTimes.isEmpty {
                let frame = min(TemporalConvolutionalNetwork.frameStride * i + network.lookaheadFrames, rec.frameTimes.count - 1)
                available = max(available, rec.frameTimes[frame])
            }
            while f < rec.frameTimes.count && rec.frameTimes[f] <= available + 1e-9 {
                observe(tracker, rec, f)
                f += 1
            }
            tracker.decide(centerTime: rec.centerTimes[i], availableTime: available, probability: Double(probs[i]), into: &events)
        }
        while f < rec.frameTimes.count {
            observe(tracker, rec, f)
            f += 1
        }
        tracker.finish(into: &events)
        return events
    }

    private static func observe(_ tracker: EventTracker, _ rec: RecordingFeatures, _ f: Int) {
        let g = rec.gateValues[(5 * f)..<(5 * f + 5)]
        tracker.observeFrame(
            time: rec.frameTimes[f], flux: g[g.startIndex], lowFlux: g[g.startIndex + 1], hfRatio: g[g.startIndex + 2],
            meanRelative: g[g.startIndex + 3], maxRelative: g[g.startIndex + 4])
    }

    /// `model`'s probabilities for every decision of `rec`.
    package static func probabilities(_ rec: RecordingFeatures, model: SoundModel) -> [Float] {
        probabilities(rec, classifier: model.classifier)
    }

    /// Classifier probabilities for every decision of `rec` (a network's as its stream in the detector computes them).
    package static func probabilities(_ rec: RecordingFeatures, classifier: SoundClassifier) -> [Float] {
        let decisions = rec.centerTimes.count
        var treesLogits: [Float]?
        if let trees = classifier.trees {
            let d = trees.inputs
            treesLogits = rec.matrix.withUnsafeBufferPointer { m in
                (0..<decisions).map { i in trees.logit(UnsafeBufferPointer(rebasing: m[(i * d)..<((i + 1) * d)])) }
            }
        }
        var networkLogits: [Float]?
        if let network = classifier.network {
            // Frame by frame, each decision as soon as its frames are in: the stream keeps only the recent frames.
            let stream = TemporalConvolutionalNetworkStream(network: network)
            let c = TemporalConvolutionalNetwork.inputChannels
            var logits: [Float] = []
            logits.reserveCapacity(decisions)
            rec.networkInputs.withUnsafeBufferPointer { x in
                for f in 0..<(x.count / c) {
                    stream.append(x.baseAddress! + f * c)
                    while logits.count < decisions && stream.isReady(decision: logits.count) {
                        logits.append(stream.logit(decision: logits.count))
                    }
                }
            }
            stream.end()
            while logits.count < decisions { logits.append(stream.logit(decision: logits.count)) }
            networkLogits = logits
        }
        return (0..<decisions).map { i in
            1 / (1 + expf(-SoundClassifier.combined(trees: treesLogits?[i], network: networkLogits?[i])))
        }
    }

    /// Scores events of `label` found on `recordings` against `annotations`; false alarms are
    /// counted on files with no annotation at all. A detection that starts inside `ignoring` (voice
    /// background, for personTalking) and overlaps no reference event of `label` is left out: it is
    /// neither a false positive nor a false alarm, and those regions do not count as negative hours.
    package static func score(
        label: String, found: [String: [TrackedEvent]], recordings: [RecordingFeatures], annotations: [LabelEvent],
        ignoring: VoiceBackground = .none
    ) -> ValidationFigures {
        let annotated = Set(annotations.map(\.file))
        let names = Set(recordings.map(\.name))
        let reference = annotations.filter { $0.label == label && names.contains($0.file) }
        let referenceByFile = Dictionary(grouping: reference, by: \.file)
        var estimated: [LabelEvent] = []
        var fa = 0
        var hours = 0.0
        for rec in recordings {
            let kept = ignoring.counted(
                (found[rec.name] ?? []).map { LabelEvent(file: rec.name, onset: $0.onset, offset: $0.offset, label: label) },
                reference: referenceByFile[rec.name] ?? [])
            estimated += kept
            if !annotated.contains(rec.name) {
                hours += (rec.duration - ignoring.coveredSeconds(file: rec.name, duration: rec.duration)) / 3600
                fa += kept.count
            }
        }
        // VigilScoring, file by file (sed_eval): DCASE 2017 event-based settings and 1 s segments
        // over each file's whole duration.
        var events = EventBasedMetrics.dcase2017(labels: [label])
        var strict = EventBasedMetrics.sedEvalDefault(labels: [label])
        var segments = SegmentBasedMetrics(labels: [label], timeResolution: 1)
        let estimatedByFile = Dictionary(grouping: estimated, by: \.file)
        for rec in recordings {
            let r = referenceByFile[rec.name] ?? []
            let e = estimatedByFile[rec.name] ?? []
            // Single-file lists with the metrics' own label: the scorer cannot throw here.
            try! events.evaluate(reference: r, estimated: e)
            try! strict.evaluate(reference: r, estimated: e)
            try! segments.evaluate(reference: r, estimated: e, evaluatedLength: rec.duration)
        }
        return ValidationFigures(
            event: LabelFigures(events.results(), label: label),
            eventSedEvalDefault: LabelFigures(strict.results(), label: label),
            segment: LabelFigures(segments.results(), label: label),
            negativeFalseAlarms: fa, negativeHours: hours)
    }

    /// Trains the model of `label` on the recordings outside `validation`, picks the sensitivity-5
    /// threshold on the validation recordings, and returns the model and its validation figures.
    ///
    /// - Parameters:
    ///   - recordings: features of every development recording (``extractFeatures(name:samples:sampleRate:)``), in a fixed order.
    ///   - annotations: all events (every label).
    ///   - validation: validation file names (``DevelopmentSet/validationFiles(provenance:files:validationPercent:salt:)``).
    ///   - voiceBackground: where recordings hold unannotated voices (personTalking neither trains on them as
    ///     negatives nor is scored there; ``DevelopmentSet/voiceBackground(provenance:)``).
    ///   - seed: the training seed.
    ///   - metadata: extra members for the model's `training` object (data hash, sources...).
    ///   - partlyLabelled: files whose annotations mark only where their sound is active (clip-labelled
    ///     positives, ``activityEvents(_:label:minimumActivity:)``): their decisions outside those events are
    ///     left out (weight 0), never taught as negatives.
    ///   - choiceFolds: when given, the decision is chosen on out-of-fold probabilities instead of on `validation`:
    ///     for each of these disjoint sets of recordings (base names), trees are trained on every other recording and
    ///     score that set; the decision grid is then evaluated on all the sets together (their `partlyLabelled`
    ///     recordings left out: they have no onsets to score), and the model's trees are trained on every recording
    ///     (`validation` is then ignored). An augmented copy whose `backgroundOf` item is in a set is not trained on for
    ///     that set.
    package static func train(
        label: String, recordings: [RecordingFeatures], annotations: [LabelEvent], validation: Set<String>,
        voiceBackground: VoiceBackground, seed: UInt64, options: TrainingOptions = TrainingOptions(),
        metadata: [(String, JSONValue)] = [], verbose: Bool = false, partlyLabelled: Set<String> = [],
        choiceFolds: [Set<String>] = [], backgroundOf: [String: String] = [:]
    ) -> (model: SoundModel, figures: ValidationFigures) {
        let d = FeatureSpec.current.dimension
        let setup = defaults(for: label)
        let recipe = SoundModelRecipe.of(label: label)
        // Voices in the background are neither taught nor scored as "not personTalking".
        let ignored: VoiceBackground = recipe.ignoresVoiceBackground ? voiceBackground : .none
        let byFile = Dictionary(grouping: annotations.filter { $0.label == label }, by: \.file)
        var options = options
        if options.ignoredInputs.isEmpty { options.ignoredInputs = ignoredInputs(for: label) }
        // Augmented copies are named "file#k" and share the annotations of "file".
        func base(_ name: String) -> String { name.split(separator: "#").first.map(String.init) ?? name }
        let crossFitted = !choiceFolds.isEmpty
        let validation = crossFitted ? Set(choiceFolds.joined()).subtracting(partlyLabelled) : validation
        var targetCount = 0
        var positives = 0
        /// The classifier trained on the recordings outside `excluded` (and copies of no item in it).
        func fit(excluding excluded: Set<String>) -> SoundClassifier {
            var features: [Float] = []
            var sequences: [TemporalConvolutionalNetworkTrainer.Sequence] = []
            var allTargets: [Float] = []
            var allWeights: [Float] = []
            positives = 0
            targetCount = 0
            for rec in recordings
            where !excluded.contains(base(rec.name)) && !(backgroundOf[rec.name].map { excluded.contains($0) } ?? false) {
                let events = byFile[base(rec.name)] ?? []
                var targets: [Float] = []
                var weights: [Float] = []
                let isNegativeClip =
                    events.isEmpty && rec.name.hasPrefix(TrainingClip.namePrefix) && !partlyLabelled.contains(base(rec.name))
                var f = 0
                for t in rec.centerTimes {
                    let positive = events.contains { t >= $0.onset && t <= $0.offset }
                    // Near an annotated boundary the target is ambiguous: left out.
                    let nearBoundary = events.contains {
                        abs(t - $0.onset) < options.boundaryMargin || abs(t - $0.offset) < options.boundaryMargin
                    }
                    // Inside an event, windows with no activity above the background (the clip's own
                    // background between barks) are left out rather than taught as the class.
                    while f + 1 < rec.frameTimes.count && rec.frameTimes[f + 1] <= t { f += 1 }
                    var activity: Float = -10
                    for g in max(0, f - 3)...min(rec.frameTimes.count - 1, f + 3) { activity = max(activity, rec.gateValues[5 * g + 3]) }
                    let inactivePositive = positive && activity < options.positiveActivity
                    targets.append(positive ? 1 : 0)
                    let ignoredNegative =
                        !positive && (ignored.contains(file: base(rec.name), time: t) || partlyLabelled.contains(base(rec.name)))
                    weights.append(
                        !ignoredNegative && !nearBoundary && !inactivePositive ? (isNegativeClip ? options.negativeClipWeight : 1) : 0)
                    if positive { positives += 1 }
                }
                if options.classifier.trainsTrees {
                    features.append(contentsOf: rec.matrix)
                    allTargets += targets
                    allWeights += weights
                }
                if options.classifier.trainsNetwork {
                    sequences.append(.init(inputs: rec.networkInputs, targets: targets, weights: weights))
                }
                targetCount += targets.count
            }
            let trees =
                options.classifier.trainsTrees
                ? GradientBoostedTreesTrainer.train(
                    features: features, dimension: d, targets: allTargets, weights: allWeights, ignoredInputs: options.ignoredInputs,
                    options: options.trees) : nil
            let network =
                options.classifier.trainsNetwork
                ? TemporalConvolutionalNetworkTrainer.train(sequences: sequences, options: options.network, seed: seed) : nil
            switch (trees, network) {
            case (let t?, let n?): return .treesAndNetwork(t, n)
            case (nil, let n?): return .network(n)
            case (let t?, nil): return .trees(t)
            case (nil, nil): preconditionFailure("a classifier choice trains trees, a network or both")
            }
        }
        var cached: [[Float]] = []
        let valRecs = recordings.filter { validation.contains($0.name) }
        let classifier: SoundClassifier
        if crossFitted {
            // Out-of-fold probabilities of every choice set, then the trees on everything.
            var probabilityOf: [String: [Float]] = [:]
            for set in choiceFolds {
                let inner = fit(excluding: set)
                for rec in valRecs where set.contains(rec.name) { probabilityOf[rec.name] = probabilities(rec, classifier: inner) }
            }
            cached = valRecs.map { probabilityOf[$0.name]! }
            classifier = fit(excluding: [])
        } else {
            classifier = fit(excluding: validation)
            cached = valRecs.map { probabilities($0, classifier: classifier) }
        }

        // Threshold at sensitivity 5: best validation F1 (event F1, or segment F1 for
        // personTalking) with more than 1 false alarm per hour on negatives penalised; the
        // middle of the near-best plateau.
        let trainingFileCount = recordings.filter { (crossFitted || !validation.contains(base($0.name))) && !$0.name.contains("#") }.count
        var results: [(decision: DecisionParameters, objective: Double, figures: ValidationFigures)] = []
        // A network's probabilities crowd near 0 and 1 more than the trees' do: its grid reaches further up.
        let thresholds =
            [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99]
            + (options.classifier.trainsNetwork ? [0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999] : [])
        let gaps = setup.segmentObjective ? [0.3, 0.5] : [0.3, 0.5, 0.8]
        // A decision stands for the decision period around its centre: the reported onset is the first
        // active decision's centre minus half the period (as the offset is the last one's plus half),
        // at the 44.1 kHz of the training data, in whole milliseconds. On the training part this leaves
        // no systematic onset error (a fixed 0.05 s lead puts onsets about 0.02 s early).
        let onsetLead =
            (STFTConfiguration.standard(sampleRate: 44_100).hopDuration
            * Double(FeatureSpec.current.decisionStride) / 2 * 1000).rounded() / 1000
        // Splitting at pauses (the annotation convention: barks apart by 0.5 s, speech by 0.3 s).
        let splits: [(Double?, Double)] =
            recipe.splitsAtPauses ? [(nil, 0.3)] + [0.2, 0.3, 0.5, 0.7, 1.0].map { (setup.splitPause, $0) } : [(nil, 0.3)]
        for gap in gaps {
            for activity in recipe.onsetActivities {
                for minActive in recipe.minActiveDecisions {
                    for split in splits {
                        for t in thresholds {
                            var decision = DecisionParameters(threshold: t, mergeGapSeconds: gap, gate: setup.gate)
                            decision.onsetLeadSeconds = onsetLead
                            decision.onsetActivity = activity
                            decision.splitPauseSeconds = split.0
                            decision.splitActivity = split.1
                            if let longest = recipe.maxEventSeconds { decision.maxEventSeconds = longest }
                            decision.minActiveDecisions = minActive
                            var found: [String: [TrackedEvent]] = [:]
                            for (i, rec) in valRecs.enumerated() {
                                found[rec.name] = simulate(rec, classifier: classifier, decision: decision, probabilities: cached[i])
                            }
                            let fig = score(
                                label: label, found: found, recordings: valRecs, annotations: annotations, ignoring: ignored)
                            results.append((decision, objective(fig, segmentObjective: setup.segmentObjective), fig))
                        }
                    }
                }
            }
        }
        if verbose {
            for r in results.sorted(by: { $0.objective > $1.objective }).prefix(25) {
                print(
                    "  gap \(r.decision.mergeGapSeconds) act \(r.decision.onsetActivity ?? -1) min \(r.decision.minActiveDecisions) split \(r.decision.splitPauseSeconds ?? -1)/\(r.decision.splitActivity) thr \(r.decision.threshold): eventF1 \(round4(r.figures.event.f1)) (TP \(r.figures.event.truePositives) FP \(r.figures.event.falsePositives) FN \(r.figures.event.falseNegatives)) segF1 \(round4(r.figures.segment.f1)) FA \(r.figures.negativeFalseAlarms)"
                )
            }
        }
        // Best setting; its threshold is then the middle of the near-best thresholds of that setting.
        let best = results.max { $0.objective < $1.objective }!
        // The best setting's results at every threshold.
        let setting = results.filter {
            $0.decision.mergeGapSeconds == best.decision.mergeGapSeconds && $0.decision.onsetActivity == best.decision.onsetActivity
                && $0.decision.minActiveDecisions == best.decision.minActiveDecisions
                && $0.decision.splitPauseSeconds == best.decision.splitPauseSeconds
                && $0.decision.splitActivity == best.decision.splitActivity
        }
        let same = setting.filter { $0.objective >= best.objective - 0.01 }
        let chosen = same[same.count / 2]
        var decision = chosen.decision
        // Sensitivity: level 10 reaches at least the setting's most sensitive useful threshold.
        decision.sensitivityLogitStep = sensitivityStep(
            threshold: decision.threshold,
            candidates: setting.map { ($0.decision.threshold, setup.segmentObjective ? $0.figures.segment.f1 : $0.figures.event.f1) })
        let training: JSONValue = .object(
            JSONObject(
                [
                    ("seed", .number(Double(seed))), ("trainingDecisions", .number(Double(targetCount))),
                    ("trainingPositives", .number(Double(positives))),
                    ("trainingFiles", .number(Double(trainingFileCount))),
                    ("augmentedCopies", .number(Double(recordings.filter { $0.name.contains("#") }.count))),
                    ("validationFiles", .number(Double(valRecs.count))),
                ] + (crossFitted ? [("decisionChosenOn", .string("out-of-fold probabilities of \(choiceFolds.count) sets"))] : [])
                    + classifierSettings(options) + [
                        (
                            "validation",
                            .object(
                                JSONObject([
                                    ("eventF1Collar0.5s", .number(round4(chosen.figures.event.f1))),
                                    ("eventPrecision", .number(round4(chosen.figures.event.precision))),
                                    ("eventRecall", .number(round4(chosen.figures.event.recall))),
                                    ("eventF1SedEvalDefault", .number(round4(chosen.figures.eventSedEvalDefault.f1))),
                                    ("segmentF1_1s", .number(round4(chosen.figures.segment.f1))),
                                    ("negativeFalseAlarms", .number(Double(chosen.figures.negativeFalseAlarms))),
                                    ("negativeHours", .number(round4(chosen.figures.negativeHours))),
                                ]))
                        )
                    ] + metadata))
        let model = SoundModel(label: label, modelVersion: 2, classifier: classifier, decision: decision, training: training)
        return (model, chosen.figures)
    }

    /// The smallest step of the sensitivity mapping (logit per level), the one models used before.
    package static let minimumSensitivityStep = 0.4

    /// The sensitivity step of a model whose level-5 threshold is `threshold`, from the validation F1
    /// of its decision setting at other thresholds (`candidates`, false alarms not counted): 0.4 logit
    /// per level, or more when level 10 would otherwise stay above the lower threshold with the best
    /// F1, so that the most sensitive levels reach the detections a user raising the sensitivity
    /// wants, at the cost of the false alarms the level-5 objective avoids. In whole hundredths.
    /// (dogBark with music negatives: level 5 at 0.99, where its validation recall is 0.32; with 0.4
    /// level 10 was 0.93 and found no more barks.)
    package static func sensitivityStep(threshold: Double, candidates: [(threshold: Double, f1: Double)]) -> Double {
        let atThreshold = candidates.filter { $0.threshold == threshold }.map(\.f1).max() ?? 0
        // The best F1 below the threshold; of equal ones the highest threshold (fewest detections).
        guard
            let best = candidates.filter({ $0.threshold < threshold && $0.f1.isFinite })
                .max(by: { $0.f1 != $1.f1 ? $0.f1 < $1.f1 : $0.threshold < $1.threshold }),
            best.f1 > atThreshold
        else { return minimumSensitivityStep }
        let logit = DecisionParameters.logit
        let step = ((logit(threshold) - logit(best.threshold)) / 5 * 100).rounded() / 100
        return max(minimumSensitivityStep, step)
    }

    /// What the decision grid maximises: validation event F1 (segment F1 for personTalking), less
    /// 0.05 per false alarm per hour above 1. With the event objective, ties (the 0.5 s collar cannot
    /// tell how far an onset is off) go to the setting whose onsets and offsets agree best: 0.001 x
    /// the sed_eval-default event F1, less than one event changes the F1. Not with the segment
    /// objective: on personTalking's segment ties that preferred a 0.5 s merge gap, which joins
    /// phrases the annotations split at 0.3 s pauses (whole-dev event F1 0.93 -> 0.81).
    package static func objective(_ figures: ValidationFigures, segmentObjective: Bool) -> Double {
        let f1 = segmentObjective ? figures.segment.f1 : figures.event.f1
        let tieBreak = segmentObjective ? 0 : 0.001 * figures.eventSedEvalDefault.f1
        return f1 - 0.05 * max(0, figures.falseAlarmsPerHour - 1) + tieBreak
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    /// The classifier's training settings, for the model file's `training` object.
    static func classifierSettings(_ options: TrainingOptions) -> [(String, JSONValue)] {
        var selection: [(String, JSONValue)] = [
            ("boundaryMargin", .number(options.boundaryMargin)),
            ("positiveActivity", .number(Double(options.positiveActivity.description) ?? 0)),
        ]
        // Recorded when it is not the default, so that a model trained without it keeps its bytes.
        if options.negativeClipWeight != 1 {
            selection.append(("negativeClipWeight", .number(Double(options.negativeClipWeight.description) ?? 0)))
        }
        var settings: [(String, JSONValue)] = [("classifier", .string(options.classifier.kind))]
        if options.classifier.trainsTrees {
            let t = options.trees
            settings += [
                ("iterations", .number(Double(t.iterations))), ("learningRate", .number(Double(t.learningRate.description) ?? 0)),
                ("maxLeaves", .number(Double(t.maxLeaves))), ("minSamplesPerLeaf", .number(Double(t.minSamplesPerLeaf))),
                ("l2", .number(t.l2)), ("maxBins", .number(Double(t.maxBins))),
                ("maxPositiveWeight", .number(Double(t.maxPositiveWeight.description) ?? 0)),
            ]
        }
        if options.classifier.trainsNetwork {
            let n = options.network
            settings += [
                ("networkHidden", .number(Double(n.hidden))), ("networkPoolHalfWidth", .number(Double(n.poolHalfWidth))),
                ("networkEpochs", .number(Double(n.epochs))), ("networkLearningRate", .number(Double(n.learningRate.description) ?? 0)),
                ("networkWeightDecay", .number(Double(n.weightDecay.description) ?? 0)),
                ("networkChunkDecisions", .number(Double(n.chunkDecisions))), ("networkBatchChunks", .number(Double(n.batchChunks))),
                ("networkMaxPositiveWeight", .number(Double(n.maxPositiveWeight.description) ?? 0)),
            ]
        }
        return settings + selection
    }

    /// Hash of the training data: file names, annotations and the bits of every feature value (of the decision
    /// vectors, and with `networkInputs` of the network's per-frame inputs as well).
    package static func dataHash(recordings: [RecordingFeatures], annotations: [LabelEvent], networkInputs: Bool = false) -> String {
        var h = FNV1a64()
        for r in recordings {
            h.combine(r.name)
            for x in r.matrix { h.combine(x) }
            if networkInputs { for x in r.networkInputs { h.combine(x) } }
        }
        for a in annotations { h.combine("\(a.file)\t\(a.onset)\t\(a.offset)\t\(a.label)\n") }
        return h.hex
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
