import ArgumentParser
import Foundation
import VigilCore
import VigilDetectors
import VigilScoring
import VigilTestSupport
import VigilTraining

/// Trains the shipped models: for each learned label, the `vigil train` run of docs/sound-models.md
/// ("Training") over the development set and the clip folder, with the label's extra material and
/// the 5-fold cross-validation, plus its recipe's known weaknesses in the card. Writes Models/NAME.json,
/// Models/NAME.md and Sources/VigilDetectors/EmbeddedModels.swift. Release build:
///   swift build -c release --product vigil-dev && .build/release/vigil-dev train-models [--labels dogBark,glassBreak-16kHz,...]
struct TrainSoundModels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-models",
        abstract:
            "Train the shipped models on the development set and the clip folder; write Models/NAME.json, NAME.md and EmbeddedModels.swift."
    )

    @Option(
        help:
            "Comma-separated labels (each trains all its models) or model names such as glassBreak-16kHz (that model alone); default: every learned label."
    )
    var labels: String?

    func run() throws {
        try DevData.requireAvailable()
        let names = labels?.split(separator: ",").map(String.init) ?? SoundModelRecipe.trainable.map(\.rawValue)
        let modelName = { (path: String) in ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
        var runs: [TrainingRun] = []
        for name in names {
            let trigger = SoundModelRecipe.trainable.first { name == $0.rawValue || name.hasPrefix($0.rawValue + "-") }
            let matching = try trigger.map { trigger in
                try ShippedModelTraining.runs(for: trigger).filter { name == trigger.rawValue || modelName($0.modelPath) == name }
            }
            guard let matching, !matching.isEmpty else {
                let models = SoundModelRecipe.trainable.flatMap { t in
                    [t.rawValue]
                        + (SoundModelRecipe.of(t).lowRateModel.map { [modelName(ShippedModelTraining.lowRateModelPath(t, rate: $0))] } ?? [])
                }
                throw ValidationError(
                    "--labels: \(name) is neither a learned label nor a shipped model (\(models.joined(separator: ", ")))")
            }
            runs += matching.filter { run in !runs.contains { $0.modelPath == run.modelPath } }
        }
        for run in runs {
            var run = run
            run.crossValidationFolds = ShippedModelTraining.folds
            run.crossValidationRepeats = ShippedModelTraining.repeats
            let started = Date()
            let result = try run.run { event in
                if case .fold(let text) = event { print(text) }
                if case .warning(let text) = event { print(text) }
            }
            try result.model.fileText.write(toFile: run.modelPath, atomically: true, encoding: .utf8)
            try result.card.write(
                toFile: (run.modelPath as NSString).deletingPathExtension + ".md", atomically: true, encoding: .utf8)
            print("\(run.modelPath): threshold \(result.model.decision.threshold) [\(Int(Date().timeIntervalSince(started))) s]")
            if let cv = result.crossValidation { print(cv.markdownTable, terminator: "") }
        }
        try TrainingInputs.embeddedModelsSource(besideModel: "Models/dogBark.json")
            .write(toFile: ShippedModelTraining.embeddedSource, atomically: true, encoding: .utf8)
    }
}

/// A change to the STFT or the features changes the training data: the shipped models must then be
/// retrained. Checks that each shipped model's `dataHash` equals the hash of the training material
/// this build extracts; exits 1 naming the labels to retrain. Slow: release build.
struct CheckShippedModels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-models", abstract: "Check that the shipped models were trained on the features this build extracts.")

    func run() throws {
        try DevData.requireAvailable()
        var stale: [String] = []
        for run in try SoundModelRecipe.trainable.flatMap(ShippedModelTraining.runs(for:)) {
            let material = try run.material { _ in }
            let model =
                run.trainingRate == nil
                ? try LearnedSoundDetector.loadShippedModel(for: run.trigger)
                : LearnedSoundDetector.shippedModel(for: run.trigger, sampleRate: Double(run.trainingRate!))
            if model?.training["dataHash"]?.stringValue != material.dataHash || model?.trainingRate != run.trainingRate {
                stale.append(run.modelPath)
            }
        }
        guard stale.isEmpty else {
            print("retrain (vigil-dev train-models): the data hash of \(stale.joined(separator: ", ")) differs from this build's features")
            throw ExitCode.failure
        }
        print("the shipped models were trained on the features this build extracts")
    }
}

