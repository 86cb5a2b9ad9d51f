import VigilCore
import VigilInference
import VigilScoring

/// The folds of a grouped, nested K-fold cross-validation: every development file and training clip
/// (an "item") belongs to one fold, and items that share a source recording are in the same fold.
package struct CrossValidationPlan: Sendable {
    /// Number of folds (K).
    package let folds: Int
    /// The seed that fixes the folds.
    package let seed: UInt64
    /// Fold of every item (development file name, or clip recording name).
    package let foldOf: [String: Int]
    /// Source component of every item (its smallest item's name).
    package let componentOf: [String: String]
    private let componentAmounts: [String: [String: Double]]

    /// Folds for `keys` (item -> its source groups) with `amounts` (item -> amount per category, for
    /// balancing: events or clips of each label, seconds of negatives), by ``GroupedFolds``.
    package init(keys: [String: [String]], amounts: [String: [String: Double]], folds: Int, seed: UInt64) {
        self.folds = folds
        self.seed = seed
        componentOf = GroupedFolds.components(keys: keys)
        var perComponent: [String: [String: Double]] = [:]
        for item in componentOf.keys.sorted() {
            let c = componentOf[item]!
            if perComponent[c] == nil { perComponent[c] = [:] }
            for (k, v) in (amounts[item] ?? [:]).sorted(by: { $0.key < $1.key }) { perComponent[c]![k, default: 0] += v }
        }
        componentAmounts = perComponent
        let componentFold = GroupedFolds.assign(amounts: perComponent, folds: folds, seed: seed)
        foldOf = componentOf.mapValues { componentFold[$0]! }
    }

    /// How many inner folds a training part is split into: K-1 (at least 2).
    package var innerFoldCount: Int { max(2, folds - 1) }

    /// The inner validation part of outer fold `fold`'s training part: the training part's components are
    /// assigned to K-1 inner folds (seed mixed with the outer fold) and the first is returned. Only items of
    /// the training part can be in it. With `fold` outside 0..<K (e.g. -1) every item is in the training part: the
    /// validation part of a model trained on everything (``TrainingRun``).
    package func innerValidation(outerFold fold: Int) -> Set<String> {
        let training = componentAmounts.filter { name, _ in foldOf[name] != fold }
        let inner = GroupedFolds.assign(amounts: training, folds: innerFoldCount, seed: seed &+ 0x9E37_79B9 &* UInt64(fold + 1))
        return Set(componentOf.filter { item, component in foldOf[item] != fold && inner[component] == 0 }.keys)
    }

    /// All K-1 inner folds of outer fold `fold`'s training part (the first is ``innerValidation(outerFold:)``), as sets of
    /// items; with `fold` outside 0..<K (e.g. -1), the K folds of every item.
    package func innerFolds(outerFold fold: Int) -> [Set<String>] {
        guard (0..<folds).contains(fold) else {
            return (0..<folds).map { k in Set(foldOf.filter { $0.value == k }.keys) }
        }
        let training = componentAmounts.filter { name, _ in foldOf[name] != fold }
        let count = innerFoldCount
        let inner = GroupedFolds.assign(amounts: training, folds: count, seed: seed &+ 0x9E37_79B9 &* UInt64(fold + 1))
        return (0..<count).map { j in Set(componentOf.filter { item, component in foldOf[item] != fold && inner[component] == j }.keys) }
    }

    /// Source-group keys and balancing amounts for development files and training clips: a development file's
    /// keys are its foreground source groups (``DevelopmentSet/groupKey(localPath:)`` of its PROVENANCE rows in
    /// ``DevelopmentSet/groupingRoles``), a clip's its ``TrainingClip/groupKeys`` (its group, and the key of the clips
    /// of unknown source it sounds like); Freesound uploads a few ids apart are joined
    /// (``GroupedFolds/joiningAdjacentFreesoundUploads(_:adjacency:)``).
    package static func items(
        devFiles: [String], provenance: [DevelopmentSet.SourceRow], annotations: [LabelEvent], durations: [String: Double],
        clips: [String: TrainingClip]
    ) -> (keys: [String: [String]], amounts: [String: [String: Double]]) {
        var keys: [String: [String]] = [:]
        var amounts: [String: [String: Double]] = [:]
        let devSet = Set(devFiles)
        for f in devFiles { keys[f] = [] }
        for r in provenance where devSet.contains(r.file) && DevelopmentSet.groupingRoles.contains(r.role) {
            keys[r.file]!.append(DevelopmentSet.groupKey(localPath: r.localPath))
        }
        let byFile = Dictionary(grouping: annotations.filter { devSet.contains($0.file) }, by: \.file)
        for f in devFiles {
            var a: [String: Double] = [:]
            for e in byFile[f] ?? [] { a["dev:" + e.label, default: 0] += 1 }
            if byFile[f] == nil { a["dev:negativeSeconds"] = durations[f] ?? 1 }
            amounts[f] = a
        }
        for (name, clip) in clips {
            keys[name] = clip.groupKeys
            amounts[name] = ["clips:" + clip.label: 1]
        }
        return (GroupedFolds.joiningAdjacentFreesoundUploads(keys), amounts)
    }
}

