import Foundation
import VigilCore
import VigilScoring
import VigilTraining

extension TrainCommand {
    /// Runs the grouped, nested cross-validation of `label` over the development files and clips in
    /// `recordings` (synthetic and extra recordings are training material of every fold). `clips` lists every
    /// clip of the folder, also those left out for this label, so that every label gets the same folds. Augmented copies
    /// (`copies` per development file) mix in an event-free development file of the same fold, so that no
    /// fold's audio reaches another fold's training part. Each fold's figures go to standard error as it ends.
    static func crossValidate(
        label: String, recordings: [RecordingFeatures], audio: [String: (samples: [Float], rate: Double)], devFiles: [String],
        provenance: [DevelopmentSet.SourceRow], annotations: [LabelEvent], durations: [String: Double], clips: [String: TrainingClip],
        voiceBackground: VoiceBackground, copies: Int, folds: Int, seed: UInt64, options: TrainingOptions
    ) -> CrossValidationReport {
        let items = CrossValidationPlan.items(
            devFiles: devFiles, provenance: provenance, annotations: annotations, durations: durations, clips: clips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: folds, seed: seed)
        var all = recordings
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
            voiceBackground: voiceBackground, seed: seed, options: options
        ) { fold in
            let f1 = SoundModelTrainer.defaults(for: label).segmentObjective ? fold.segment.f1 : fold.event.f1
            AnalyzeCommand.stderr(
                "\(label) fold \(fold.fold + 1)/\(folds): F1 \(DecimalText.fixed(f1, places: 3)), clip recall "
                    + "\(DecimalText.fixed(fold.clipRecall, places: 3)), false alarms \(fold.devNegativeFalseAlarms) on dev negatives, "
                    + "\(fold.clipNegativeFalseAlarms) on negative clips (\(Int(Date().timeIntervalSince(started))) s)")
        }
    }
}
