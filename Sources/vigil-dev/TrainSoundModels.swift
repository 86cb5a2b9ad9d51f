import ArgumentParser
import Foundation
import VigilCore
import VigilDetectors
import VigilScoring
import VigilTestSupport
import VigilTraining

/// The file-reading training driver: trains the shipped models on the development set and writes
/// Models/NAME.json, Models/NAME.md and Sources/VigilDetectors/EmbeddedModels.swift. Release build:
///   swift build -c release --product vigil-dev && .build/release/vigil-dev train-models [--labels dogBark,...]
struct TrainSoundModels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-models",
        abstract: "Train the shipped models on the development set; write Models/NAME.json, NAME.md and EmbeddedModels.swift.")

    @Option(help: "Comma-separated labels to train (default: every learned label).")
    var labels: String?

    func run() throws {
        try DevData.requireAvailable()
        let names = labels?.split(separator: ",").map(String.init) ?? SoundModelRecipe.trainable.map(\.rawValue)
        for name in names where EventTriggerType(rawValue: name).map({ !SoundModelRecipe.trainable.contains($0) }) ?? true {
            throw ValidationError("--labels: \(name) is not a learned label")
        }
        try DevData.trainShippedModels(labels: names)
    }
}

/// A change to the STFT or the features changes the training data: the shipped models must then be
/// retrained. Checks that each shipped model's `dataHash` equals the hash of the features this build
/// extracts; exits 1 naming the labels to retrain. Slow: release build.
struct CheckShippedModels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-models", abstract: "Check that the shipped models were trained on the features this build extracts.")

    func run() throws {
        try DevData.requireAvailable()
        let dev = try DevData.load()
        let recordings = try DevData.shippedTrainingFeatures(dev)
        var stale: [String] = []
        for trigger in SoundModelRecipe.trainable {
            let label = trigger.rawValue
            let extras = try DevData.extraNegatives(for: label)
            let positives = try DevData.extraPositives(for: label)
            let hash =
                "fnv1a64:"
                + SoundModelTrainer.dataHash(
                    recordings: recordings + extras + positives.recordings, annotations: dev.annotations + positives.annotations)
            let model = try LearnedSoundDetector.loadShippedModel(for: trigger)
            if model?.training["dataHash"]?.stringValue != hash { stale.append(label) }
        }
        guard stale.isEmpty else {
            print("retrain (vigil-dev train-models): the data hash of \(stale.joined(separator: ", ")) differs from this build's features")
            throw ExitCode.failure
        }
        print("the shipped models were trained on the features this build extracts")
    }
}

extension DevData {
    /// The model card's description of the generated words.
    static func wordSource(count: Int) -> String {
        "\(count) recordings of 1-3 single words each (Models/word-positives/generate.py, seed 7, made by `make training-words`): "
            + "spoken words and letters of Debian's qabcs-data (GPL-3+; Belarusian, German, English, French, Polish, Russian, "
            + "Ukrainian), isolated over quiet room tone or at 3-20 dB SNR over noise, every other file band-limited to 3.9 kHz"
    }