/// The shipped models' training runs: the same as the `vigil train` commands of docs/sound-models.md,
/// run from the package root with paths relative to it (they are written into the model files and cards).
enum ShippedModelTraining {
    /// Folds of the shipped models' cross-validation.
    static let folds = 5
    /// Fold seeds of the shipped models' cross-validation (20251122, 20251123, 20251124): their figures are the mean and
    /// worst fold over the three sets of folds.
    static let repeats = 3
    /// Where the embedded models' source lies (relative to the package root).
    static let embeddedSource = "Sources/VigilDetectors/EmbeddedModels.swift"

    /// The runs of `trigger`'s shipped models, each with its recipe's known weaknesses: ``run(for:)``, and where the
    /// recipe has a low-rate model (``SoundModelRecipe/lowRateModel``) the same run with `--rate RATE` written to
    /// `Models/LABEL-RATEkHz.json`.
    static func runs(for trigger: EventTriggerType) throws -> [TrainingRun] {
        let recipe = SoundModelRecipe.of(trigger)
        var full = try run(for: trigger)
        full.knownWeaknesses = recipe.knownWeaknesses
        guard let rate = recipe.lowRateModel else { return [full] }
        var lowRate = try run(for: trigger)
        lowRate.trainingRate = rate
        lowRate.modelPath = lowRateModelPath(trigger, rate: rate)
        lowRate.knownWeaknesses = recipe.lowRateKnownWeaknesses
        return [full, lowRate]
    }

    /// Where the low-rate model of `trigger` trained at `rate` Hz lies: `Models/LABEL-16kHz.json` (`-RATEHz` for a
    /// rate that is not whole kilohertz).
    static func lowRateModelPath(_ trigger: EventTriggerType, rate: Int) -> String {
        "Models/\(trigger.rawValue)-\(rate % 1000 == 0 ? "\(rate / 1000)kHz" : "\(rate)Hz").json"
    }

    /// `vigil train --labels ../shared/data/dev/labels.tsv ../shared/data/dev/audio --out Models/LABEL.json
    /// --clips ../shared/data/train` with the label's `--negatives` (dogBark: `.build/training-music`) or
    /// `--positives` (personTalking: `.build/training-words`); changes the working directory to the package root.
    /// Throws, naming the make target, when the music or the words have not been made.
    static func run(for trigger: EventTriggerType) throws -> TrainingRun {
        guard FileManager.default.changeCurrentDirectoryPath(DevData.packageRoot.path) else {
            throw ValidationError("cannot change to the package root")
        }
        let recipe = SoundModelRecipe.of(trigger)
        if recipe.trainsWithRenderedMusic && !FileManager.default.fileExists(atPath: ".build/training-music/music_000.wav") {
            throw DevData.TrainingDataMissing(path: ".build/training-music")
        }
        if recipe.trainsWithGeneratedWords && !FileManager.default.fileExists(atPath: ".build/training-words/labels.tsv") {
            throw DevData.TrainingDataMissing(
                path: ".build/training-words", fix: "run `make training-words` (Models/word-positives/generate.py over Debian's qabcs-data)"
            )
        }
        var run = try TrainingInputs.run(
            trigger: trigger, labels: "../shared/data/dev/labels.tsv", audioDirectory: "../shared/data/dev/audio",
            out: "Models/\(trigger.rawValue).json", seed: 20_251_122,
            negatives: recipe.trainsWithRenderedMusic ? [".build/training-music"] : [],
            positives: recipe.trainsWithGeneratedWords ? ".build/training-words" : nil, clips: "../shared/data/train")
        run.embeddedIn = embeddedSource
        return run
    }
}
