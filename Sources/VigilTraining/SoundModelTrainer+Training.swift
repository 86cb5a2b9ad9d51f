import VigilCore
import VigilDSP
import VigilInference
import VigilScoring

/// The decisions one classifier of a label is trained on: for every recording, each decision's target
/// (inside an event of the label or not) and weight (0 where the decision is left out), and the
/// classifier the recipe asks for, trained on them.
package struct ClassifierTraining {
    /// A trained classifier and how many decisions trained it.
    package struct Fit {
        /// The classifier.
        package var classifier: SoundClassifier
        /// Decisions of the recordings it was trained on (weight 0 included).
        package var decisions: Int
        /// Of those, the ones inside an event of the label.
        package var positives: Int
    }

    let recordings: [RecordingFeatures]
    let eventsByFile: [String: [LabelEvent]]
    let options: TrainingOptions
    /// Where voices are neither taught nor scored as "not personTalking".
    let ignored: VoiceBackground
    let partlyLabelled: Set<String>
    let backgroundOf: [String: String]
    let seed: UInt64

    /// The training of one label's classifier on `recordings`: `eventsByFile` holds that label's events (clip
    /// activity regions included) by file; `ignored`, where voices are neither positives nor negatives;
    /// `partlyLabelled`, the recordings whose decisions outside their events are left out; `backgroundOf`, the item
    /// mixed into each augmented copy.
    package init(
        recordings: [RecordingFeatures], eventsByFile: [String: [LabelEvent]], options: TrainingOptions, ignored: VoiceBackground,
        partlyLabelled: Set<String>, backgroundOf: [String: String], seed: UInt64
    ) {
        self.recordings = recordings
        self.eventsByFile = eventsByFile
        self.options = options
        self.ignored = ignored
        self.partlyLabelled = partlyLabelled
        self.backgroundOf = backgroundOf
        self.seed = seed
    }

    /// The classifier trained on the recordings outside `excluded` (base names), and on no copy of an item in it
    /// or of a background in it.
    package func fit(excluding excluded: Set<String>) -> Fit {
        var features: [Float] = []
        var sequences: [TemporalConvolutionalNetworkTrainer.Sequence] = []
        var allTargets: [Float] = []
        var allWeights: [Float] = []
        var positives = 0
        var decisions = 0
        for rec in recordings
        where !excluded.contains(CrossValidation.item(rec.name)) && !(backgroundOf[rec.name].map { excluded.contains($0) } ?? false) {
            let (targets, weights) = targetsAndWeights(rec)
            positives += targets.reduce(0) { $0 + Int($1) }
            if options.classifier.trainsTrees {
                features.append(contentsOf: rec.matrix)
                allTargets += targets
                allWeights += weights
            }
            if options.classifier.trainsNetwork {
                sequences.append(.init(inputs: rec.networkInputs, targets: targets, weights: weights))
            }
            decisions += targets.count
        }
        let trees =
            options.classifier.trainsTrees
            ? GradientBoostedTreesTrainer.train(
                features: features, dimension: FeatureSpec.current.dimension, targets: allTargets, weights: allWeights,
                ignoredInputs: options.ignoredInputs, options: options.trees) : nil
        let network =
            options.classifier.trainsNetwork
            ? TemporalConvolutionalNetworkTrainer.train(sequences: sequences, options: options.network, seed: seed) : nil
        let classifier: SoundClassifier
        switch (trees, network) {
        case (let t?, let n?): classifier = .treesAndNetwork(t, n)
        case (nil, let n?): classifier = .network(n)
        case (let t?, nil): classifier = .trees(t)
        case (nil, nil): preconditionFailure("a classifier choice trains trees, a network or both")
        }
        return Fit(classifier: classifier, decisions: decisions, positives: positives)
    }

    /// Each decision's target (1 inside an event of the label) and weight: 0 near an annotated boundary
    /// (within ``TrainingOptions/boundaryMargin``), for a positive whose nearby frames never rise
    /// ``TrainingOptions/positiveActivity`` over the background, and for a negative in a voice background or
    /// in a partly labelled recording; ``TrainingOptions/negativeClipWeight`` for a negative clip's decisions;
    /// ``TrainingOptions/developmentPositiveWeight`` for a positive outside the clip folder; otherwise 1.
    package func targetsAndWeights(_ rec: RecordingFeatures) -> (targets: [Float], weights: [Float]) {
        // An augmented copy ("file#k", "file#aK") shares its item's annotations.
        let name = CrossValidation.item(rec.name)
        let events = eventsByFile[name] ?? []
        let isClip = rec.name.hasPrefix(TrainingClip.namePrefix)
        let isNegativeClip = events.isEmpty && isClip && !partlyLabelled.contains(name)
        let positiveWeight = isClip ? 1 : options.developmentPositiveWeight
        var targets: [Float] = []
        var weights: [Float] = []
        targets.reserveCapacity(rec.centerTimes.count)
        weights.reserveCapacity(rec.centerTimes.count)
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
            let ignoredNegative = !positive && (ignored.contains(file: name, time: t) || partlyLabelled.contains(name))
            let weight = positive ? positiveWeight : (isNegativeClip ? options.negativeClipWeight : 1)
            weights.append(!ignoredNegative && !nearBoundary && !inactivePositive ? weight : 0)
        }
        return (targets, weights)
    }
}

