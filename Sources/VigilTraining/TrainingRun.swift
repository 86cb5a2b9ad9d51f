import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilInference
import VigilScoring

/// An audio file given to a training run: the path to open and the name it is known by (relative
/// to the directory it was found in; the name labels files use).
package struct TrainingRecording: Sendable, Hashable {
    /// Path to open.
    package var path: String
    /// Name in labels files, model metadata and messages.
    package var name: String

    /// Creates a recording.
    package init(path: String, name: String) {
        self.path = path
        self.name = name
    }
}

/// What a training run reports while it works: progress over files and clips, warnings about
/// files left out, and one line per cross-validation fold.
package enum TrainingProgress: Sendable {
    /// A pass over `count` items (`itemName`: "files", "clips") begins.
    case started(count: Int, itemName: String)
    /// One item of the pass is done.
    case itemDone(String)
    /// The pass is over.
    case finished
    /// A file was left out (the text names it and the reason).
    case warning(String)
    /// A cross-validation fold ended (the text gives its figures).
    case fold(String)
    /// A step worth telling (e.g. how many augmented copies were made).
    case note(String)
}

/// One run of `vigil train`: reads the recordings, adds the label's synthetic, extra and clip
/// material, optionally cross-validates, trains the model with the label's ``SoundModelRecipe``
/// and writes its model card. Deterministic: the same inputs and seed give the same bytes.
package struct TrainingRun {
    /// The label to train.
    package var trigger: EventTriggerType
    /// The labelled recordings (the development set), every one used, files without events as negatives.
    package var recordings: [TrainingRecording]
    /// Their events (file names as in ``TrainingRecording/name``).
    package var annotations: [LabelEvent]
    /// Rows of the provenance file that groups the recordings by source (empty: each file is its own group).
    package var provenance: [DevelopmentSet.SourceRow] = []
    /// The training seed.
    package var seed: UInt64
    /// Augmented copies per training file; nil: the recipe's.
    package var copies: Int?
    /// Room-augmented copies (``TrainingAugmentation``) of every recording of the label in the training part; nil: the recipe's.
    package var roomCopies: Int?
    /// Where the decision is chosen; nil: the recipe's.
    package var decisionChoice: TrainingOptions.DecisionChoice?
    /// The weight of the clip folder's negative clips; nil: 1.
    package var negativeClipWeight: Float?
    /// The classifier trained; nil: the recipe's.
    package var classifier: TrainingOptions.ClassifierChoice?
    /// With cross-validation: the rate (Hz) every fold is scored at, the recordings above it resampled to it (as a camera
    /// recording at that rate would hold them); training is unchanged. nil: each recording at its own rate.
    package var scoringRate: Int?
    /// The rate (Hz) of a low-rate model (``SoundModel/trainingRate``): every recording above it is resampled to it
    /// before its features are taken, for training, choosing and scoring alike. nil: each recording at its own rate.
    package var trainingRate: Int?
    /// The frames the model's features are taken on: for a network, frames of one duration at every rate (its kernels
    /// span frames, so their duration must not depend on the rate); for trees, the recipe's
    /// ``SoundModelRecipe/fullBandFrames`` for the label's model and the shared STFT's frames for a low-rate model
    /// (which serves streams of one kind of rate).
    package var featureFrames: FeatureFrames {
        if (classifier ?? SoundModelRecipe.of(trigger).classifier).trainsNetwork { return .fixedDuration }
        return trainingRate == nil ? SoundModelRecipe.of(trigger).fullBandFrames : .shared
    }
    /// Folds of the out-of-fold decision choice (the cross-validation's folds over every recording).
    package var choiceFolds = 5
    /// Extra negative recordings (training part only).
    package var negatives: [TrainingRecording] = []
    /// What the extra negatives are, for the model metadata.
    package var negativeSource = ""
    /// Extra labelled recordings and their events (training part only).
    package var positives: (recordings: [TrainingRecording], events: [LabelEvent], source: String)?
    /// Clip-labelled recordings: the folder's clips and the path of each one's audio.
    package var clips: (list: [TrainingClip], audioPath: (TrainingClip) -> String, source: String)?
    /// Folds of the grouped, nested cross-validation; nil: none.
    package var crossValidationFolds: Int?
    /// Repeats of the cross-validation, at fold seeds `seed`, `seed + 1`, ...: its figures are the mean and worst fold
    /// over all of them (one set of folds flatters the choices made on it). The training material is the same in each.
    package var crossValidationRepeats = 1
    /// Paths written into the model card: the model file, the embedded source, the recordings and labels.
    package var modelPath: String
    /// The embedded-models source the card names, if any.
    package var embeddedIn: String?
    /// Known weaknesses written into the model card, one per item (the shipped models' come from their recipe).
    package var knownWeaknesses: [String] = []
    /// The recordings' directory, for the card and the metadata.
    package var audioDirectory: String
    /// The labels file, for the card.
    package var labelsPath: String

    /// Creates a run; the optional material is set on the value.
    package init(
        trigger: EventTriggerType, recordings: [TrainingRecording], annotations: [LabelEvent], seed: UInt64, modelPath: String,
        audioDirectory: String, labelsPath: String
    ) {
        self.trigger = trigger
        self.recordings = recordings
        self.annotations = annotations
        self.seed = seed
        self.modelPath = modelPath
        self.audioDirectory = audioDirectory
        self.labelsPath = labelsPath
    }

    /// What a run produced.
    package struct Result {
        /// The model.
        package var model: SoundModel
        /// Its validation figures.
        package var figures: ValidationFigures
        /// The model card (Markdown).
        package var card: String
        /// The cross-validation figures, when asked for.
        package var crossValidation: CrossValidationReport?
        /// Development files used.
        package var files: Int
        /// Files of the validation part.
        package var validationFiles: Int

        /// The one-line JSON summary `vigil train` prints, for the model written to `modelPath`.
        package func summary(modelPath: String) -> JSONValue {
            func finite(_ x: Double) -> Double { x.isFinite ? x : 0 }
            var members: [(String, JSONValue)] = [
                ("type", "trained"), ("label", .string(model.label)), ("out", .string(modelPath)), ("files", .number(Double(files))),
                ("validationFiles", .number(Double(validationFiles))), ("eventF1", .number(finite(figures.event.f1))),
                ("segmentF1", .number(finite(figures.segment.f1))), ("falseAlarmsPerHour", .number(finite(figures.falseAlarmsPerHour))),
            ]
            if let crossValidation { members.append(("crossValidation", crossValidation.json)) }
            return .object(JSONObject(members))
        }
    }

    /// Decodes a whole file to mono samples.
    package static func decode(_ path: String) throws -> (samples: [Float], rate: Double) {
        let (samples, rate) = try AudioFileReader.readAllMono(path: path)
        return (samples, Double(rate))
    }

    /// `list` with the clips of unknown source that sound like one recording joined
    /// (``RecordingLikeness/joiningAlikeClips(_:signatures:)``). Each such clip is decoded at its own rate, never
    /// resampled, so that runs at every training rate get the same folds; one that cannot be decoded stays alone
    /// (training warns about it when it reads it).
    package static func joiningAlikeClips(_ list: [TrainingClip], audioPath: (TrainingClip) -> String) -> [TrainingClip] {
        var signatures: [String: RecordingLikeness.Signature] = [:]
        for clip in list where clip.sourceIsUnknown {
            guard let decoded = try? decode(audioPath(clip)),
                let signature = RecordingLikeness.signature(samples: decoded.samples, sampleRate: decoded.rate)
            else { continue }
            signatures[clip.filename] = signature
        }
        return RecordingLikeness.joiningAlikeClips(list, signatures: signatures)
    }

    /// Decodes a whole file to mono samples, resampled to ``trainingRate`` when it is above it.
    func read(_ path: String) throws -> (samples: [Float], rate: Double) {
        let decoded = try Self.decode(path)
        guard let trainingRate, decoded.rate > Double(trainingRate) else { return decoded }
        return (BandLimitedResampler.resample(decoded.samples, from: decoded.rate, to: Double(trainingRate)), Double(trainingRate))
    }

    /// The training material of a run: every recording's features (the development files, the
    /// synthetic, extra and clip material, and the augmented copies), their events and the split.
    package struct Material {
        /// Features of every recording the trees may train on, the augmented copies last.
        package var features: [RecordingFeatures]
        /// How many of `features` are augmented copies (at the end).
        package var augmentedCount: Int
        /// The decoded development files and, where room copies need them, clips.
        var audio: [String: (samples: [Float], rate: Double)]
        /// The events, with the clips' activity regions and the extra positives' events.
        package var annotations: [LabelEvent]
        /// Names of the development files that could be decoded.
        package var files: [String]
        /// Their durations (seconds).
        var durations: [String: Double]
        /// The split of `features` the model is trained on, as a cross-validation fold's training part is split: the
        /// trees' training material, the validation part (development files and clips) and the label's clips.
        package var split: CrossValidation.FoldData
        /// The validation part: the development files and clips the decision is chosen on.
        package var validation: Set<String> { split.validation }
        var voiceBackground: VoiceBackground
        /// The training options (the recipe's, for the label's model or its low-rate model, with the run's settings).
        package var options: TrainingOptions
        /// Every clip of the clip folder, by recording name (also those the label leaves out).
        package var listedClips: [String: TrainingClip]
        var clipByName: [String: TrainingClip]
        var clipEvents: Int
        var extraNegativeCount: Int
        var extraPositiveCount: Int
        var augmentCopies: Int
        var roomCopies: Int
        /// The folds over the development files and clips that `split` comes from.
        package var plan: CrossValidationPlan
        /// The development file mixed into each augmented copy.
        package var backgroundOf: [String: String]
        var resampledFeatures: [String: RecordingFeatures]

        /// The hash the model file records as `dataHash`: every feature value the classifier reads, name and event
        /// (``SoundModelTrainer/dataHash(recordings:annotations:networkInputs:)``).
        package var dataHash: String {
            "fnv1a64:"
                + SoundModelTrainer.dataHash(
                    recordings: features, annotations: annotations, networkInputs: options.classifier.trainsNetwork)
        }
    }

    /// Trains the model. A recording that cannot be decoded is left out with a warning; `progress`
    /// hears of every step.
    package func run(progress: (TrainingProgress) -> Void) throws(TrainingRunError) -> Result {
        try train(try material(progress: progress), progress: progress)
    }

    /// Reads and featurises the run's material, with the augmented copies, without training.
    package func material(progress: (TrainingProgress) -> Void) throws(TrainingRunError) -> Material {
        let label = trigger.rawValue
        let recipe = SoundModelRecipe.of(trigger)
        let frames = featureFrames
        guard annotations.contains(where: { $0.label == label }) else { throw TrainingRunError.noEvents(label: label) }
        var annotations = annotations
        progress(.started(count: recordings.count, itemName: "files"))
        var audio: [String: (samples: [Float], rate: Double)] = [:]
        var features: [RecordingFeatures] = []
        var durations: [String: Double] = [:]
        // Features of the recordings resampled to the scoring rate, scored instead of the originals.
        var resampledFeatures: [String: RecordingFeatures] = [:]
        for recording in recordings {
            do {
                let decoded = try read(recording.path)
                audio[recording.name] = decoded
                durations[recording.name] = Double(decoded.samples.count) / decoded.rate
                features.append(
                    SoundModelTrainer.extractFeatures(
                        name: recording.name, samples: decoded.samples, sampleRate: decoded.rate, frames: frames))
                if let rec = Self.resampledFeatures(recording.name, decoded, to: scoringRate, frames: frames) {
                    resampledFeatures[rec.name] = rec
                }
            } catch {
                progress(.warning("warning: \(error); left out of training"))
            }
            progress(.itemDone(recording.name))
        }
        progress(.finished)
        guard !features.isEmpty else { throw TrainingRunError.noRecordings }
        let files = features.map(\.name)
        let voiceBackground = DevelopmentSet.voiceBackground(provenance: provenance)
        // Copies of the negatives as a camera at a lower rate records them (SoundModelRecipe.negativeRateCopies).
        let withLabel = Set(annotations.filter { $0.label == label }.map(\.file))
        for rec in features where !withLabel.contains(rec.name) {
            if let copy = Self.rateCopy(rec.name, audio[rec.name], recipe: recipe, frames: frames) { features.append(copy) }
        }
        let syntheticRate = Double(trainingRate ?? 44_100)
        for (name, samples) in SoundModelTrainer.syntheticNegatives(sampleRate: syntheticRate, seed: seed)
        where recipe.syntheticConfusers || !SoundModelTrainer.isSyntheticConfuser(name) {
            features.append(SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: syntheticRate, frames: frames))
        }
        // Extra negatives: training only (their names carry SoundModelTrainer.extraNegativePrefix).
        let extraNegativeFeatures = extraFeatures(negatives, progress) {
            SoundModelTrainer.extraNegativeFeatures(name: $0, samples: $1, sampleRate: $2, frames: frames)
        }
        features += extraNegativeFeatures
        // Extra labelled recordings: training only (their names and events carry SoundModelTrainer.extraPositivePrefix).
        var extraPositives = 0
        if let positives {
            let extraPositiveFeatures = extraFeatures(positives.recordings, progress) {
                SoundModelTrainer.extraPositiveFeatures(name: $0, samples: $1, sampleRate: $2, frames: frames)
            }
            features += extraPositiveFeatures
            extraPositives = extraPositiveFeatures.count
            annotations += SoundModelTrainer.extraPositiveEvents(positives.events)
        }
        // Clip-labelled recordings: training only; of the label's clips only the active parts are taught.
        var options = TrainingOptions(label: label, lowRate: trainingRate != nil)
        if let decisionChoice { options.decisionChoice = decisionChoice }
        if let classifier { options.classifier = classifier }
        if let negativeClipWeight { options.negativeClipWeight = negativeClipWeight }
        let roomCopies = self.roomCopies ?? recipe.roomAugmentedCopies
        var clipByName: [String: TrainingClip] = [:]
        // Every listed clip, for the cross-validation folds (the same folds for every label).
        var listedClips: [String: TrainingClip] = [:]
        var clipEvents = 0
        if let clips {
            let list = Self.joiningAlikeClips(clips.list, audioPath: clips.audioPath)
            for clip in list { listedClips[TrainingClip.namePrefix + clip.filename] = clip }
            progress(.started(count: list.count, itemName: "clips"))
            for clip in list {
                defer { progress(.itemDone(clip.filename)) }
                // Voices in the background are not a negative for personTalking: such clips are left out.
                if clip.voices && recipe.ignoresVoiceBackground { continue }
                do {
                    let decoded = try read(clips.audioPath(clip))
                    let rec = SoundModelTrainer.extractFeatures(
                        name: TrainingClip.namePrefix + clip.filename, samples: decoded.samples, sampleRate: decoded.rate, frames: frames)
                    features.append(rec)
                    clipByName[rec.name] = clip
                    if clip.label != label, let copy = Self.rateCopy(rec.name, decoded, recipe: recipe, frames: frames) {
                        features.append(copy)
                    }
                    if let scored = Self.resampledFeatures(rec.name, decoded, to: scoringRate, frames: frames) {
                        resampledFeatures[rec.name] = scored
                    }
                    // Kept for the room copies: the label's clips (sounds) and the negatives (backgrounds).
                    if roomCopies > 0 && (clip.label == label || clip.label == TrainingClip.negativeLabel) { audio[rec.name] = decoded }
                    if clip.label == label {
                        let events = SoundModelTrainer.activityEvents(rec, label: label, minimumActivity: options.positiveActivity)
                        annotations += events
                        clipEvents += events.count
                    }
                } catch {
                    progress(.warning("warning: \(error); left out of training"))
                }
            }
            progress(.finished)
        }
        let augmentCopies = copies ?? recipe.augmentedCopies
        let unaugmented = features.count
        // The model is made as one more fold of the cross-validation would be, with every item as its training part
        // (``CrossValidation/foldData(plan:fold:label:recordings:clips:backgroundOf:crossFitted:refit:)`` with no
        // scored fold): grouped folds over the development files and the clips, the decision chosen on the first of
        // K-1 of them (or out of fold on all K). A copy's background lies on its file's side of the validation part
        // (out of fold: in its file's fold), so that the trees that choose never hear that part.
        let items = CrossValidationPlan.items(
            devFiles: files, provenance: provenance, annotations: annotations, durations: durations, clips: listedClips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: choiceFolds, seed: seed)
        let inner = plan.innerValidation(outerFold: -1)
        let sameFold: (String, String) -> Bool =
            options.decisionChoice == .outOfFold
            ? { a, b in plan.foldOf[a] == plan.foldOf[b] } : { a, b in inner.contains(a) == inner.contains(b) }
        var backgroundOf: [String: String] = [:]
        if augmentCopies > 0 {
            let copies = Self.augmentedCopies(
                of: files, pool: files,
                annotations: Self.copyBackgroundExclusions(annotations, label: label, options: options),
                voiceBackground: voiceBackground, audio: audio,
                copies: augmentCopies, seed: seed, frames: frames, sameFold: sameFold)
            features += copies.recordings
            backgroundOf = copies.backgroundOf
        }
        if roomCopies > 0 {
            let copies = Self.roomAugmentedCopies(
                label: label, copies: roomCopies, seed: seed, audio: audio, annotations: annotations, devFiles: files,
                clips: clipByName, voiceBackground: voiceBackground, frames: frames, sameFold: sameFold, progress: progress)
            features += copies.recordings
            backgroundOf.merge(copies.backgroundOf) { a, _ in a }
        }
        let split = CrossValidation.foldData(
            plan: plan, fold: -1, label: label, recordings: features, clips: listedClips, backgroundOf: backgroundOf,
            crossFitted: options.decisionChoice == .outOfFold, refit: options.decisionChoice == .validationPartThenAll)
        return Material(
            features: features, augmentedCount: features.count - unaugmented, audio: audio, annotations: annotations, files: files,
            durations: durations, split: split, voiceBackground: voiceBackground, options: options, listedClips: listedClips,
            clipByName: clipByName, clipEvents: clipEvents, extraNegativeCount: extraNegativeFeatures.count,
            extraPositiveCount: extraPositives, augmentCopies: augmentCopies, roomCopies: roomCopies, plan: plan,
            backgroundOf: backgroundOf, resampledFeatures: resampledFeatures)
    }

    /// Cross-validates (when asked), then trains the model and writes its card, on `material`.
    package func train(_ m: Material, progress: (TrainingProgress) -> Void) throws(TrainingRunError) -> Result {
        let label = trigger.rawValue
        var crossValidation: CrossValidationReport?
        if let folds = crossValidationFolds {
            // The folds make their own augmented copies, each from its own fold's recordings.
            for r in 0..<max(crossValidationRepeats, 1) {
                let report = Self.crossValidate(
                    label: label, recordings: Array(m.features.dropLast(m.augmentedCount)), audio: m.audio, devFiles: m.files,
                    provenance: provenance, annotations: m.annotations, durations: m.durations, clips: m.listedClips,
                    voiceBackground: m.voiceBackground, copies: m.augmentCopies, folds: folds, seed: seed &+ UInt64(r), options: m.options,
                    roomCopies: m.roomCopies, scoredFeatures: m.resampledFeatures, seedInProgress: crossValidationRepeats > 1,
                    progress: progress)
                if crossValidation == nil { crossValidation = report } else { crossValidation!.folds += report.folds }
            }
        }
        // The data are identified by their hash, not by a date: a file's modification time changes
        // when the same data are copied, and the model file would then differ.
        var metadata: [(String, JSONValue)] = [
            ("dataHash", .string(m.dataHash)),
            ("data", .string("\((audioDirectory as NSString).lastPathComponent) (\(m.files.count) files)")),
            ("seed", .number(Double(seed))), ("augmentedCopies", .number(Double(m.augmentCopies))),
        ]
        // The validation part's development files, so that a scorer can tell the model's training files (SoundModel.trainingPart).
        let validationFiles = m.files.filter { m.validation.contains($0) }
        if !validationFiles.isEmpty {
            metadata.append(
                (
                    "validationPart",
                    .object(
                        JSONObject([
                            ("folds", .number(Double(m.plan.innerFoldCount))), ("files", .array(validationFiles.map { .string($0) })),
                        ]))
                ))
        }
        if m.roomCopies > 0 { metadata.append(("roomAugmentedCopies", .number(Double(m.roomCopies)))) }
        if m.augmentCopies > 0 && m.options.copiesOverOtherLabels {
            metadata.append(("augmentedCopiesOverOtherLabels", .bool(true)))
        }
        if m.extraNegativeCount > 0 {
            metadata += [
                ("extraNegativeFiles", .number(Double(m.extraNegativeCount))),
                ("extraNegativeSource", .string("\(m.extraNegativeCount) files from \(negativeSource)")),
            ]
        }
        if m.extraPositiveCount > 0 {
            metadata += [
                ("extraPositiveFiles", .number(Double(m.extraPositiveCount))),
                ("extraPositiveSource", .string("\(m.extraPositiveCount) files from \(positives?.source ?? "")")),
            ]
        }
        if !m.clipByName.isEmpty {
            let source =
                "\(m.clipByName.count) clips from \(clips?.source ?? "") (\(m.clipByName.values.filter { $0.label == label }.count) of the label, \(m.clipEvents) activity regions)"
            metadata += [("clipFiles", .number(Double(m.clipByName.count))), ("clipSource", .string(source))]
        }
        if let crossValidation { metadata.append(("crossValidation", crossValidation.json)) }
        let trained = SoundModelTrainer.train(
            label: label, recordings: m.split.training, annotations: m.annotations, validation: m.validation,
            voiceBackground: m.voiceBackground, seed: seed, options: m.options, metadata: metadata, partlyLabelled: m.split.partlyLabelled,
            choiceFolds: m.options.decisionChoice == .outOfFold ? m.plan.innerFolds(outerFold: -1) : [], backgroundOf: m.backgroundOf,
            heldOutOfChoice: m.split.validationClips)
        var model = trained.model
        model.trainingRate = trainingRate
        model.frames = featureFrames
        let figures = trained.figures
        let card = SoundModelCard.markdown(
            model: model, figures: figures, provenance: provenance, validation: m.validation,
            trainingFileCount: m.options.decisionChoice.trainsOnEverything ? m.files.count : m.files.count - validationFiles.count,
            data: SoundModelCard.TrainingData(
                modelPath: modelPath, embeddedIn: embeddedIn, recordings: audioDirectory, labels: labelsPath, fileCount: m.files.count,
                seconds: m.files.reduce(0) { $0 + m.durations[$1]! },
                eventCount: m.annotations.filter { $0.label == label && m.durations[$0.file] != nil }.count),
            weaknesses: knownWeaknesses, crossValidation: crossValidation)
        return Result(
            model: model, figures: figures, card: card, crossValidation: crossValidation, files: m.files.count,
            validationFiles: validationFiles.count)
    }

    /// Features of extra training recordings made by `extract`; a file that cannot be decoded is left
    /// out with a warning naming it.
    func extraFeatures(
        _ recordings: [TrainingRecording], _ progress: (TrainingProgress) -> Void, _ extract: (String, [Float], Double) -> RecordingFeatures
    ) -> [RecordingFeatures] {
        recordings.compactMap { recording in
            do {
                let decoded = try read(recording.path)
                return extract(recording.name, decoded.samples, decoded.rate)
            } catch {
                progress(.warning("warning: \(error); left out of training"))
                return nil
            }
        }
    }

    /// `copies` augmented copies of each file in `files`: the file at a random gain with a file of `pool` that holds none
    /// of `annotations` (outside the voice background, in the same fold by `sameFold`) mixed in at a random SNR. Returns
    /// the copies and, for each copy, the file mixed into it: a copy is not trained on where that file is held out.
    package static func augmentedCopies(
        of files: [String], pool candidates: [String], annotations: [LabelEvent], voiceBackground: VoiceBackground,
        audio: [String: (samples: [Float], rate: Double)], copies: Int, seed: UInt64, frames: FeatureFrames = .shared,
        sameFold: (String, String) -> Bool
    ) -> (recordings: [RecordingFeatures], backgroundOf: [String: String]) {
        let annotated = Set(annotations.map(\.file))
        let eventFree = candidates.filter { !annotated.contains($0) && !voiceBackground.files.contains($0) }
        var rng = SplitMix64(seed: seed)
        var out: [RecordingFeatures] = []
        var backgroundOf: [String: String] = [:]
        for name in files {
            let pool = eventFree.filter { sameFold(name, $0) }
            guard !pool.isEmpty, let source = audio[name] else { continue }
            for k in 1...copies {
                let bg = pool[rng.nextIndex(below: pool.count)]
                let snr = 20 * rng.nextUnit()
                let gain = -15 + 20 * rng.nextUnit()
                let background = audio[bg]!.samples
                let offset = rng.nextIndex(below: max(1, background.count))
                let mixed =
                    bg == name
                    ? source.samples
                    : SoundModelTrainer.augmented(source.samples, background: background, snrDB: snr, gainDB: gain, offset: offset)
                out.append(SoundModelTrainer.extractFeatures(name: "\(name)#\(k)", samples: mixed, sampleRate: source.rate, frames: frames))
                if bg != name { backgroundOf["\(name)#\(k)"] = bg }
            }
        }
        return (out, backgroundOf)
    }

    /// The events whose files the gain and negative-mix copies of `label` never mix in: every label's, or with
    /// ``TrainingOptions/copiesOverOtherLabels`` the label's own.
    package static func copyBackgroundExclusions(_ annotations: [LabelEvent], label: String, options: TrainingOptions) -> [LabelEvent] {
        options.copiesOverOtherLabels ? annotations.filter { $0.label == label } : annotations
    }

    /// Runs the grouped, nested cross-validation of `label` over the development files and clips in
    /// `recordings` (synthetic and extra recordings are training material of every fold). `clips` lists every
    /// clip of the folder, also those left out for this label, so that every label gets the same folds. Augmented copies
    /// (`copies` per development file) mix in an event-free development file of the same fold, so that no
    /// fold's audio reaches another fold's training part. Each fold's figures are reported as it ends (with the fold seed when `seedInProgress`).
    static func crossValidate(
        label: String, recordings: [RecordingFeatures], audio: [String: (samples: [Float], rate: Double)], devFiles: [String],
        provenance: [DevelopmentSet.SourceRow], annotations: [LabelEvent], durations: [String: Double], clips: [String: TrainingClip],
        voiceBackground: VoiceBackground, copies: Int, folds: Int, seed: UInt64, options: TrainingOptions, roomCopies: Int = 0,
        scoredFeatures: [String: RecordingFeatures] = [:], seedInProgress: Bool = false, progress: (TrainingProgress) -> Void
    ) -> CrossValidationReport {
        let items = CrossValidationPlan.items(
            devFiles: devFiles, provenance: provenance, annotations: annotations, durations: durations, clips: clips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: folds, seed: seed)
        var all = recordings
        var backgroundOf: [String: String] = [:]
        let frames = recordings.first?.frames ?? .shared
        if roomCopies > 0 {
            // Room copies: sound and background of the same fold, so that no fold's audio reaches another fold's
            // training part (and a copy whose background is in the inner validation part is not trained on).
            let copies = roomAugmentedCopies(
                label: label, copies: roomCopies, seed: seed, audio: audio, annotations: annotations, devFiles: devFiles, clips: clips,
                voiceBackground: voiceBackground, frames: frames, sameFold: { plan.foldOf[$0] == plan.foldOf[$1] }, progress: progress)
            all += copies.recordings
            backgroundOf = copies.backgroundOf
        }
        if copies > 0 {
            let augmented = augmentedCopies(
                of: devFiles, pool: devFiles, annotations: copyBackgroundExclusions(annotations, label: label, options: options),
                voiceBackground: voiceBackground, audio: audio, copies: copies,
                seed: seed, frames: frames, sameFold: { plan.foldOf[$0] == plan.foldOf[$1] })
            all += augmented.recordings
            backgroundOf.merge(augmented.backgroundOf) { a, _ in a }
        }
        let started = Date()
        let segmentObjective = SoundModelTrainer.defaults(for: label).segmentObjective
        return CrossValidation.run(
            label: label, plan: plan, recordings: all, annotations: annotations, devFiles: Set(devFiles), clips: clips,
            voiceBackground: voiceBackground, seed: seed, options: options, backgroundOf: backgroundOf, scoredFeatures: scoredFeatures
        ) { fold in
            let f1 = segmentObjective ? fold.segment.f1 : fold.event.f1
            progress(
                .fold(
                    "\(label) fold \(fold.fold + 1)/\(folds)\(seedInProgress ? " (seed \(seed))" : ""): F1 \(DecimalText.fixed(f1, places: 3)), clip recall "
                        + "\(DecimalText.fixed(fold.clipRecall, places: 3)), false alarms \(fold.devNegativeFalseAlarms) on dev negatives, "
                        + "\(fold.clipNegativeFalseAlarms) on negative clips (\(Int(Date().timeIntervalSince(started))) s)"))
        }
    }
}

