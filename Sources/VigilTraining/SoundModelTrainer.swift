import VigilCore
import VigilDSP
import VigilInference
import VigilScoring

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
    /// not); unless it uses the burst values (dogBark, glassBreak), those.
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
        if options.developmentPositiveWeight != 1 {
            selection.append(("developmentPositiveWeight", .number(Double(options.developmentPositiveWeight.description) ?? 0)))
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