/// Training a model: the classifier, then the decision (smoothing, threshold, sensitivity step) chosen on
/// held-out probabilities.
extension SoundModelTrainer {
    /// Trains the model of `label` on the recordings outside `validation`, picks the sensitivity-5
    /// threshold on the validation recordings, and returns the model and its validation figures.
    ///
    /// - Parameters:
    ///   - recordings: features of every development recording (``extractFeatures(name:samples:sampleRate:)``), in a fixed order.
    ///   - annotations: all events (every label).
    ///   - validation: names of the validation part's recordings (``CrossValidation/foldData(plan:fold:label:recordings:clips:backgroundOf:crossFitted:refit:)``).
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
    ///   - heldOutOfChoice: recordings (base names) that the fit choosing the decision leaves out as it leaves out
    ///     `validation`, without scoring them there (the inner validation part's clips of the label).
    ///
    /// With ``TrainingOptions/DecisionChoice/validationPartThenAll`` the model's trees are trained again on every
    /// recording after the choice, and keep the decision chosen.
    package static func train(
        label: String, recordings: [RecordingFeatures], annotations: [LabelEvent], validation: Set<String>,
        voiceBackground: VoiceBackground, seed: UInt64, options: TrainingOptions = TrainingOptions(),
        metadata: [(String, JSONValue)] = [], verbose: Bool = false, partlyLabelled: Set<String> = [],
        choiceFolds: [Set<String>] = [], backgroundOf: [String: String] = [:], heldOutOfChoice: Set<String> = []
    ) -> (model: SoundModel, figures: ValidationFigures) {
        let recipe = SoundModelRecipe.of(label: label)
        // Voices in the background are neither taught nor scored as "not personTalking".
        let ignored: VoiceBackground = recipe.ignoresVoiceBackground ? voiceBackground : .none
        var options = options
        if options.ignoredInputs.isEmpty { options.ignoredInputs = ignoredInputs(for: label) }
        let training = ClassifierTraining(
            recordings: recordings, eventsByFile: Dictionary(grouping: annotations.filter { $0.label == label }, by: \.file),
            options: options, ignored: ignored, partlyLabelled: partlyLabelled, backgroundOf: backgroundOf, seed: seed)
        let crossFitted = !choiceFolds.isEmpty
        let validation = crossFitted ? Set(choiceFolds.joined()).subtracting(partlyLabelled) : validation
        let valRecs = recordings.filter { validation.contains($0.name) }
        let refit = !crossFitted && options.decisionChoice.trainsOnEverything
        var fit: ClassifierTraining.Fit
        let cached: [[Float]]
        if crossFitted {
            // Out-of-fold probabilities of every choice set, then the classifier on everything.
            var probabilityOf: [String: [Float]] = [:]
            for set in choiceFolds {
                let inner = training.fit(excluding: set).classifier
                for rec in valRecs where set.contains(rec.name) { probabilityOf[rec.name] = probabilities(rec, classifier: inner) }
            }
            cached = valRecs.map { probabilityOf[$0.name]! }
            fit = training.fit(excluding: [])
        } else {
            fit = training.fit(excluding: validation.union(heldOutOfChoice))
            cached = valRecs.map { probabilities($0, classifier: fit.classifier) }
        }
        let results = decisionGrid(
            label: label, validation: valRecs, classifier: fit.classifier, probabilities: cached, annotations: annotations,
            ignoring: ignored)
        if verbose { printBest(results) }
        let chosen = chooseDecision(results, segmentObjective: recipe.segmentObjective)
        if refit { fit = training.fit(excluding: []) }
        let trainingFileCount =
            recordings.filter {
                (crossFitted || refit || !validation.contains(CrossValidation.item($0.name))) && !$0.name.contains("#")
            }.count
        let record: JSONValue = .object(
            JSONObject(
                [
                    ("seed", .number(Double(seed))), ("trainingDecisions", .number(Double(fit.decisions))),
                    ("trainingPositives", .number(Double(fit.positives))),
                    ("trainingFiles", .number(Double(trainingFileCount))),
                    ("augmentedCopies", .number(Double(recordings.filter { $0.name.contains("#") }.count))),
                    ("validationFiles", .number(Double(valRecs.count))),
                ] + (crossFitted ? [("decisionChosenOn", .string("out-of-fold probabilities of \(choiceFolds.count) sets"))] : [])
                    + (refit ? [("decisionChosenOn", .string(chosenBeforeRetraining))] : [])
                    + classifierSettings(options) + [("validation", validationRecord(chosen.figures))] + metadata))
        let model = SoundModel(label: label, modelVersion: 2, classifier: fit.classifier, decision: chosen.decision, training: record)
        return (model, chosen.figures)
    }

