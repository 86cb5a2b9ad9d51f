import ArgumentParser
import Foundation
import VigilAudioIO
import VigilCore
import VigilPipeline
import VigilTraining

/// `vigil train`: trains a learned sound detector's model reproducibly.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a dogBark, glassBreak or personTalking model from labeled recordings.",
        discussion: """
            LABELS.tsv holds the events, `filename<TAB>onset<TAB>offset<TAB>label` (file names relative to AUDIO_DIR); every \
            audio file under AUDIO_DIR is used, files without events as negatives. A PROVENANCE.tsv (default: next to \
            LABELS.tsv, if present) groups files by source so that the validation part never shares a source with the \
            training part; without it each file is its own group. The files and --clips are split as a cross-validation \
            fold's training part is: the decision is chosen on the first of K-1 grouped folds (--folds K). Training is deterministic: the same data and --seed give \
            a byte-identical model file. Writes the model to --out and its model card (NAME.md) beside it; with --embed, \
            also regenerates the Swift source that compiles the models in the --out directory into the binary.

            --negatives and --positives add recordings to the training part only; --clips adds clip-labelled recordings. \
            The commands that train the shipped models are in docs/sound-models.md.
            """)

    @Option(help: "Event annotations (TSV).") var labels: String

    @Argument(help: "Directory with the recordings.") var audioDir: String

    @Option(help: "Where to write the model (NAME.json); NAME is the label unless --label is given.") var out: String

    @Option(help: "The label to train (dogBark, glassBreak or personTalking); default: the --out file name.")
    var label: String?

    @Option(help: "PROVENANCE.tsv for the source-aware validation split (default: beside LABELS.tsv if present).")
    var provenance: String?

    @Option(help: "Training seed (and the first fold seed of --cross-validate).") var seed: UInt64 = 20_251_122

    @Option(help: "Augmented copies per training file (gain, mixed negatives); default 2 for glassBreak, 0 otherwise.")
    var copies: Int?

    @Option(help: "Extra negative recordings (a file, or a directory searched recursively), for training only. Repeatable.")
    var negatives: [String] = []

    @Option(help: "A directory of extra labeled recordings (its audio and DIR/labels.tsv), for training only.")
    var positives: String?

    @Option(
        help: ArgumentHelp(
            "A folder of clip-labelled recordings: DIR/clips.tsv (filename, label, category, group, voices, seconds, sample_rate) "
                + "and DIR/audio. Only the active parts of the label's clips are taught as the label; other clips are negatives "
                + "(clips with voices are left out for personTalking).",
            valueName: "DIR"))
    var clips: String?

    @Flag(
        name: .customLong("cross-validate"),
        help: ArgumentHelp(
            "Also run grouped, nested K-fold cross-validation over the recordings and --clips (groups: source recordings), print "
                + "each fold's figures, their mean and the worst fold, and write them into the model card."))
    var crossValidate = false

    @Option(help: "Folds of --cross-validate (K), of the validation split (K-1) and of --decision-choice out-of-fold.") var folds: Int = 5

    @Option(help: .init("Run --cross-validate N times, at fold seeds --seed, --seed + 1, ...; figures over all folds.", valueName: "N"))
    var repeats = 1

    @Option(help: ArgumentHelp("Augmented copies (room, background, camera rate, gain) per recording of the label.", valueName: "N"))
    var augment: Int?

    @Option(
        help: ArgumentHelp("With --cross-validate: score every fold resampled to RATE Hz, as such a camera records.", valueName: "RATE"))
    var resample: Int?

    @Option(help: .init("Train a low-rate model (for streams below 32 kHz): all audio resampled to RATE Hz first.", valueName: "RATE"))
    var rate: Int?

    @Option(help: .init("Where the decision is chosen (default: the recipe's).", valueName: "part|part-then-all|out-of-fold"))
    var decisionChoice: String?

    @Option(help: .init("The classifier to train (default: the label's recipe).", valueName: "trees|network|trees+network"))
    var classifier: TrainingOptions.ClassifierChoice?

    @Option(help: .init("Weight of --clips negatives against other negatives (default 1).", valueName: "W")) var negativeClipWeight: Float?

    @Option(help: "Also regenerate this Swift file embedding every model in the --out directory.")
    var embed: String?

    @Flag(help: "Do not show the progress bar.")
    var noProgress = false

    var resolvedLabel: String { label ?? ((out as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// The label to train (validated: one with a ``SoundModelRecipe``).
    var trigger: EventTriggerType { EventTriggerType(rawValue: resolvedLabel)! }

    func validate() throws {
        if let problem = TrainingInputs.settingsProblem(
            label: resolvedLabel, copies: copies, folds: folds, augment: augment, decisionChoice: decisionChoice, resample: resample,
            rate: rate, crossValidate: crossValidate, negativeClipWeight: negativeClipWeight, repeats: repeats)
        {
            throw ValidationError(problem)
        }
        // Checked before the minutes of training, so that their result is not lost to a typo.
        try Self.usage {
            try TrainingInputs.checkNegatives(negatives)
            if let positives { _ = try TrainingInputs.extraPositives(positives, label: resolvedLabel) }
            if let clips { _ = try TrainingInputs.clipList(clips) }
            for (option, path) in [("--out", out)] + (embed.map { [("--embed", $0)] } ?? []) {
                try TrainingInputs.checkWritable(path, option: option)
            }
        }
    }

    func run() throws {
        var training: TrainingRun!
        try Self.usage {
            training = try TrainingInputs.run(
                trigger: trigger, labels: labels, audioDirectory: audioDir, out: out, seed: seed, negatives: negatives,
                positives: positives, clips: clips, provenance: provenance)
        }
        training.copies = copies
        training.crossValidationFolds = crossValidate ? folds : nil
        training.crossValidationRepeats = repeats
        training.choiceFolds = folds
        training.roomCopies = augment
        training.scoringRate = resample
        training.trainingRate = rate
        training.decisionChoice = decisionChoice.flatMap(TrainingOptions.DecisionChoice.init(rawValue:))
        training.classifier = classifier
        training.negativeClipWeight = negativeClipWeight
        training.embeddedIn = embed
        var bar: ProgressBar?
        let result = try training.run { event in
            switch event {
            case .started(let count, let itemName):
                bar = ProgressBar(totalSeconds: 0, totalItems: count, itemName: itemName, enabled: !noProgress)
            case .itemDone(let name): bar?.itemDone(label: name)
            case .finished: bar?.finish()
            case .warning(let text), .fold(let text), .note(let text):
                bar?.clear()
                AnalyzeCommand.stderr(text)
            }
        }
        if let crossValidation = result.crossValidation { print(crossValidation.markdownTable, terminator: "") }
        try RecordingOutputWriter.atomicWrite(result.model.fileText, to: out)
        try RecordingOutputWriter.atomicWrite(result.card, to: ((out as NSString).deletingPathExtension) + ".md")
        if let embed { try RecordingOutputWriter.atomicWrite(TrainingInputs.embeddedModelsSource(besideModel: out), to: embed) }
        print(result.summary(modelPath: out).serialized())
    }

    /// Runs `body`, turning a ``TrainingInputError`` into a usage error with its message.
    static func usage(_ body: () throws -> Void) throws {
        do { try body() } catch let error as TrainingInputError { throw ValidationError(error.description) }
    }
}
extension TrainingOptions.ClassifierChoice: ExpressibleByArgument {}
