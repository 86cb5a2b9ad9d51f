import Foundation
import VigilCore
import VigilLearning
import VigilScoring

extension TrainCommand {
    /// Runs the grouped, nested cross-validation of `label` over the development files and clips in
    /// `recordings` (synthetic and extra recordings are training material of every fold). `clips` lists every
    /// clip of the folder, also those left out for this label, so that every label gets the same folds. Augmented copies
    /// (`copies` per development file) mix in an event-free development file of the same fold, so that no
    /// fold's audio reaches another fold's training part. Each fold's figures go to standard error as it ends.
    static func crossValidate(
        label: String, recordings: [RecordingFeatures], audio: [String: (samples: [Float], rate: Double)], devFiles: [String],
        provenance: [DevelopmentSet.SourceRow], annotations: [LabelEvent], durations: [String: Double], clips: [String: TrainingClip],
        voiceBackground: VoiceBackground, copies: Int, folds: Int, seed: UInt64, options: TrainingOptions, augment: Int = 0,
        scoredFeatures: [String: RecordingFeatures] = [:]
    ) -> CrossValidationReport {
        let items = CrossValidationPlan.items(
            devFiles: devFiles, provenance: provenance, annotations: annotations, durations: durations, clips: clips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: folds, seed: seed)
        var all = recordings
        var backgroundOf: [String: String] = [:]
        if augment > 0 {
            // Room copies: sound and background of the same fold, so that no fold's audio reaches another fold's
            // training part (and a copy whose background is in the inner validation part is not trained on).
            let copies = augmentedCopies(
                label: label, copies: augment, seed: seed, audio: audio, annotations: annotations, devFiles: devFiles, clips: clips,
                voiceBackground: voiceBackground, sameFold: { plan.foldOf[$0] == plan.foldOf[$1] })
            all += copies.recordings
            backgroundOf = copies.backgroundOf
        }
        if copies > 0 {
            let annotated = Set(annotations.map(\.file))
            var rng = SplitMix64(seed: seed)
            for name in devFiles {
                let fold = plan.foldOf[name]
                let pool = devFiles.filter { !annotated.contains($0) && !voiceBackground.files.contains($0) && plan.foldOf[$0] == fold }
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
                    all.append(SoundModelTrainer.extractFeatures(name: "\(name)#\(k)", samples: mixed, sampleRate: source.rate))
                }
            }
        }
        let started = Date()
        return CrossValidation.run(
            label: label, plan: plan, recordings: all, annotations: annotations, devFiles: Set(devFiles), clips: clips,
            voiceBackground: voiceBackground, seed: seed, options: options, backgroundOf: backgroundOf, scoredFeatures: scoredFeatures
        ) { fold in
            let f1 = SoundModelTrainer.defaults(for: label).segmentObjective ? fold.segment.f1 : fold.event.f1
            AnalyzeCommand.stderr(
                "\(label) fold \(fold.fold + 1)/\(folds): F1 \(DecimalText.fixed(f1, places: 3)), clip recall "
                    + "\(DecimalText.fixed(fold.clipRecall, places: 3)), false alarms \(fold.devNegativeFalseAlarms) on dev negatives, "
                    + "\(fold.clipNegativeFalseAlarms) on negative clips (\(Int(Date().timeIntervalSince(started))) s)")
        }
    }

    /// Room-augmented copies (``TrainingAugmentation/copies(of:copies:seed:audio:pool:)``) of the recordings of `label`
    /// among `devFiles` (those with an event of it) and `clips` (the label's clips). Backgrounds: development files with
    /// no event and negative clips (for personTalking neither voice-background files nor clips with voices), with
    /// `sameFold(item, background)`.
    static func augmentedCopies(
        label: String, copies: Int, seed: UInt64, audio: [String: (samples: [Float], rate: Double)], annotations: [LabelEvent],
        devFiles: [String], clips: [String: TrainingClip], voiceBackground: VoiceBackground, sameFold: (String, String) -> Bool
    ) -> (recordings: [RecordingFeatures], backgroundOf: [String: String]) {
        let annotated = Set(annotations.map(\.file))
        let withLabel = Set(annotations.filter { $0.label == label }.map(\.file))
        let talking = label == "personTalking"
        let items = devFiles.filter { withLabel.contains($0) } + clips.filter { $0.value.label == label }.keys.sorted()
        let backgrounds =
            devFiles.filter { !annotated.contains($0) && !(talking && voiceBackground.files.contains($0)) }
            + clips.filter { $0.value.label == TrainingClip.negativeLabel && !(talking && $0.value.voices) }.keys.sorted()
        let started = Date()
        let result = TrainingAugmentation.copies(of: items, copies: copies, seed: seed, audio: audio) { item in
            backgrounds.filter { sameFold(item, $0) }
        }
        AnalyzeCommand.stderr(
            "\(label): \(result.recordings.count) augmented copies of \(items.count) recordings (\(Int(Date().timeIntervalSince(started))) s)")
        return result
    }
}