/// Figures of one fold, scored on that fold only at sensitivity 5.
package struct CrossValidationFold: Sendable {
    /// The fold's index (0-based).
    package var fold: Int
    /// Development files scored.
    package var devFiles: Int
    /// Annotated events of the label on the fold's development files.
    package var devEvents: Int { event.truePositives + event.falseNegatives }
    /// Event-based figures on the fold's development files (0.5 s onset collar, offsets ignored).
    package var event: LabelFigures
    /// Segment-based figures (1 s) on the fold's development files.
    package var segment: LabelFigures
    /// Detections on the fold's event-free development files (voice regions left out for personTalking).
    package var devNegativeFalseAlarms: Int
    /// Hours of the fold's event-free development files counted.
    package var devNegativeHours: Double
    /// The fold's clips of the label.
    package var positiveClips: Int
    /// The fold's clips of the label that hold a detection of it (clip-level recall).
    package var foundClips: Int
    /// Detections on the fold's negative clips (`negative` label; with voices left out for personTalking).
    package var clipNegativeFalseAlarms: Int
    /// Hours of the fold's negative clips counted.
    package var clipNegativeHours: Double
    /// The fold's model (trained, and its decision chosen, inside the fold's training part).
    package var model: SoundModel
    /// The seed that fixed the fold's plan (``CrossValidationPlan/seed``; each repeat of a cross-validation has its own).
    package var foldSeed: UInt64
    /// The decision chosen inside the fold's training part.
    package var decision: DecisionParameters { model.decision }

    /// Clip-level recall (0 without positive clips).
    package var clipRecall: Double { positiveClips > 0 ? Double(foundClips) / Double(positiveClips) : 0 }
    /// False alarms per hour on the development negatives.
    package var devFalseAlarmsPerHour: Double { devNegativeHours > 0 ? Double(devNegativeFalseAlarms) / devNegativeHours : 0 }
    /// False alarms per hour on the negative clips.
    package var clipFalseAlarmsPerHour: Double { clipNegativeHours > 0 ? Double(clipNegativeFalseAlarms) / clipNegativeHours : 0 }
}