    /// The model file's `decisionChosenOn` when the decision was chosen on the validation part and the trees were then
    /// trained on every recording (``TrainingOptions/DecisionChoice/validationPartThenAll``).
    package static let chosenBeforeRetraining = "the validation part, with the trees then trained on every recording"

    /// One setting of the decision grid and how it scored on the held-out recordings.
    struct DecisionCandidate {
        var decision: DecisionParameters
        var objective: Double
        var figures: ValidationFigures
    }

    /// Every decision setting of the label's grid (merge gaps, onset refinements, decisions needed, splits at
    /// pauses, thresholds) scored on `validation` with the `probabilities` of `classifier` (or of classifiers of
    /// its kind trained without them).
    static func decisionGrid(
        label: String, validation: [RecordingFeatures], classifier: SoundClassifier, probabilities: [[Float]], annotations: [LabelEvent],
        ignoring: VoiceBackground
    ) -> [DecisionCandidate] {
        let setup = defaults(for: label)
        let recipe = SoundModelRecipe.of(label: label)
        var results: [DecisionCandidate] = []
        // A network's probabilities crowd near 0 and 1 more than the trees' do: its grid reaches further up.
        let thresholds =
            [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99]
            + (classifier.network != nil ? [0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999] : [])
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
                            for (i, rec) in validation.enumerated() {
                                found[rec.name] = simulate(rec, classifier: classifier, decision: decision, probabilities: probabilities[i])
                            }
                            let fig = score(
                                label: label, found: found, recordings: validation, annotations: annotations, ignoring: ignoring)
                            results.append(
                                .init(decision: decision, objective: objective(fig, segmentObjective: setup.segmentObjective), figures: fig)
                            )
                        }
                    }
                }
            }
        }
        return results
    }

    /// The decision of the grid's best setting, at the middle of that setting's near-best thresholds (objective
    /// within 0.01 of the best), with the sensitivity step from that setting's F1 at every threshold.
    static func chooseDecision(_ results: [DecisionCandidate], segmentObjective: Bool) -> DecisionCandidate {
        let best = results.max { $0.objective < $1.objective }!
        // The best setting's results at every threshold.
        let setting = results.filter {
            $0.decision.mergeGapSeconds == best.decision.mergeGapSeconds && $0.decision.onsetActivity == best.decision.onsetActivity
                && $0.decision.minActiveDecisions == best.decision.minActiveDecisions
                && $0.decision.splitPauseSeconds == best.decision.splitPauseSeconds
                && $0.decision.splitActivity == best.decision.splitActivity
        }
        let same = setting.filter { $0.objective >= best.objective - 0.01 }
        var chosen = same[same.count / 2]
        // Sensitivity: level 10 reaches at least the setting's most sensitive useful threshold.
        chosen.decision.sensitivityLogitStep = sensitivityStep(
            threshold: chosen.decision.threshold,
            candidates: setting.map { ($0.decision.threshold, segmentObjective ? $0.figures.segment.f1 : $0.figures.event.f1) })
        return chosen
    }

    /// The model file's record of the chosen decision's validation figures.
    static func validationRecord(_ figures: ValidationFigures) -> JSONValue {
        .object(
            JSONObject([
                ("eventF1Collar0.5s", .number(round4(figures.event.f1))),
                ("eventPrecision", .number(round4(figures.event.precision))),
                ("eventRecall", .number(round4(figures.event.recall))),
                ("eventF1SedEvalDefault", .number(round4(figures.eventSedEvalDefault.f1))),
                ("segmentF1_1s", .number(round4(figures.segment.f1))),
                ("negativeFalseAlarms", .number(Double(figures.negativeFalseAlarms))),
                ("negativeHours", .number(round4(figures.negativeHours))),
            ]))
    }

    /// Prints the 25 best settings of the grid (`vigil-dev diagnose` with `GRID=1`).
    static func printBest(_ results: [DecisionCandidate]) {
        for r in results.sorted(by: { $0.objective > $1.objective }).prefix(25) {
            let d = r.decision
            let f = r.figures
            print(
                "  gap \(d.mergeGapSeconds) act \(d.onsetActivity ?? -1) min \(d.minActiveDecisions) split \(d.splitPauseSeconds ?? -1)/\(d.splitActivity) thr \(d.threshold): eventF1 \(round4(f.event.f1)) (TP \(f.event.truePositives) FP \(f.event.falsePositives) FN \(f.event.falseNegatives)) segF1 \(round4(f.segment.f1)) FA \(f.negativeFalseAlarms)"
            )
        }
    }
}
