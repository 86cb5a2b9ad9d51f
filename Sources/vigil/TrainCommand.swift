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
            LABELS.tsv holds the events, `filename<TAB>onset<TAB>offset<TAB>label` (file names relative to \
            AUDIO_DIR); every audio file under AUDIO_DIR is used, files without events as negatives. A \
            PROVENANCE.tsv (default: next to LABELS.tsv, if present) groups files by source so that the \
            validation part never shares a source with the training part; without it each file is its own \
            group. Training is deterministic: the same data and --seed give a byte-identical model file. \
            Writes the model to --out and its model card (NAME.md) beside it; with --embed, also regenerates \
            the Swift source that compiles the models in the --out directory into the binary.

            --negatives adds recordings with no event of any label (music, household noise...) to the training part \
            only; the shipped dogBark model trains with the music rendered by `make training-music`. --positives adds \
            labeled recordings (a directory with its own labels.tsv) to the training part only; the shipped \
            personTalking model trains with the words made by `make training-words`.

            Example (the shipped models):
              make training-music
              vigil train --labels ../shared/data/dev/labels.tsv ../shared/data/dev/audio --out Models/dogBark.json \\
                --negatives .build/training-music --embed Sources/VigilDetectors/EmbeddedModels.swift
              make training-words
              vigil train --labels ../shared/data/dev/labels.tsv ../shared/data/dev/audio --out Models/personTalking.json \\
                --positives .build/training-words --embed Sources/VigilDetectors/EmbeddedModels.swift
            """)

    @Option(help: "Event annotations (TSV).")
    var labels: String

    @Argument(help: "Directory with the recordings.")
    var audioDir: String

    @Option(help: "Where to write the model (NAME.json); NAME is the label unless --label is given.")
    var out: String

    @Option(help: "The label to train (dogBark, glassBreak or personTalking); default: the --out file name.")
    var label: String?

    @Option(help: "PROVENANCE.tsv for the source-aware validation split (default: beside LABELS.tsv if present).")
    var provenance: String?

    @Option(help: "Training seed.")
    var seed: UInt64 = 20_251_122

    @Option(help: "Augmented copies per training file (gain, mixed negatives); default 2 for glassBreak, 0 otherwise.")
    var copies: Int?

    @Option(
        name: .customLong("negatives"),
        help: ArgumentHelp(
            "A directory (searched recursively) or file of extra negative recordings: audio with no event of any label, used "
                + "for training only, never for validation. Repeatable.",
            discussion: "The shipped dogBark model trains with rendered music: make training-music, then --negatives .build/training-music."))
    var negatives: [String] = []

    @Option(
        name: .customLong("positives"),
        help: ArgumentHelp(
            "A directory of extra labeled recordings: its audio files (searched recursively) and their events in DIR/labels.tsv "
                + "(file names relative to DIR), used for training only, never for validation.",
            discussion: "The shipped personTalking model trains with other speakers' words: make training-words, then --positives .build/training-words."))
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

    @Option(help: "Folds of --cross-validate (K) and of --decision-choice out-of-fold.")
    var folds: Int = 5

    @Option(
        help: ArgumentHelp(
            "Augmented copies of every recording of the label in the training part (default: the label's recipe): each in a room "
                + "(half of them, RT60 0.2-0.8 s), mixed into a background of the same training part at +6, 0, -6 or -12 dB, "
                + "recorded at 8 or 16 kHz as a camera would (two thirds of them: resampled to that rate), at -12..+6 dB gain.",
            valueName: "N"))
    var augment: Int?

    @Option(
        help: ArgumentHelp(
            "With --cross-validate: score every fold on its recordings resampled to RATE Hz (those above it), as a camera "
                + "recording at that rate would hold them. Training is unchanged.",
            valueName: "RATE"))
    var resample: Int?

    @Option(
        name: .customLong("decision-choice"),
        help: ArgumentHelp(
            "Where the decision (threshold, smoothing, sensitivity step) is chosen: 'part' (one held-out part: the validation "
                + "part, in cross-validation the first inner fold) or 'out-of-fold' (trees trained on the other folds score each "
                + "fold, the model's trees are trained on everything; the folds are those of --cross-validate). Default: the label's recipe.",
            valueName: "part|out-of-fold"))
    var decisionChoice: String?

    @Option(help: "Also regenerate this Swift file embedding every model in the --out directory.")
    var embed: String?

    @Flag(help: "Do not show the progress bar.")
    var noProgress = false

    var resolvedLabel: String { label ?? ((out as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// The label to train (validated: one with a ``SoundModelRecipe``).
    var trigger: EventTriggerType { EventTriggerType(rawValue: resolvedLabel)! }

    func validate() throws {
        guard let trigger = EventTriggerType(rawValue: resolvedLabel), SoundModelRecipe.trainable.contains(trigger) else {
            let names = SoundModelRecipe.trainable.map(\.rawValue)
            throw ValidationError(
                "cannot train '\(resolvedLabel)': give --label \(names.dropLast().joined(separator: ", ")) or \(names.last!) (or name --out after it)")
        }
        if let copies, copies < 0 || copies > 10 { throw ValidationError("--copies must be 0...10") }
        for path in negatives {
            let (found, problems) = InputDiscovery.expand([path])
            if let problem = problems.first { throw ValidationError("--negatives \(problem)") }
            if found.isEmpty { throw ValidationError("--negatives \(path): no audio files") }
        }
        if let positives { _ = try Self.extraPositives(positives, label: resolvedLabel) }
        if let clips { _ = try Self.clipList(clips) }
        if folds < 2 || folds > 20 { throw ValidationError("--folds must be 2...20") }
        if let augment, augment < 0 || augment > 8 { throw ValidationError("--augment must be 0...8") }
        if let decisionChoice, TrainingOptions.DecisionChoice(rawValue: decisionChoice) == nil {
            throw ValidationError("--decision-choice \(decisionChoice): expected 'part' or 'out-of-fold'")
        }
        if let resample {
            guard crossValidate else { throw ValidationError("--resample needs --cross-validate (it sets the rate the folds are scored at)") }
            guard (4_000...96_000).contains(resample) else { throw ValidationError("--resample \(resample): must be 4000...96000 Hz") }
        }
        // Checked before the minutes of training, so that their result is not lost to a typo.
        for (option, path) in [("--out", out)] + (embed.map { [("--embed", $0)] } ?? []) {
            let directory = (path as NSString).deletingLastPathComponent
            let dir = directory.isEmpty ? "." : directory
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("\(option) \(path): directory \(dir) does not exist")
            }
            guard FileManager.default.isWritableFile(atPath: dir) else {
                throw ValidationError("\(option) \(path): directory \(dir) is not writable")
            }
        }
    }

    func run() throws {
        guard let labelText = FileManager.default.contents(atPath: labels).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ValidationError("--labels \(labels): cannot read file")
        }
        let annotations = DevelopmentSet.parseLabels(labelText)
        let recordings = InputDiscovery.expand([audioDir]).recordings
        guard !recordings.isEmpty else { throw ValidationError("\(audioDir): no audio files") }
        guard annotations.contains(where: { $0.label == trigger.rawValue }) else {
            throw ValidationError("\(labels): no '\(trigger.rawValue)' events")
        }
        var training = TrainingRun(
            trigger: trigger, recordings: Self.trainingRecordings(recordings), annotations: annotations, seed: seed, modelPath: out,
            audioDirectory: audioDir, labelsPath: labels)
        training.provenance = try ProvenanceFile.rows(named: provenance, labels: labels) ?? []
        training.copies = copies
        training.negatives = Self.trainingRecordings(InputDiscovery.expand(negatives).recordings)
        training.negativeSource = negatives.joined(separator: ", ")
        if let positives {
            let extra = try Self.extraPositives(positives, label: trigger.rawValue)
            training.positives = (Self.trainingRecordings(extra.recordings), extra.events, positives)
        }
        if let clips {
            training.clips = (try Self.clipList(clips), { Self.clipAudioPath(clips, $0) }, clips)
        }
        training.crossValidationFolds = crossValidate ? folds : nil
        training.choiceFolds = folds
        training.roomCopies = augment
        training.scoringRate = resample
        training.decisionChoice = decisionChoice.flatMap(TrainingOptions.DecisionChoice.init(rawValue:))
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
        if let embed {
            let directory = (out as NSString).deletingLastPathComponent
            var models: [(name: String, text: String)] = []
            for trainable in SoundModelRecipe.trainable {
                let path = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("\(trainable.rawValue).json")
                if let data = FileManager.default.contents(atPath: path) { models.append((path, String(decoding: data, as: UTF8.self))) }
            }
            try RecordingOutputWriter.atomicWrite(EmbeddedModelsSource.render(files: models), to: embed)
        }
        print(result.summary(modelPath: out).serialized())
    }

    /// The recordings found by ``InputDiscovery`` as the training run names them.
    static func trainingRecordings(_ recordings: [InputRecording]) -> [TrainingRecording] {
        recordings.map { TrainingRecording(path: $0.path, name: $0.displayName) }
    }

    /// The audio files and events of a `--positives` directory; a usage error names the directory or
    /// labels file and the reason (missing, no audio, no event of `label`, an event of a file that is not there).
    static func extraPositives(_ directory: String, label: String) throws -> (recordings: [InputRecording], events: [LabelEvent]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--positives \(directory): not a directory")
        }
        let labelsPath = (directory as NSString).appendingPathComponent("labels.tsv")
        guard let data = FileManager.default.contents(atPath: labelsPath) else {
            throw ValidationError("--positives \(labelsPath): cannot read file (the directory's events)")
        }
        let events = DevelopmentSet.parseLabels(String(decoding: data, as: UTF8.self))
        guard events.contains(where: { $0.label == label }) else { throw ValidationError("--positives \(labelsPath): no '\(label)' events") }
        let (found, problems) = InputDiscovery.expand([directory])
        if let problem = problems.first { throw ValidationError("--positives \(problem)") }
        guard !found.isEmpty else { throw ValidationError("--positives \(directory): no audio files") }
        let names = Set(found.map(\.displayName))
        if let orphan = events.first(where: { !names.contains($0.file) }) {
            throw ValidationError("--positives \(labelsPath): '\(orphan.file)' is not an audio file in \(directory)")
        }
        return (found, events)
    }

    /// The clips of a `--clips` folder; a usage error names the folder or the clips.tsv line and the reason
    /// (not a directory, no or unreadable clips.tsv, a malformed line, a listed file missing from DIR/audio).
    static func clipList(_ directory: String) throws -> [TrainingClip] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--clips \(directory): not a directory")
        }
        let listPath = (directory as NSString).appendingPathComponent("clips.tsv")
        guard let data = FileManager.default.contents(atPath: listPath) else {
            throw ValidationError("--clips \(listPath): cannot read file (the folder's clip list)")
        }
        let clips: [TrainingClip]
        do {
            clips = try TrainingClips.parse(String(decoding: data, as: UTF8.self), path: listPath)
        } catch let error as ClipListError {
            throw ValidationError("--clips \(error)")
        }
        if let clip = clips.first(where: { !FileManager.default.fileExists(atPath: clipAudioPath(directory, $0)) }) {
            throw ValidationError("--clips \(listPath):\(clip.line): no audio file \(clipAudioPath(directory, clip))")
        }
        return clips
    }

    static func clipAudioPath(_ directory: String, _ clip: TrainingClip) -> String {
        ((directory as NSString).appendingPathComponent("audio") as NSString).appendingPathComponent(clip.filename)
    }
}
