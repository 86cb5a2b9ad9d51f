import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors
import VigilInference
import VigilSynth
import VigilTestSupport
import VigilTraining

/// Two small synthetic recordings with "events" (harmonic bursts) over noise, for training checks.
func tinyTrainingSet() -> (recordings: [RecordingFeatures], annotations: [LabelEvent]) {
    let rate = 16_000.0
    var recordings: [RecordingFeatures] = []
    var annotations: [LabelEvent] = []
    for k in 0..<2 {
        var gen = SeededGenerator(seed: UInt64(100 + k))
        var s = SignalBuffer(sampleRate: rate, duration: 8)
        s.addNoise(dBFS: -45, generator: &gen)
        for e in 0..<3 {
            let start = 1.0 + 2.3 * Double(e) + 0.2 * Double(k)
            for h in 1...6 { s.addTone(frequency: 250 * Double(h), start: start, duration: 0.6, dBFS: -20 - 3 * Double(h)) }
            annotations.append(LabelEvent(file: "tiny\(k)", onset: start, offset: start + 0.6, label: "dogBark"))
        }
        recordings.append(SoundModelTrainer.extractFeatures(name: "tiny\(k)", samples: s.samples, sampleRate: rate))
    }
    return (recordings, annotations)
}

@Suite("Sound models")
struct ModelTests {
    func trainTiny(seed: UInt64, classifier: TrainingOptions.ClassifierChoice = .trees, poolHalfWidth: Int = 6) -> SoundModel {
        let (recordings, annotations) = tinyTrainingSet()
        var options = TrainingOptions()
        options.classifier = classifier
        options.network.epochs = 40
        options.network.poolHalfWidth = poolHalfWidth
        options.trees.iterations = 20
        options.trees.maxLeaves = 4
        options.trees.minSamplesPerLeaf = 5
        return SoundModelTrainer.train(
            label: "dogBark", recordings: recordings, annotations: annotations, validation: ["tiny1"], voiceBackground: .none,
            seed: seed, options: options,
            metadata: [("dataHash", .string(SoundModelTrainer.dataHash(recordings: recordings, annotations: annotations)))]
        ).model
    }

    @Test("training is deterministic: same data and seed, same bytes")
    func determinism() {
        let a = trainTiny(seed: 42).fileText
        let b = trainTiny(seed: 42).fileText
        #expect(a == b)
        #expect(a != trainTiny(seed: 43).fileText)
    }