/// The figures of a cross-validation of one label: each fold, their mean and the worst fold. A repeated
/// cross-validation holds the folds of every repeat (each with its own fold seed); the mean, the worst fold and
/// the pooled false alarms are then over all of them.
package struct CrossValidationReport: Sendable {
    /// The label.
    package var label: String
    /// The seed that fixed the folds (of the first repeat).
    package var seed: UInt64
    /// Each fold's figures, repeat after repeat.
    package var folds: [CrossValidationFold]

    /// The fold seeds of the repeats, in order (one seed without repeats).
    package var seeds: [UInt64] {
        var seen: [UInt64] = []
        for f in folds where !seen.contains(f.foldSeed) { seen.append(f.foldSeed) }
        return seen
    }
    /// Folds per repeat (K).
    package var foldsPerRepeat: Int { folds.count / max(seeds.count, 1) }
    /// Whether the folds come from more than one fold seed.
    package var isRepeated: Bool { seeds.count > 1 }
    /// The report of one repeat's folds.
    package func repeatReport(seed foldSeed: UInt64) -> CrossValidationReport {
        CrossValidationReport(label: label, seed: foldSeed, folds: folds.filter { $0.foldSeed == foldSeed })
    }
    /// A fold's name in tables: its number, and its fold seed when the cross-validation was repeated.
    func name(_ f: CrossValidationFold) -> String { isRepeated ? "\(f.fold + 1), seed \(f.foldSeed)" : "\(f.fold + 1)" }

    /// Whether the headline figure is segment F1 (personTalking) rather than event F1.
    package var segmentHeadline: Bool { SoundModelTrainer.defaults(for: label).segmentObjective }
    /// A fold's headline F1.
    package func headline(_ f: CrossValidationFold) -> Double { segmentHeadline ? f.segment.f1 : f.event.f1 }
    /// The fold with the lowest headline F1.
    package var worst: CrossValidationFold { folds.min { headline($0) < headline($1) }! }

    func mean(_ value: (CrossValidationFold) -> Double) -> Double { folds.map(value).reduce(0, +) / Double(max(folds.count, 1)) }
    private func sum<T: Numeric>(_ value: (CrossValidationFold) -> T) -> T { folds.map(value).reduce(0, +) }

    /// False alarms per hour over all folds' development negatives together (the folds' hours differ).
    package var pooledDevFalseAlarmsPerHour: Double {
        sum(\.devNegativeHours) > 0 ? Double(sum(\.devNegativeFalseAlarms)) / sum(\.devNegativeHours) : 0
    }
    /// False alarms per hour over all folds' negative clips together.
    package var pooledClipFalseAlarmsPerHour: Double {
        sum(\.clipNegativeHours) > 0 ? Double(sum(\.clipNegativeFalseAlarms)) / sum(\.clipNegativeHours) : 0
    }

    /// `x` with `p` decimals, as the tables print figures.
    private func fixed(_ x: Double, _ p: Int = 3) -> String { DecimalText.fixed(x, places: p) }

    /// One table row per fold, then the mean (false alarms: pooled over the folds) and the worst fold (Markdown).
    package var markdownTable: String {
        let metric = segmentHeadline ? "segment F1" : "event F1"
        var s = "| fold | dev files (events) | \(metric) (P / R) | clip recall | FA/h dev negatives | FA/h negative clips | threshold |\n"
        s += "|---|---|---|---|---|---|---|\n"
        func figures(_ f: LabelFigures) -> String { "\(fixed(f.f1)) (\(fixed(f.precision, 2)) / \(fixed(f.recall, 2)))" }
        for f in folds {
            s += "| \(name(f)) | \(f.devFiles) (\(f.devEvents)) | \(figures(segmentHeadline ? f.segment : f.event))"
            s += " | \(fixed(f.clipRecall)) (\(f.foundClips)/\(f.positiveClips))"
            s += " | \(fixed(f.devFalseAlarmsPerHour, 1)) (\(f.devNegativeFalseAlarms) in \(fixed(f.devNegativeHours, 2)) h)"
            s +=
                " | \(fixed(f.clipFalseAlarmsPerHour, 1)) (\(f.clipNegativeFalseAlarms) in \(fixed(f.clipNegativeHours, 2)) h) | \(f.decision.threshold) |\n"
        }
        if isRepeated {
            for seed in seeds { s += repeatReport(seed: seed).meanRow("mean, seed \(seed)", bold: false) }
        }
        s += meanRow(isRepeated ? "**mean** (\(seeds.count) seeds)" : "**mean**", bold: true)
        let w = worst
        s += "| worst (fold \(name(w))) | | \(fixed(headline(w))) | \(fixed(w.clipRecall)) | \(fixed(w.devFalseAlarmsPerHour, 1))"
        s += " | \(fixed(w.clipFalseAlarmsPerHour, 1)) | |\n"
        return s
    }

    /// The table row of the mean over the folds (false alarms: pooled over the folds).
    private func meanRow(_ name: String, bold: Bool) -> String {
        let p = mean { (segmentHeadline ? $0.segment : $0.event).precision }
        let r = mean { (segmentHeadline ? $0.segment : $0.event).recall }
        let f1 = bold ? "**\(fixed(mean(headline)))**" : fixed(mean(headline))
        var s = "| \(name) | | \(f1) (\(fixed(p, 2)) / \(fixed(r, 2))) | \(fixed(mean(\.clipRecall)))"
        s +=
            " | \(fixed(pooledDevFalseAlarmsPerHour, 1)) pooled (\(sum(\.devNegativeFalseAlarms)) in \(fixed(sum(\.devNegativeHours), 2)) h)"
        s +=
            " | \(fixed(pooledClipFalseAlarmsPerHour, 1)) pooled (\(sum(\.clipNegativeFalseAlarms)) in \(fixed(sum(\.clipNegativeHours), 2)) h) | |\n"
        return s
    }

    /// The figures as a JSON object (for the model file's `training` object and the command's output).
    package var json: JSONValue {
        func r4(_ x: Double) -> JSONValue { .number(SoundModelTrainer.round4(x)) }
        let rows: [JSONValue] = folds.map { f in
            .object(
                JSONObject(
                    (isRepeated ? [("foldSeed", .number(Double(f.foldSeed)))] : []) + [
                        ("fold", .number(Double(f.fold + 1))), ("devFiles", .number(Double(f.devFiles))),
                        ("devEvents", .number(Double(f.devEvents))),
                        ("eventF1Collar0.5s", r4(f.event.f1)), ("eventPrecision", r4(f.event.precision)),
                        ("eventRecall", r4(f.event.recall)),
                        ("segmentF1_1s", r4(f.segment.f1)), ("segmentPrecision", r4(f.segment.precision)),
                        ("segmentRecall", r4(f.segment.recall)),
                        ("devNegativeFalseAlarms", .number(Double(f.devNegativeFalseAlarms))), ("devNegativeHours", r4(f.devNegativeHours)),
                        ("positiveClips", .number(Double(f.positiveClips))), ("foundClips", .number(Double(f.foundClips))),
                        ("clipNegativeFalseAlarms", .number(Double(f.clipNegativeFalseAlarms))),
                        ("clipNegativeHours", r4(f.clipNegativeHours)),
                        ("threshold", .number(f.decision.threshold)),
                    ]))
        }
        // Without repeats the object keeps the members (and bytes) of a single cross-validation.
        let seedMembers: [(String, JSONValue)] =
            isRepeated
            ? [
                ("foldSeeds", .array(seeds.map { .number(Double($0)) })),
                ("repeatMeans", .array(seeds.map { r4(repeatReport(seed: $0).mean(headline)) })),
            ]
            : [("foldSeed", .number(Double(seed)))]
        let worstMembers: [(String, JSONValue)] =
            [("worst", r4(headline(worst))), ("worstFold", .number(Double(worst.fold + 1)))]
            + (isRepeated ? [("worstFoldSeed", .number(Double(worst.foldSeed)))] : [])
        return .object(
            JSONObject(
                [("folds", .number(Double(foldsPerRepeat)))] + seedMembers + [
                    ("headline", .string(segmentHeadline ? "segmentF1_1s" : "eventF1Collar0.5s")), ("mean", r4(mean(headline))),
                ] + worstMembers + [
                    ("meanClipRecall", r4(mean(\.clipRecall))), ("meanDevFalseAlarmsPerHour", r4(mean(\.devFalseAlarmsPerHour))),
                    ("meanClipFalseAlarmsPerHour", r4(mean(\.clipFalseAlarmsPerHour))),
                    ("pooledDevFalseAlarmsPerHour", r4(pooledDevFalseAlarmsPerHour)),
                    ("pooledClipFalseAlarmsPerHour", r4(pooledClipFalseAlarmsPerHour)), ("perFold", .array(rows)),
                ]))
    }
}