    /// Trains the shipped models of `labels` (fixed seed) and writes Models/NAME.json, Models/NAME.md
    /// and Sources/VigilDetectors/EmbeddedModels.swift.
    static func trainShippedModels(labels: [String], seed: UInt64 = 20_251_122) throws {
        let dev = try DevData.load()
        let started = Date()
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let all = dev.annotations.filter { $0.label == label }
            let val = all.filter { dev.validation.contains($0.file) }
            print("split \(label): \(val.count) of \(all.count) events in validation")
        }
        let negatives = dev.files.filter { f in !dev.annotations.contains { $0.file == f } }
        print(
            "split: \(dev.validation.count) validation files, negatives \(negatives.filter { dev.validation.contains($0) }.count) of \(negatives.count)"
        )
        let allRecordings = try shippedTrainingFeatures(dev, seed: seed)
        let recordings = allRecordings.filter { !$0.name.contains("#") }
        print("features: \(recordings.count) files in \(Date().timeIntervalSince(started)) s")
        for label in labels {
            let t0 = Date()
            let extras = try extraNegatives(for: label)
            let positives = try extraPositives(for: label)
            let annotations = dev.annotations + positives.annotations
            let hash = SoundModelTrainer.dataHash(recordings: allRecordings + extras + positives.recordings, annotations: annotations)
            let (model, fig) = SoundModelTrainer.train(
                label: label, recordings: DevData.recordings(for: label, allRecordings) + extras + positives.recordings,
                annotations: annotations,
                validation: dev.validation,
                voiceBackground: dev.voiceBackground, seed: seed, options: shippedOptions(for: label),
                metadata: [
                    ("dataHash", .string("fnv1a64:" + hash)),
                    ("data", .string("shared/data/dev (232 files)")),
                    (
                        "split",
                        .string(
                            "group-aware stratified: components of shared foreground sources in FNV-1a(vigil-sounds-split-v1 + first file) order, to validation while every category stays <= 35 %"
                        )
                    ),
                    (
                        "extraNegatives",
                        .string(
                            "9 synthetic steady noises (white/pink/brown, 3 levels), 4 files of abrupt noise bursts, 6 files of steady tones (20 s each; not for glassBreak)"
                        )
                    ),
                ]
                    + (extras.isEmpty
                        ? []
                        : [
                            ("extraNegativeFiles", .number(Double(extras.count))),
                            ("extraNegativeSource", .string(musicSource(count: extras.count))),
                        ])
                    + (positives.recordings.isEmpty
                        ? []
                        : [
                            ("extraPositiveFiles", .number(Double(positives.recordings.count))),
                            ("extraPositiveSource", .string(wordSource(count: positives.recordings.count))),
                        ]))
            print(
                "\(label): event F1 \(fig.event.f1) (TP \(fig.event.truePositives) FP \(fig.event.falsePositives) FN \(fig.event.falseNegatives)) segment F1 \(fig.segment.f1) FA \(fig.negativeFalseAlarms) in \(fig.negativeHours) h threshold \(model.decision.threshold) [\(Date().timeIntervalSince(t0)) s]"
            )
            let models = DevData.packageRoot.appendingPathComponent("Models")
            try model.fileText.write(to: models.appendingPathComponent("\(label).json"), atomically: true, encoding: .utf8)
            let card = SoundModelCard.markdown(
                model: model, figures: fig, provenance: dev.provenance, validation: dev.validation,
                trainingFileCount: dev.files.count - dev.validation.count,
                data: SoundModelCard.TrainingData(
                    modelPath: "Models/\(label).json", embeddedIn: "Sources/VigilDetectors/EmbeddedModels.swift",
                    recordings: "shared/data/dev/audio", labels: "shared/data/dev/labels.tsv", fileCount: dev.files.count,
                    seconds: dev.files.reduce(0) { $0 + (dev.durations[$1] ?? 0) },
                    eventCount: dev.annotations.filter { $0.label == label }.count),
                weaknesses: SoundModelRecipe.of(label: label).knownWeaknesses)
            try card.write(to: models.appendingPathComponent("\(label).md"), atomically: true, encoding: .utf8)
        }
        try writeEmbedded()
    }

    /// The model card's description of the rendered music.
    static func musicSource(count: Int) -> String {
        "\(count) pieces of generated music, 20 s each (Models/music-negatives: MIDI written by generate.py, seed 1; piano, "
            + "organ, accordion, guitars, strings, brass, reeds, flutes, synth leads and pads, with bass and drums in some; "
            + "rendered by `make training-music` with FluidSynth 2.3.1 and the FluidR3_GM soundfont, MIT licence)"
    }

    /// Regenerates EmbeddedModels.swift from the files in Models/.
    static func writeEmbedded() throws {
        let models = DevData.packageRoot.appendingPathComponent("Models")
        var files: [(name: String, text: String)] = []
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let url = models.appendingPathComponent("\(label).json")
            if let text = try? String(contentsOf: url, encoding: .utf8) { files.append((url.path, text)) }
        }
        let source = try EmbeddedModelsSource.render(files: files)
        try source.write(
            to: DevData.packageRoot.appendingPathComponent("Sources/VigilDetectors/EmbeddedModels.swift"), atomically: true,
            encoding: .utf8)
    }
}