    @Test("a model file round-trips; a mismatched feature spec is rejected with a clear error")
    func roundTrip() throws {
        let model = trainTiny(seed: 1)
        let text = model.fileText
        let back = try SoundModel(fileText: text)
        #expect(back == model)
        #expect(back.fileText == text)

        guard case .object(var object) = model.json, case .object(var spec) = object["featureSpec"]! else {
            Issue.record("model JSON is not an object")
            return
        }
        spec["melBands"] = .number(40)
        object["featureSpec"] = .object(spec)
        #expect {
            try SoundModel(json: .object(object))
        } throws: { error in
            "\(error)".contains("feature spec mismatch")
        }
        object = model.json.objectValue!
        object["version"] = .number(99)
        #expect(throws: SoundModelError.self) { try SoundModel(json: .object(object)) }
        #expect(throws: SoundModelError.self) { try SoundModel(fileText: "{\"format\": \"something-else\"}") }
        // A classifier whose trees would read past their nodes or inputs is refused, naming the problem.
        object = model.json.objectValue!
        guard case .object(var classifier) = object["classifier"]!, case .array(var left) = classifier["left"]!,
            case .array(let feature) = classifier["feature"]!, let inner = feature.firstIndex(where: { ($0.doubleValue ?? -1) >= 0 })
        else {
            Issue.record("model has no inner node")
            return
        }
        left[inner] = .number(Double(feature.count + 5))
        classifier["left"] = .array(left)
        object["classifier"] = .object(classifier)
        #expect {
            try SoundModel(json: .object(object))
        } throws: { error in
            "\(error)".contains("classifier: node \(inner) has children out of range")
        }
        classifier["kind"] = .string("mlp-tanh-sigmoid")
        object["classifier"] = .object(classifier)
        #expect {
            try SoundModel(json: .object(object))
        } throws: { error in
            "\(error)".contains("unknown classifier kind")
        }
    }

    @Test("a bout continuation round-trips through the model file; invalid bout settings are refused, naming the field")
    func boutContinuationRoundTrip() throws {
        var model = trainTiny(seed: 1)
        // Without it the file has no bout members (the shipped models' files are unchanged).
        #expect(!model.fileText.contains("bout"))
        model.decision.boutSeconds = 4
        model.decision.boutThreshold = 0.55
        let back = try SoundModel(fileText: model.fileText)
        #expect(back.decision.boutSeconds == 4 && back.decision.boutThreshold == 0.55)
        #expect(back == model)
        for (field, value, message) in [
            ("boutSeconds", JSONValue.number(-1), "decision.boutSeconds: -1.0 is not a positive number of seconds"),
            ("boutThreshold", JSONValue.number(1.5), "decision.boutThreshold: missing or not a probability"),
            ("boutThreshold", JSONValue.null, "decision.boutThreshold: missing or not a probability"),
        ] {
            var object = model.json.objectValue!
            guard case .object(var decision) = object["decision"]! else {
                Issue.record("no decision object")
                return
            }
            decision[field] = value
            object["decision"] = .object(decision)
            #expect {
                try SoundModel(json: .object(object))
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test("embedded models decode to exactly the values of the files in Models/")
    func embeddedMatchFiles() throws {
        #expect(EmbeddedModels.triggers == [.dogBark, .glassBreak, .personTalking])
        for trigger in EmbeddedModels.triggers {
            let label = trigger.rawValue
            let url = DevData.packageRoot.appendingPathComponent("Models/\(label).json")
            let file = try SoundModel(fileText: try String(contentsOf: url, encoding: .utf8))
            let text = try #require(EmbeddedModels.text(for: trigger), "no embedded \(label)")
            #expect(!text.contains("\n"), "\(label): the embedded text is not minified")
            let embedded = try SoundModel(fileText: text)
            let shipped = try #require(try LearnedSoundDetector.loadShippedModel(for: trigger))
            #expect(embedded == file && shipped == file, "\(label): the embedded model differs from Models/\(label).json")
            // Bit for bit: == on Float treats -0 and 0 as equal.
            #expect(Self.bits(shipped.classifier) == Self.bits(file.classifier), "\(label)")
            #expect(shipped.json == file.json, "\(label)")
            #expect(FileManager.default.fileExists(atPath: DevData.packageRoot.appendingPathComponent("Models/\(label).md").path))
        }
        // The low-rate models: every Models/LABEL-RATE.json is embedded as its label's low-rate model, and nothing else is.
        let models = DevData.packageRoot.appendingPathComponent("Models")
        let lowRateFiles = try FileManager.default.contentsOfDirectory(atPath: models.path).filter {
            $0.hasSuffix(".json") && $0.contains("-")
        }
        var withLowRate: [EventTriggerType] = []
        for name in lowRateFiles {
            let file = try SoundModel(fileText: try String(contentsOf: models.appendingPathComponent(name), encoding: .utf8))
            let trigger = try #require(EventTriggerType(rawValue: file.label))
            #expect(file.trainingRate != nil, "\(name) is not a low-rate model")
            let text = try #require(EmbeddedModels.lowRateText(for: trigger), "\(name) is not embedded")
            let shipped = try #require(LearnedSoundDetector.shippedModel(for: trigger, sampleRate: 16_000))
            #expect(try SoundModel(fileText: text) == file && shipped == file && shipped.json == file.json, "\(name)")
            #expect(
                FileManager.default.fileExists(
                    atPath: models.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".md")).path))
            withLowRate.append(trigger)
        }
        #expect(Set(withLowRate) == Set(EmbeddedModels.triggers.filter { EmbeddedModels.lowRateText(for: $0) != nil }))
        #expect(Set(withLowRate) == Set(SoundModelRecipe.trainable.filter { SoundModelRecipe.of($0).lowRateModel != nil }))
        #expect(withLowRate.count == Set(withLowRate).count, "a second low-rate model for one label")
    }

    @Test(
        "every shipped model, at every rate, splits only on the inputs its recipe allows, and on the burst values exactly when its recipe uses them"
    )
    func shippedModelsFollowTheirRecipes() throws {
        let names = FeatureSpec.current.componentNames
        let burstInputs = Set(names.indices.filter { names[$0].hasPrefix("burst.") })
        for trigger in EmbeddedModels.triggers {
            var models = [try #require(try LearnedSoundDetector.loadShippedModel(for: trigger))]
            if EmbeddedModels.lowRateText(for: trigger) != nil {
                models.append(try #require(LearnedSoundDetector.shippedModel(for: trigger, sampleRate: 16_000)))
            }
            for model in models {
                let kind = model.trainingRate.map { "\($0) Hz model" } ?? "full-band model"
                let trees = try #require(model.classifier.trees, "\(trigger): no trees")
                let split = Set(trees.nodes.map { Int($0.feature) }.filter { $0 >= 0 })
                let ignored = Set(SoundModelTrainer.ignoredInputs(for: trigger.rawValue))
                #expect(split.isDisjoint(with: ignored), "\(trigger) \(kind) splits on an input its recipe ignores")
                #expect(
                    !split.isDisjoint(with: burstInputs) == SoundModelRecipe.of(trigger).usesBurstValues,
                    "\(trigger) \(kind): splits on the burst values: \(!split.isDisjoint(with: burstInputs))")
            }
        }
    }

    @Test(
        "the embedded-models source puts LABEL.json in text(for:) and LABEL-*.json with a trainingRate in lowRateText(for:); a file whose name and rate disagree, or a second model of one kind, is refused naming the file"
    )
    func embeddedSourceNamesAndRates() throws {
        let full = trainTiny(seed: 1)
        var lowRate = full
        lowRate.trainingRate = 16_000
        let label = full.label
        let source = try EmbeddedModelsSource.render(files: [
            ("Models/\(label).json", full.fileText), ("Models/\(label)-16kHz.json", lowRate.fileText),
        ])
        #expect(source.contains("case .\(label): return \(label).joined()"), "\(source)")
        #expect(source.contains("case .\(label): return \(label)LowRate.joined()"), "\(source)")
        #expect(source.contains("/// Models/\(label)-16kHz.json, minified."))
        for (files, reason) in [
            ([("Models/\(label).json", lowRate.fileText)], "a model trained at 16000 Hz is a low-rate model: name it \(label)-RATE.json"),
            ([("Models/\(label)-16kHz.json", full.fileText)], "a low-rate model file without trainingRate"),
            ([("Models/other.json", full.fileText)], "a \(label) model must be named \(label).json"),
            (
                [("a/\(label)-16kHz.json", lowRate.fileText), ("b/\(label)-8kHz.json", lowRate.fileText)],
                "a second low-rate model for \(label)"
            ),
        ] as [([(name: String, text: String)], String)] {
            #expect {
                try EmbeddedModelsSource.render(files: files)
            } throws: { error in
                "\(error)".hasPrefix(files.last!.name + ": ") && "\(error)".contains(reason)
            }
        }
    }

    @Test(
        "a model's frames round-trip (absent means the shared STFT's, and is not written); a frames value this build does not know is an error naming it"
    )
    func framesRoundTrip() throws {
        var model = trainTiny(seed: 1)
        #expect(!model.fileText.contains("\"frames\"") && model.frames == .shared)
        model.frames = .fixedDuration
        #expect(model.fileText.contains("\"frames\": \"fixedDuration\""))
        let back = try SoundModel(fileText: model.fileText)
        #expect(back.frames == .fixedDuration && back == model)
        Self.expectRefused(model, key: "frames", values: [.string("standard"), .number(1)]) {
            "frames \($0.description): must be \"shared\" or \"fixedDuration\""
        }
    }

    /// Expects `model`'s file with `key` set to each of `values` to be refused, the error containing `message(value)`.
    static func expectRefused(
        _ model: SoundModel, key: String, values: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation,
        message: (JSONValue) -> String
    ) {
        for value in values {
            var object = model.json.objectValue!
            object[key] = value
            #expect(sourceLocation: sourceLocation) {
                try SoundModel(json: .object(object))
            } throws: { error in
                "\(error)".contains(message(value))
            }
        }
    }

    @Test(
        "a low-rate model's rate round-trips through its file; a model without one writes none; a rate of 32 kHz or more, or not a number, is refused"
    )
    func trainingRateRoundTrip() throws {
        var model = trainTiny(seed: 1)
        #expect(!model.fileText.contains("trainingRate") && model.trainingRate == nil)
        model.trainingRate = 16_000
        let back = try SoundModel(fileText: model.fileText)
        #expect(back.trainingRate == 16_000 && back == model)
        Self.expectRefused(model, key: "trainingRate", values: [.number(44_100), .number(32_000), .number(100), .string("16k")]) {
            "trainingRate \($0.description): a low-rate model's rate must be 4000...31999 Hz"
        }
    }

    /// Detector settings with the models of the files in Models/ and every learned trigger at `sensitivity`.
    static func settingsWithFileModels(sensitivity: Int) throws -> DetectorSettings {
        var settings = DetectorSettings()
        for trigger in [EventTriggerType.dogBark, .glassBreak, .personTalking] {
            let url = DevData.packageRoot.appendingPathComponent("Models/\(trigger.rawValue).json")
            settings.models[trigger] = try SoundModel(fileText: try String(contentsOf: url, encoding: .utf8))
            settings.sensitivity[trigger] = Sensitivity(sensitivity)
        }
        return settings
    }

    @Test(
        "a detector whose model names fixed-duration frames reports exactly the events the trainer's simulation finds on the training extraction of those frames, with trees, a network and both",
        arguments: [16_000.0, 44_100, 48_000], TrainingOptions.ClassifierChoice.allCases)
    func fixedFramesDetectorMatchesSimulation(rate: Double, classifier: TrainingOptions.ClassifierChoice) throws {
        var model = trainTiny(seed: 1, classifier: classifier)
        let kinds: [TrainingOptions.ClassifierChoice: String] = [.trees: "gbdt", .network: "tcn", .treesAndNetwork: "gbdt+tcn"]
        #expect(model.classifier.kind == kinds[classifier])
        model.frames = .fixedDuration
        var gen = SeededGenerator(seed: 5)
        var s = SignalBuffer(sampleRate: rate, duration: 9)
        s.addNoise(dBFS: -45, generator: &gen)
        for start in [1.1, 3.6, 6.2] {
            for h in 1...6 { s.addTone(frequency: 250 * Double(h), start: start, duration: 0.6, dBFS: -20 - 3 * Double(h)) }
        }
        let sensitivity = Sensitivity(10)
        let expected = SoundModelTrainer.simulate(
            SoundModelTrainer.extractFeatures(name: "x", samples: s.samples, sampleRate: rate, frames: .fixedDuration), model: model,
            sensitivity: sensitivity)
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        let detector = LearnedSoundDetector(trigger: .dogBark, model: model, configuration: configuration, sensitivity: sensitivity)
        let stft = ShortTimeFourierTransform(configuration: configuration)
        var found: [Detection] = []
        s.samples.withUnsafeBufferPointer { b in stft.process(b) { detector.process($0, into: &found) } }
        stft.finish { detector.process($0, into: &found) }
        detector.finish(at: s.duration, into: &found)
        #expect(!expected.isEmpty)
        #expect(found.map { [$0.start, $0.end, $0.detectedAt] } == expected.map { [$0.onset, max($0.offset, $0.onset), $0.detectedAt] })
    }

    @Test(
        "a network whose look-ahead reaches past the features' latency (32 columns pooled each side, 1.7 s) gives the detector exactly the trainer's simulated events, each available once its last frame is in",
        arguments: [16_000.0, 44_100, 48_000])
    func wideNetworkDetectorMatchesSimulation(rate: Double) throws {
        var model = trainTiny(seed: 1, classifier: .network, poolHalfWidth: 32)
        model.frames = .fixedDuration
        let network = try #require(model.classifier.network)
        var gen = SeededGenerator(seed: 5)
        var s = SignalBuffer(sampleRate: rate, duration: 12)
        s.addNoise(dBFS: -45, generator: &gen)
        for start in [1.1, 4.6, 8.2] {
            for h in 1...6 { s.addTone(frequency: 250 * Double(h), start: start, duration: 0.6, dBFS: -20 - 3 * Double(h)) }
        }
        let features = SoundModelTrainer.extractFeatures(name: "x", samples: s.samples, sampleRate: rate, frames: .fixedDuration)
        let expected = SoundModelTrainer.simulate(features, model: model, sensitivity: Sensitivity(10))
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        let detector = LearnedSoundDetector(trigger: .dogBark, model: model, configuration: configuration, sensitivity: Sensitivity(10))
        let stft = ShortTimeFourierTransform(configuration: configuration)
        var found: [Detection] = []
        s.samples.withUnsafeBufferPointer { b in stft.process(b) { detector.process($0, into: &found) } }
        stft.finish { detector.process($0, into: &found) }
        detector.finish(at: s.duration, into: &found)
        #expect(!expected.isEmpty)
        #expect(found.map { [$0.start, $0.end, $0.detectedAt] } == expected.map { [$0.onset, max($0.offset, $0.onset), $0.detectedAt] })
        // Confirmed no earlier than the frame the network's look-ahead reaches (the features alone are due 0.5 s after a centre).
        let hop = STFTConfiguration.fixedDuration(sampleRate: rate).hopDuration
        for e in expected { #expect(e.detectedAt >= e.onset + Double(network.lookaheadFrames) * hop * 0.9) }
    }

    /// A dogBark model of 30 small trees on `recordings` (``tinyTrainingSet()``'s validation part "tiny1"), with
    /// `configure` applied to its options.
    static func smallTrees(
        _ recordings: [RecordingFeatures], _ annotations: [LabelEvent], configure: (inout TrainingOptions) -> Void
    ) -> SoundModel {
        var options = TrainingOptions()
        options.trees.iterations = 30
        options.trees.maxLeaves = 4
        options.trees.minSamplesPerLeaf = 5
        configure(&options)
        return SoundModelTrainer.train(
            label: "dogBark", recordings: recordings, annotations: annotations, validation: ["tiny1"], voiceBackground: .none,
            seed: 1, options: options
        ).model
    }

    @Test("a negative clip's weight: 0 trains as if the clip were absent; a larger weight lowers the clip's probabilities")
    func negativeClipWeight() {
        let (recordings, annotations) = tinyTrainingSet()
        // A confuser clip: harmonic bursts on a 400 Hz fundamental where the events' is 250 Hz.
        var gen = SeededGenerator(seed: 300)
        var s = SignalBuffer(sampleRate: 16_000, duration: 8)
        s.addNoise(dBFS: -45, generator: &gen)
        for start in [1.0, 3.5, 6.0] {
            for h in 1...6 { s.addTone(frequency: 400 * Double(h), start: start, duration: 0.6, dBFS: -20 - 3 * Double(h)) }
        }
        let clip = SoundModelTrainer.extractFeatures(
            name: TrainingClip.namePrefix + "confuser.flac", samples: s.samples, sampleRate: 16_000)
        func train(_ recordings: [RecordingFeatures], weight: Float) -> SoundModel {
            Self.smallTrees(recordings, annotations) { $0.negativeClipWeight = weight }
        }
        #expect(train(recordings + [clip], weight: 0).classifier == train(recordings, weight: 1).classifier)
        func meanProbability(_ model: SoundModel) -> Float {
            let p = SoundModelTrainer.probabilities(clip, classifier: model.classifier)
            return p.reduce(0, +) / Float(p.count)
        }
        let once = meanProbability(train(recordings + [clip], weight: 1))
        let heavy = meanProbability(train(recordings + [clip], weight: 20))
        #expect(heavy < once, "mean probability on the clip: weight 1 \(once), weight 20 \(heavy)")
        #expect(train(recordings + [clip], weight: 20).fileText.contains("\"negativeClipWeight\": 20"))
        #expect(!train(recordings + [clip], weight: 1).fileText.contains("negativeClipWeight"))
    }

    @Test("the development positives' weight changes the trees, is recorded in the model file, and is dogBark's recipe")
    func developmentPositiveWeight() {
        let (recordings, annotations) = tinyTrainingSet()
        func train(weight: Float) -> SoundModel { Self.smallTrees(recordings, annotations) { $0.developmentPositiveWeight = weight } }
        let weighted = train(weight: 3)
        #expect(weighted.classifier != train(weight: 1).classifier)
        #expect(weighted.fileText.contains("\"developmentPositiveWeight\": 3"))
        #expect(!train(weight: 1).fileText.contains("developmentPositiveWeight"))
        #expect(TrainingOptions(label: "dogBark").developmentPositiveWeight == 3)
        #expect(TrainingOptions(label: "glassBreak").developmentPositiveWeight == 1)
    }

    @Test(
        "part-then-all: the decision chosen on the validation part as with part, then the trees trained on every recording, that part's too; the model file says so, and it is the recipe of glassBreak's full-band model"
    )
    func decisionThenTrainedOnEverything() throws {
        let (recordings, annotations) = tinyTrainingSet()
        let part = Self.smallTrees(recordings, annotations) { $0.decisionChoice = .validationPart }
        let thenAll = Self.smallTrees(recordings, annotations) { $0.decisionChoice = .validationPartThenAll }
        #expect(thenAll.decision == part.decision)
        #expect(thenAll.classifier != part.classifier)
        // The trees of a run whose validation part holds no recording: trained on every recording.
        var options = TrainingOptions()
        options.trees.iterations = 30
        options.trees.maxLeaves = 4
        options.trees.minSamplesPerLeaf = 5
        let everything = SoundModelTrainer.train(
            label: "dogBark", recordings: recordings, annotations: annotations, validation: ["absent"], voiceBackground: .none, seed: 1,
            options: options
        ).model
        #expect(thenAll.classifier == everything.classifier)
        #expect(thenAll.training["decisionChosenOn"]?.stringValue == SoundModelTrainer.chosenBeforeRetraining)
        #expect(thenAll.training["trainingFiles"]?.intValue == 2 && part.training["trainingFiles"]?.intValue == 1)
        #expect(part.training["decisionChosenOn"] == nil)
        #expect(TrainingOptions(label: "glassBreak").decisionChoice == .validationPartThenAll)
        #expect(TrainingOptions(label: "glassBreak", lowRate: true).decisionChoice == .validationPart)
        #expect(TrainingOptions(label: "dogBark").decisionChoice == .validationPart)
    }

    @Test("the data hash covers the network's per-frame inputs only when a network is trained")
    func dataHashCoversNetworkInputs() {
        let (recordings, annotations) = tinyTrainingSet()
        var changed = recordings
        changed[0].networkInputs[7] += 1
        #expect(
            SoundModelTrainer.dataHash(recordings: recordings, annotations: annotations)
                == SoundModelTrainer.dataHash(recordings: changed, annotations: annotations))
        #expect(
            SoundModelTrainer.dataHash(recordings: recordings, annotations: annotations, networkInputs: true)
                != SoundModelTrainer.dataHash(recordings: changed, annotations: annotations, networkInputs: true))
    }

    @Test("on the demo scene the shipped classifiers give bit for bit the logits, and the detectors the detections, of the Models/ files")
    func embeddedDetectionsMatchFiles() throws {
        let path = DevData.packageRoot.appendingPathComponent("Samples/demo-scene.flac").path
        let (samples, rate) = try AudioFileReader.readAllMono(path: path)
        let fromFiles = try Self.settingsWithFileModels(sensitivity: 10)
        var shipped = fromFiles
        shipped.models = [:]
        #expect(runLearned(samples, rate: Double(rate), settings: shipped) == runLearned(samples, rate: Double(rate), settings: fromFiles))
        // The demo scene has no bark, glass break or speech: compare every decision's logit as well.
        let features = SoundModelTrainer.extractFeatures(name: "demo-scene.flac", samples: samples, sampleRate: Double(rate))
        let dimension = FeatureSpec.current.dimension
        #expect(features.matrix.count / dimension > 100)
        for (trigger, file) in fromFiles.models {
            let model = try #require(LearnedSoundDetector.shippedModel(for: trigger))
            let fromShipped = SoundModelTrainer.probabilities(features, classifier: model.classifier)
            let fromFile = SoundModelTrainer.probabilities(features, classifier: file.classifier)
            let differing = zip(fromShipped, fromFile).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(differing == 0, "\(trigger.rawValue): \(differing) decisions differ")
        }
    }

    @Test(
        "the shipped detectors find on a bark, a glass break and a word exactly what the Models/ files find",
        .enabled(if: DevData.available, "needs ../shared/data"))
    func embeddedDetectionsMatchFilesOnDevRecordings() throws {
        let fromFiles = try Self.settingsWithFileModels(sensitivity: 5)
        var shipped = fromFiles
        shipped.models = [:]
        for name in ["iso_dog_102106-3-0-0.flac", "iso_glass_1_-_10_.flac", "iso_speech_198-209-0000.hq.flac"] {
            let (samples, rate) = try DevData.loadAudio(DevData.devDirectory.appendingPathComponent("audio/\(name)").path)
            let withShipped = runLearned(samples, rate: rate, settings: shipped)
            #expect(!withShipped.isEmpty, "\(name): no learned detection")
            #expect(withShipped == runLearned(samples, rate: rate, settings: fromFiles), "\(name)")
        }
    }

    @Test(
        "at 16 kHz the shipped glassBreak detector runs the low-rate model and finds the development set's isolated glass breaks, which the full-band model misses there",
        .enabled(if: DevData.available, "needs ../shared/data"))
    func lowRateGlassBreakAt16kHz() throws {
        var fullBand = DetectorSettings()
        fullBand.models[.glassBreak] = try #require(LearnedSoundDetector.shippedModel(for: .glassBreak))
        let audio = DevData.devDirectory.appendingPathComponent("audio")
        let names = try FileManager.default.contentsOfDirectory(atPath: audio.path).filter { $0.hasPrefix("iso_glass_") }.sorted()
        var found = (lowRate: 0, fullBand: 0)
        for name in names {
            let (samples, rate) = try DevData.loadAudio(audio.appendingPathComponent(name).path)
            let at16kHz = BandLimitedResampler.resample(samples, from: rate, to: 16_000)
            if !runLearned(at16kHz, rate: 16_000, triggers: [.glassBreak]).isEmpty { found.lowRate += 1 }
            if !runLearned(at16kHz, rate: 16_000, triggers: [.glassBreak], settings: fullBand).isEmpty { found.fullBand += 1 }
        }
        #expect(names.count == 34)
        #expect(found.lowRate >= 30 && found.fullBand <= 15, "found \(found) of \(names.count)")
    }

    @Test("a shipped model that does not load is an error naming its label and the reason")
    func brokenShippedModel() throws {
        let text = EmbeddedModels.text(for: .dogBark)!
        for (label, broken, reason) in [
            ("catMeow", nil, "no embedded model"),
            ("dogBark", String(text.dropLast(100)), "not valid JSON"),
            ("dogBark", text.replacingOccurrences(of: "\"kind\":\"gbdt\"", with: "\"kind\":\"svm\""), "classifier"),
            ("glassBreak", text, "the model of dogBark"),
        ] as [(String, String?, String)] {
            let result = ShippedModels.decode(label: label, text: broken)
            #expect(throws: ShippedModelError.self) { try result.get() }
            if case .failure(let error) = result {
                #expect(error.label == label)
                #expect(error.description.contains("shipped \(label) model") && error.description.contains(reason), "\(error)")
            }
        }
        // A low-rate slot must hold a low-rate model, and the model slot must not.
        var lowRate = try #require(try? SoundModel(fileText: text))
        lowRate.trainingRate = 16_000
        for (text, asLowRate, reason) in [
            (text, true, "the embedded low-rate model has no trainingRate"),
            (lowRate.fileText, false, "the embedded model is a low-rate model"),
        ] {
            let result = ShippedModels.decode(label: "dogBark", text: text, lowRate: asLowRate)
            #expect(throws: ShippedModelError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.description.contains(reason), "\(error)") }
        }
    }

    @Test(
        "the registry builds the three learned detectors from the embedded models: below 32 kHz a label's low-rate model where it has one, and a replacement model at every rate"
    )
    func registry() throws {
        for trigger in [EventTriggerType.dogBark, .glassBreak, .personTalking] {
            let full = try #require(LearnedSoundDetector.shippedModel(for: trigger))
            #expect(full.trainingRate == nil)
            let lowRateText = EmbeddedModels.lowRateText(for: trigger)
            for rate in [8_000.0, 16_000, 22_050, 31_999, 32_000, 44_100, 48_000] {
                let configuration = STFTConfiguration.standard(sampleRate: rate)
                let d = DetectorRegistry.makeDetector(for: trigger, configuration: configuration, settings: DetectorSettings())
                let learned = try #require(d as? LearnedSoundDetector)
                #expect(learned.trigger == trigger)
                if rate < 32_000, let lowRateText {
                    #expect(
                        learned.model == (try SoundModel(fileText: lowRateText)) && learned.model.trainingRate != nil,
                        "\(trigger) at \(rate)")
                } else {
                    #expect(learned.model == full, "\(trigger) at \(rate)")
                }
                var settings = DetectorSettings()
                settings.models[trigger] = full
                let replaced = DetectorRegistry.makeDetector(for: trigger, configuration: configuration, settings: settings)
                #expect((replaced as? LearnedSoundDetector)?.model == full)
            }
        }
    }

    @Test("sensitivity maps monotonically to the threshold; 5 is the model's threshold")
    func sensitivity() throws {
        let model = try #require(LearnedSoundDetector.shippedModel(for: .dogBark))
        let t = (1...10).map { model.decision.threshold(for: Sensitivity($0)) }
        #expect(abs(t[4] - model.decision.threshold) < 1e-12)
        for i in 1..<10 { #expect(t[i] < t[i - 1]) }
    }

    @Test("silence and steady noise give no detections", arguments: [16_000.0, 44_100.0, 48_000.0])
    func quiet(rate: Double) {
        var gen = SeededGenerator(seed: 3)
        var s = SignalBuffer(sampleRate: rate, duration: 12)
        let silent = runLearned(s.samples, rate: rate)
        s.addNoise(dBFS: -40, generator: &gen)
        let noisy = runLearned(s.samples, rate: rate)
        #expect(silent.isEmpty, "\(silent)")
        #expect(noisy.isEmpty, "\(noisy)")
    }

    @Test("abrupt white-noise bursts are not glass breaks", arguments: [44_100.0, 48_000.0])
    func noiseBursts(rate: Double) {
        // Impact and high-frequency energy, but no ringing fragments: 16 bursts of 0.08-1 s at
        // -30 to -6 dBFS, switched on within 1 ms, over a quiet room.
        var gen = SeededGenerator(seed: 21)
        var s = SignalBuffer(sampleRate: rate, duration: 34)
        s.addNoise(dBFS: -65, generator: &gen)
        var t = 1.0
        for duration in [0.08, 0.2, 0.5, 1.0] {
            for level in [-30.0, -20, -12, -6] {
                s.addNoise(dBFS: level, start: t, duration: duration, ramp: 0.001, generator: &gen)
                t += duration + 1.0
            }
        }
        let found = runLearned(s.samples, rate: rate, triggers: [.glassBreak])
        #expect(found.isEmpty, "\(found.map { ($0.start, $0.confidence) })")
    }

    @Test("short steady tones are not speech or barks")
    func steadyTones() {
        // 0.5 s steady tones (sine, 250-2000 Hz, and a 500 Hz square), -30 to -12 dBFS.
        let rate = 44_100.0
        var gen = SeededGenerator(seed: 22)
        var s = SignalBuffer(sampleRate: rate, duration: 26)
        s.addNoise(dBFS: -65, generator: &gen)
        var t = 1.0
        for frequency in [250.0, 500, 1000, 2000] {
            for level in [-30.0, -20, -12] {
                s.addTone(frequency: frequency, start: t, duration: 0.5, dBFS: level)
                t += 1.5
            }
        }
        for level in [-30.0, -20, -12] {
            s.addSquare(frequency: 500, start: t, duration: 0.5, dBFS: level)
            t += 1.5
        }
        let barks = runLearned(s.samples, rate: rate, triggers: [.dogBark])
        #expect(barks.isEmpty, "\(barks.map { ($0.start, $0.confidence) })")
        let speech = runLearned(s.samples, rate: rate, triggers: [.personTalking])
        #expect(speech.isEmpty, "\(speech.map { ($0.start, $0.confidence) })")
    }

    @Test("detections come in nondecreasing detectedAt order with start <= end; shared and separate streams agree")
    func ordering() {
        let rate = 44_100.0
        var gen = SeededGenerator(seed: 4)
        var s = SignalBuffer(sampleRate: rate, duration: 10)
        s.addNoise(dBFS: -50, generator: &gen)
        for k in 0..<6 {
            let t = 1 + 1.4 * Double(k)
            for h in 1...8 { s.addTone(frequency: 180 * Double(h) + 20 * Double(k), start: t, duration: 0.25, dBFS: -15 - 2 * Double(h)) }
            s.addNoise(dBFS: -25, start: t, duration: 0.08, generator: &gen)
        }
        let together = runLearned(s.samples, rate: rate)
        for trigger in [EventTriggerType.dogBark, .glassBreak, .personTalking] {
            let own = together.filter { $0.trigger == trigger }
            for i in own.indices.dropFirst() { #expect(own[i].detectedAt >= own[i - 1].detectedAt) }
            #expect(own.allSatisfy { $0.start <= $0.end })
            let alone = runLearned(s.samples, rate: rate, triggers: [trigger])
            #expect(alone == own)
        }
    }

    /// Every number of a classifier, bit for bit (== on Float treats -0 and 0 as equal).
    static func bits(_ classifier: SoundClassifier) -> [UInt32] {
        var out: [UInt32] = []
        if let t = classifier.trees {
            out += [t.baseLogit.bitPattern] + t.roots.map { UInt32(bitPattern: $0) }
            out += t.nodes.flatMap { [$0.value.bitPattern, UInt32(bitPattern: $0.feature), UInt32(bitPattern: $0.left)] }
        }
        if let n = classifier.network {
            out += (Array(n.parameterArrays.joined()) + n.inputMean + n.inputScale + [n.biasOut]).map(\.bitPattern)
        }
        return out
    }

}
