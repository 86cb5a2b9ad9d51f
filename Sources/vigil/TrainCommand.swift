import ArgumentParser
import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilLearning

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

    @Option(help: "Folds of --cross-validate (K).")
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

    static let trainable = ["dogBark", "glassBreak", "personTalking"]

    var resolvedLabel: String { label ?? ((out as NSString).lastPathComponent as NSString).deletingPathExtension }

    func validate() throws {
        guard Self.trainable.contains(resolvedLabel) else {
            throw ValidationError("cannot train '\(resolvedLabel)': give --label dogBark, glassBreak or personTalking (or name --out after it)")
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
        let label = resolvedLabel
        guard let labelText = FileManager.default.contents(atPath: labels).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ValidationError("--labels \(labels): cannot read file")
        }
        var annotations = DevelopmentSet.parseLabels(labelText)
        let provenanceRows = try ProvenanceFile.rows(named: provenance, labels: labels) ?? []

        let (recordings, _) = InputDiscovery.expand([audioDir])
        guard !recordings.isEmpty else { throw ValidationError("\(audioDir): no audio files") }
        guard annotations.contains(where: { $0.label == label }) else { throw ValidationError("\(labels): no '\(label)' events") }
        let bar = ProgressBar(totalSeconds: 0, totalItems: recordings.count, itemName: "files", enabled: !noProgress)
        var audio: [String: (samples: [Float], rate: Double)] = [:]
        var features: [RecordingFeatures] = []
        var durations: [String: Double] = [:]
        // Features of the recordings resampled to --resample, scored instead of the originals.
        var resampledFeatures: [String: RecordingFeatures] = [:]
        for recording in recordings {
            do {
                let decoded = try Self.decode(recording.path)
                audio[recording.displayName] = decoded
                durations[recording.displayName] = Double(decoded.samples.count) / decoded.rate
                features.append(
                    SoundModelTrainer.extractFeatures(name: recording.displayName, samples: decoded.samples, sampleRate: decoded.rate))
                if let rec = Self.resampledFeatures(recording.displayName, decoded, to: resample) { resampledFeatures[rec.name] = rec }
            } catch {
                bar.clear()
                AnalyzeCommand.stderr("warning: \(error); left out of training")
            }
            bar.itemDone(label: recording.displayName)
        }
        bar.finish()
        let files = features.map(\.name)
        let validation = DevelopmentSet.validationFiles(provenance: provenanceRows, files: files, annotations: annotations, durations: durations)
        let voiceBackground = DevelopmentSet.voiceBackground(provenance: provenanceRows)
        for (name, samples) in SoundModelTrainer.syntheticNegatives(sampleRate: 44_100, seed: seed)
        where SoundModelTrainer.usesSyntheticConfusers(label) || !SoundModelTrainer.isSyntheticConfuser(name) {
            features.append(SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: 44_100))
        }
        // Extra negatives: training only (their names carry SoundModelTrainer.extraNegativePrefix).
        let extraNegativeFeatures = Self.extraFeatures(InputDiscovery.expand(negatives).recordings, SoundModelTrainer.extraNegativeFeatures)
        features += extraNegativeFeatures
        let extraNegatives = extraNegativeFeatures.count
        // Extra labeled recordings: training only (their names and events carry SoundModelTrainer.extraPositivePrefix).
        var extraPositives = 0
        if let positives {
            let extra = try Self.extraPositives(positives, label: label)
            let extraPositiveFeatures = Self.extraFeatures(extra.recordings, SoundModelTrainer.extraPositiveFeatures)
            features += extraPositiveFeatures
            extraPositives = extraPositiveFeatures.count
            annotations += SoundModelTrainer.extraPositiveEvents(extra.events)
        }
        // Clip-labelled recordings: training only; of the label's clips only the active parts are taught.
        var options = TrainingOptions(label: label)
        if let choice = decisionChoice.flatMap(TrainingOptions.DecisionChoice.init(rawValue:)) { options.decisionChoice = choice }
        let augmentCopies = copies ?? (label == "glassBreak" ? 2 : 0)
        let roomCopies = augment ?? TrainingOptions.augmentedCopies(label: label)
        var clipByName: [String: TrainingClip] = [:]
        // Every listed clip, for the cross-validation folds (the same folds for every label).
        var listedClips: [String: TrainingClip] = [:]
        var clipEvents = 0
        if let clips {
            let list = try Self.clipList(clips)
            for clip in list { listedClips[TrainingClip.namePrefix + clip.filename] = clip }
            let clipBar = ProgressBar(totalSeconds: 0, totalItems: list.count, itemName: "clips", enabled: !noProgress)
            for clip in list {
                defer { clipBar.itemDone(label: clip.filename) }
                // Voices in the background are not a negative for personTalking: such clips are left out.
                if clip.voices && label == "personTalking" { continue }
                do {
                    let decoded = try Self.decode(Self.clipAudioPath(clips, clip))
                    let rec = SoundModelTrainer.extractFeatures(
                        name: TrainingClip.namePrefix + clip.filename, samples: decoded.samples, sampleRate: decoded.rate)
                    features.append(rec)
                    clipByName[rec.name] = clip
                    if let scored = Self.resampledFeatures(rec.name, decoded, to: resample) { resampledFeatures[rec.name] = scored }
                    // Kept for the augmented copies: the label's clips (sounds) and the negatives (backgrounds).
                    if roomCopies > 0 && (clip.label == label || clip.label == TrainingClip.negativeLabel) { audio[rec.name] = decoded }
                    if clip.label == label {
                        let events = SoundModelTrainer.activityEvents(rec, label: label, minimumActivity: options.positiveActivity)
                        annotations += events
                        clipEvents += events.count
                    }
                } catch {
                    clipBar.clear()
                    AnalyzeCommand.stderr("warning: \(error); left out of training")
                }
            }
            clipBar.finish()
        }
        let partlyLabelled = Set(clipByName.filter { $0.value.label == label }.keys)
        var crossValidation: CrossValidationReport?
        if crossValidate {
            crossValidation = Self.crossValidate(
                label: label, recordings: features, audio: audio, devFiles: files, provenance: provenanceRows, annotations: annotations,
                durations: durations, clips: listedClips, voiceBackground: voiceBackground, copies: augmentCopies, folds: folds, seed: seed,
                options: options, augment: roomCopies, scoredFeatures: resampledFeatures)
            print(crossValidation!.markdownTable, terminator: "")
        }
        // Out-of-fold choice: the folds of the cross-validation over every recording; the trees train on everything.
        let outOfFold = options.decisionChoice == .outOfFold
        let items = CrossValidationPlan.items(
            devFiles: files, provenance: provenanceRows, annotations: annotations, durations: durations, clips: listedClips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: folds, seed: seed)
        if augmentCopies > 0 {
            let annotated = Set(annotations.map(\.file))
            // With the out-of-fold choice every file is copied, with a background of its own fold (as in the cross-validation).
            let allPool = files.filter { !annotated.contains($0) && (outOfFold || !validation.contains($0)) && !voiceBackground.files.contains($0) }
            var rng = SplitMix64(seed: seed)
            for name in files where outOfFold || !validation.contains(name) {
                let pool = outOfFold ? allPool.filter { plan.foldOf[$0] == plan.foldOf[name] } : allPool
                guard !pool.isEmpty else { continue }
                for k in 1...augmentCopies {
                    let bg = pool[rng.nextIndex(below: pool.count)]
                    let snr = 20 * rng.nextUnit()
                    let gain = -15 + 20 * rng.nextUnit()
                    let background = audio[bg]!.samples
                    let offset = rng.nextIndex(below: max(1, background.count))
                    let source = audio[name]!
                    let mixed = bg == name ? source.samples : SoundModelTrainer.augmented(source.samples, background: background, snrDB: snr, gainDB: gain, offset: offset)
                    features.append(SoundModelTrainer.extractFeatures(name: "\(name)#\(k)", samples: mixed, sampleRate: source.rate))
                }
            }
        }
        var backgroundOf: [String: String] = [:]
        if roomCopies > 0 {
            let trainingFiles = outOfFold ? files : files.filter { !validation.contains($0) }
            let copies = Self.augmentedCopies(
                label: label, copies: roomCopies, seed: seed, audio: audio, annotations: annotations, devFiles: trainingFiles,
                clips: clipByName, voiceBackground: voiceBackground, sameFold: { outOfFold ? plan.foldOf[$0] == plan.foldOf[$1] : true })
            features += copies.recordings
            backgroundOf = copies.backgroundOf
        }
        // The data are identified by their hash, not by a date: a file's modification time changes
        // when the same data are copied, and the model file would then differ.
        var metadata: [(String, JSONValue)] = [
            ("dataHash", .string("fnv1a64:" + SoundModelTrainer.dataHash(recordings: features, annotations: annotations))),
            ("data", .string("\((audioDir as NSString).lastPathComponent) (\(files.count) files)")),
            ("seed", .number(Double(seed))), ("augmentedCopies", .number(Double(augmentCopies))),
        ]
        if roomCopies > 0 { metadata.append(("roomAugmentedCopies", .number(Double(roomCopies)))) }
        if extraNegatives > 0 {
            metadata += [
                ("extraNegativeFiles", .number(Double(extraNegatives))),
                ("extraNegativeSource", .string("\(extraNegatives) files from \(negatives.joined(separator: ", "))")),
            ]
        }
        if extraPositives > 0 {
            metadata += [
                ("extraPositiveFiles", .number(Double(extraPositives))),
                ("extraPositiveSource", .string("\(extraPositives) files from \(positives ?? "")")),
            ]
        }
        if !clipByName.isEmpty {
            let source = "\(clipByName.count) clips from \(clips ?? "") (\(partlyLabelled.count) of the label, \(clipEvents) activity regions)"
            metadata += [("clipFiles", .number(Double(clipByName.count))), ("clipSource", .string(source))]
        }
        if let crossValidation { metadata.append(("crossValidation", crossValidation.json)) }
        let (model, figures) = SoundModelTrainer.train(
            label: label, recordings: features, annotations: annotations, validation: validation, voiceBackground: voiceBackground,
            seed: seed, options: options, metadata: metadata, partlyLabelled: partlyLabelled,
            choiceFolds: outOfFold ? plan.innerFolds(outerFold: -1) : [], backgroundOf: backgroundOf)
        try RecordingOutputWriter.atomicWrite(model.fileText, to: out)
        let card = SoundModelCard.markdown(
            model: model, figures: figures, provenance: provenanceRows, validation: validation,
            trainingFileCount: files.count - validation.count,
            data: SoundModelCard.TrainingData(
                modelPath: out, embeddedIn: embed, recordings: audioDir, labels: labels, fileCount: files.count,
                seconds: files.reduce(0) { $0 + durations[$1]! },
                eventCount: annotations.filter { $0.label == label && durations[$0.file] != nil }.count),
            weaknesses: [], crossValidation: crossValidation)
        try RecordingOutputWriter.atomicWrite(card, to: ((out as NSString).deletingPathExtension) + ".md")
        if let embed {
            let directory = (out as NSString).deletingLastPathComponent
            var models: [(label: String, text: String)] = []
            for name in Self.trainable {
                let path = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("\(name).json")
                if let data = FileManager.default.contents(atPath: path) { models.append((name, String(decoding: data, as: UTF8.self))) }
            }
            try RecordingOutputWriter.atomicWrite(SoundModelTrainer.embeddedModelsSource(models), to: embed)
        }
        var members: [(String, JSONValue)] = [
            ("type", "trained"), ("label", .string(label)), ("out", .string(out)), ("files", .number(Double(files.count))),
            ("validationFiles", .number(Double(validation.count))), ("eventF1", .number(figures.event.f1.isFinite ? figures.event.f1 : 0)),
            ("segmentF1", .number(figures.segment.f1.isFinite ? figures.segment.f1 : 0)),
            ("falseAlarmsPerHour", .number(figures.falseAlarmsPerHour.isFinite ? figures.falseAlarmsPerHour : 0)),
        ]
        if let crossValidation { members.append(("crossValidation", crossValidation.json)) }
        print(JSONValue.object(JSONObject(members)).serialized())
    }

    /// Features of extra training recordings made by `extract` (named by their display name); a file that
    /// cannot be decoded is left out with a warning naming it.
    static func extraFeatures(
        _ recordings: [InputRecording], _ extract: (String, [Float], Double) -> RecordingFeatures
    ) -> [RecordingFeatures] {
        recordings.compactMap { recording in
            do {
                let decoded = try decode(recording.path)
                return extract(recording.displayName, decoded.samples, decoded.rate)
            } catch {
                AnalyzeCommand.stderr("warning: \(error); left out of training")
                return nil
            }
        }
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

    /// Features of `decoded` resampled to `rate` (nil when no rate is given or the recording is not above it).
    static func resampledFeatures(_ name: String, _ decoded: (samples: [Float], rate: Double), to rate: Int?) -> RecordingFeatures? {
        guard let rate, decoded.rate > Double(rate) else { return nil }
        let samples = BandLimitedResampler.resample(decoded.samples, from: decoded.rate, to: Double(rate))
        return SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: Double(rate))
    }

    static func decode(_ path: String) throws -> (samples: [Float], rate: Double) {
        let (samples, rate) = try AudioFileReader.readAllMono(path: path)
        return (samples, Double(rate))
    }
}