extension TrainingRun {
    /// Room-augmented copies (``TrainingAugmentation/copies(of:copies:seed:audio:pool:)``) of the recordings of `label`
    /// among `devFiles` (those with an event of it) and `clips` (the label's clips). Backgrounds: development files with
    /// no event and negative clips (where the recipe ignores the voice background, neither voice-background files nor
    /// clips with voices), with `sameFold(item, background)`.
    static func roomAugmentedCopies(
        label: String, copies: Int, seed: UInt64, audio: [String: (samples: [Float], rate: Double)], annotations: [LabelEvent],
        devFiles: [String], clips: [String: TrainingClip], voiceBackground: VoiceBackground, frames: FeatureFrames = .shared,
        sameFold: (String, String) -> Bool, progress: (TrainingProgress) -> Void
    ) -> (recordings: [RecordingFeatures], backgroundOf: [String: String]) {
        let annotated = Set(annotations.map(\.file))
        let withLabel = Set(annotations.filter { $0.label == label }.map(\.file))
        let ignoresVoices = SoundModelRecipe.of(label: label).ignoresVoiceBackground
        let items = devFiles.filter { withLabel.contains($0) } + clips.filter { $0.value.label == label }.keys.sorted()
        let backgrounds =
            devFiles.filter { !annotated.contains($0) && !(ignoresVoices && voiceBackground.files.contains($0)) }
            + clips.filter { $0.value.label == TrainingClip.negativeLabel && !(ignoresVoices && $0.value.voices) }.keys.sorted()
        let started = Date()
        let result = TrainingAugmentation.copies(of: items, copies: copies, seed: seed, audio: audio, frames: frames) { item in
            backgrounds.filter { sameFold(item, $0) }
        }
        progress(
            .note(
                "\(label): \(result.recordings.count) augmented copies of \(items.count) recordings (\(Int(Date().timeIntervalSince(started))) s)"
            ))
        return result
    }