/// Grouped, nested K-fold cross-validation of the training recipe (`SoundModelTrainer.train`): each fold's
/// model is trained, and its decision chosen, on the other folds only.
package enum CrossValidation {
    /// What one fold trains on and what it scores.
    package struct FoldData: Sendable {
        /// Recordings the fold's model may see: the training part (items of other folds, their augmented
        /// copies, and recordings of no fold: synthetic and extra training material).
        package var training: [RecordingFeatures]
        /// The inner validation part (a subset of `training`'s items) on which the decision grid and the
        /// sensitivity step are chosen. Positive clips of the label are not in it (they have no onsets).
        package var validation: Set<String>
        /// Positive clips of the label in `training`: only their activity regions are taught.
        package var partlyLabelled: Set<String>
        /// The inner validation part's positive clips of the label, in `training` only when the model's trees train on
        /// everything (``TrainingOptions/DecisionChoice/validationPartThenAll``): held out of the fit that chooses the
        /// decision, and never scored in the choice (they have no onsets).
        package var validationClips: Set<String> = []
        /// Recordings scored: the fold's development files and clips (no augmented copies).
        package var scored: [RecordingFeatures]
    }

    /// The base item of a recording name (augmented copies are "item#k").
    package static func item(_ name: String) -> String { name.split(separator: "#").first.map(String.init) ?? name }

    /// Splits `recordings` for `fold`. `clips` maps clip recording names to their clips; for personTalking the
    /// clips with voices are left out altogether (neither taught nor scored as negatives). `backgroundOf` maps an
    /// augmented copy to the item whose audio was mixed into it: a copy is trained on only when that item is
    /// neither scored nor in the inner validation part either. With `refit` (the model's trees train on the whole
    /// training part after the choice) the inner part's positive clips and the copies mixed with its items stay in
    /// `training`; the choosing fit leaves them out (`validationClips`, and ``ClassifierTraining`` by `backgroundOf`).
    package static func foldData(
        plan: CrossValidationPlan, fold: Int, label: String, recordings: [RecordingFeatures], clips: [String: TrainingClip],
        backgroundOf: [String: String] = [:], crossFitted: Bool = false, refit: Bool = false
    ) -> FoldData {
        // Cross-fitted choice: no inner part is held out; the trainer gets the inner folds instead.
        let inner = crossFitted ? [] : plan.innerValidation(outerFold: fold)
        var data = FoldData(training: [], validation: [], partlyLabelled: [], scored: [])
        for rec in recordings {
            let base = item(rec.name)
            let clip = clips[base]
            if let clip, clip.voices && SoundModelRecipe.of(label: label).ignoresVoiceBackground { continue }
            let positiveClip = clip.map { $0.label == label } ?? false
            if let f = plan.foldOf[base], f == fold {
                if base == rec.name { data.scored.append(rec) }
                continue
            }
            if let background = backgroundOf[rec.name], plan.foldOf[background] == fold || (!refit && inner.contains(background)) {
                continue
            }
            if inner.contains(base) {
                // Inner validation: not trained on before the choice; a positive clip (no onsets to score) is not
                // scored in it, and is left out unless the trees are trained again on everything.
                if positiveClip {
                    guard refit else { continue }
                    data.training.append(rec)
                    data.partlyLabelled.insert(base)
                    data.validationClips.insert(base)
                    continue
                }
                if base == rec.name { data.validation.insert(base) }
                data.training.append(rec)
                continue
            }
            data.training.append(rec)
            if positiveClip { data.partlyLabelled.insert(base) }
        }
        return data
    }

    /// Runs the cross-validation of `label`: for every fold, trains on its training part with every choice
    /// made on the inner validation part, then scores the fold at sensitivity 5. `annotations`: the
    /// development events (every label) and the activity events of the label's positive clips
    /// (``SoundModelTrainer/activityEvents(_:label:minimumActivity:)``). `devFiles`: the names scored with
    /// onsets. `backgroundOf`: the item mixed into each augmented copy (see ``foldData(plan:fold:label:recordings:clips:backgroundOf:)``).
    /// `scoredFeatures`: features to score instead of a recording's own (same name), e.g. of the recording resampled to
    /// a camera's rate; training never sees them. `progress` is told when each fold is done.
    package static func run(
        label: String, plan: CrossValidationPlan, recordings: [RecordingFeatures], annotations: [LabelEvent], devFiles: Set<String>,
        clips: [String: TrainingClip], voiceBackground: VoiceBackground, seed: UInt64, options: TrainingOptions,
        backgroundOf: [String: String] = [:], scoredFeatures: [String: RecordingFeatures] = [:],
        progress: (CrossValidationFold) -> Void = { _ in }
    ) -> CrossValidationReport {
        let ignoring: VoiceBackground = SoundModelRecipe.of(label: label).ignoresVoiceBackground ? voiceBackground : .none
        let crossFitted = options.decisionChoice == .outOfFold
        var folds: [CrossValidationFold] = []
        for k in 0..<plan.folds {
            var data = foldData(
                plan: plan, fold: k, label: label, recordings: recordings, clips: clips, backgroundOf: backgroundOf,
                crossFitted: crossFitted, refit: options.decisionChoice == .validationPartThenAll)
            // Scored on other features of the same recordings where given (e.g. the recordings resampled to 16 kHz).
            data.scored = data.scored.map { scoredFeatures[$0.name] ?? $0 }
            let (model, _) = SoundModelTrainer.train(
                label: label, recordings: data.training, annotations: annotations, validation: data.validation,
                voiceBackground: voiceBackground, seed: seed, options: options, partlyLabelled: data.partlyLabelled,
                choiceFolds: crossFitted ? plan.innerFolds(outerFold: k) : [], backgroundOf: backgroundOf,
                heldOutOfChoice: data.validationClips)
            var found: [String: [TrackedEvent]] = [:]
            for rec in data.scored { found[rec.name] = SoundModelTrainer.simulate(rec, model: model) }
            let dev = data.scored.filter { devFiles.contains($0.name) }
            let devAnnotations = annotations.filter { devFiles.contains($0.file) }
            let figures = SoundModelTrainer.score(
                label: label, found: found, recordings: dev, annotations: devAnnotations, ignoring: ignoring)
            var fold = CrossValidationFold(
                fold: k, devFiles: dev.count, event: figures.event, segment: figures.segment,
                devNegativeFalseAlarms: figures.negativeFalseAlarms, devNegativeHours: figures.negativeHours, positiveClips: 0,
                foundClips: 0, clipNegativeFalseAlarms: 0, clipNegativeHours: 0, model: model, foldSeed: plan.seed)
            for rec in data.scored {
                guard let clip = clips[rec.name] else { continue }
                let events = found[rec.name] ?? []
                if clip.label == label {
                    fold.positiveClips += 1
                    if !events.isEmpty { fold.foundClips += 1 }
                } else if clip.label == TrainingClip.negativeLabel {
                    fold.clipNegativeFalseAlarms += events.count
                    fold.clipNegativeHours += rec.duration / 3600
                }
            }
            progress(fold)
            folds.append(fold)
        }
        return CrossValidationReport(label: label, seed: plan.seed, folds: folds)
    }
}