    /// The copy of the negative recording `name` that `recipe` asks for: resampled to its
    /// ``SoundModelRecipe/negativeRateCopies`` rate and named "NAME#rRATE" (a copy follows its item into every fold
    /// and part); nil when the recipe makes none or the recording is not above that rate.
    static func rateCopy(
        _ name: String, _ decoded: (samples: [Float], rate: Double)?, recipe: SoundModelRecipe, frames: FeatureFrames = .shared
    ) -> RecordingFeatures? {
        guard let rate = recipe.negativeRateCopies, let decoded, decoded.rate > Double(rate) else { return nil }
        let samples = BandLimitedResampler.resample(decoded.samples, from: decoded.rate, to: Double(rate))
        return SoundModelTrainer.extractFeatures(name: "\(name)#r\(rate)", samples: samples, sampleRate: Double(rate), frames: frames)
    }

    /// Features of `decoded` resampled to `rate` (nil when no rate is given or the recording is not above it).
    static func resampledFeatures(
        _ name: String, _ decoded: (samples: [Float], rate: Double), to rate: Int?, frames: FeatureFrames = .shared
    ) -> RecordingFeatures? {
        guard let rate, decoded.rate > Double(rate) else { return nil }
        let samples = BandLimitedResampler.resample(decoded.samples, from: decoded.rate, to: Double(rate))
        return SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: Double(rate), frames: frames)
    }
}

/// Why a training run could not train.
package enum TrainingRunError: Error, Sendable, CustomStringConvertible {
    /// The labels have no event of the label.
    case noEvents(label: String)
    /// No recording could be decoded.
    case noRecordings

    package var description: String {
        switch self {
        case .noEvents(let label): return "no '\(label)' events in the labels"
        case .noRecordings: return "no recording could be decoded"
        }
    }
}
