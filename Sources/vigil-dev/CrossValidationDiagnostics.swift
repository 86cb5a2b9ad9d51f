import ArgumentParser
import Foundation
import VigilCore
import VigilInference
import VigilScoring
import VigilTestSupport
import VigilTraining

/// Diagnostics of the cross-validation (development set + the clip-labelled training folder): runs the
/// folds as `vigil train --cross-validate` does (with the recipe's gain and negative-mix copies, `COPIES`
/// to change their number; without the music and the words), with the recipe changes of the
/// Diagnostics suite's environment (`ITER`, `POSW`, `ACT`, ...), and prints per fold what limits the
/// figures: the chosen decision, the scored fold's event F1 at the 0.5 s and a 1.0 s onset collar and
/// its segment F1, each scored event's peak probability, the scored negatives' peaks, and the fold's
/// F1 and false alarms at every threshold of the grid (an oracle curve: never used for a choice); with
/// `DETAIL=1`, at the chosen threshold and at 0.9, the categories of the negative clips with events, the
/// clips of the label found per source (the `group` column's text before its colon), and every scored event
/// missed, with the events found in its file.
/// Needs ../shared/data with its train/ folder; run it in a release build:
///
///     swift build -c release --product vigil-dev
///     .build/release/vigil-dev diagnose-cross-validation --labels dogBark --only-fold 2
struct CrossValidationDiagnostics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose-cross-validation",
        abstract: "Run the cross-validation folds of vigil train --cross-validate and print what limits each fold's figures.",
        discussion: "Recipe changes are the environment variables of diagnose (ITER, POSW, ACT, ...).")

    static let clipDirectory = DevData.clipDirectory

    @Option(help: "Labels to diagnose, comma-separated.")
    var labels = "dogBark"

    @Option(help: "Folds (K).")
    var folds = 5

    @Option(name: .customLong("only-fold"), help: "Only this fold (1-based).")
    var onlyFold: Int?

    func validate() throws {
        if folds < 2 || folds > 20 { throw ValidationError("--folds must be 2...20") }
        if let onlyFold, !(1...folds).contains(onlyFold) { throw ValidationError("--only-fold \(onlyFold): must be 1...\(folds)") }
    }

    func run() throws {
        try DevData.requireAvailable()
        let clipList = Self.clipDirectory.appendingPathComponent("clips.tsv")
        guard FileManager.default.fileExists(atPath: clipList.path) else {
            throw ValidationError("\(clipList.path) is missing: the clip-labelled training folder (../shared/data/train) is needed")
        }
        let env = ProcessInfo.processInfo.environment
        let started = Date()
        let dev = try DevData.load()
        let seed: UInt64 = 20_251_122
        let list = TrainingRun.joiningAlikeClips(
            try TrainingClips.parse(
                String(contentsOf: Self.clipDirectory.appendingPathComponent("clips.tsv"), encoding: .utf8), path: "clips.tsv"),
            audioPath: { Self.clipDirectory.appendingPathComponent("audio/\($0.filename)").path })
        var clips: [String: TrainingClip] = [:]
        for clip in list { clips[TrainingClip.namePrefix + clip.filename] = clip }
        var devRecordings = try DevData.features(dev.files)
        var devAudio: [String: (samples: [Float], rate: Double)] = [:]  // decoded when a label's recipe copies files
        for (name, samples) in SoundModelTrainer.syntheticNegatives(sampleRate: 44_100, seed: seed) {
            devRecordings.append(SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: 44_100))
        }
        var clipRecordings: [RecordingFeatures] = []
        for clip in list {
            let audio = try DevData.loadAudio(Self.clipDirectory.appendingPathComponent("audio/\(clip.filename)").path)
            clipRecordings.append(
                SoundModelTrainer.extractFeatures(
                    name: TrainingClip.namePrefix + clip.filename, samples: audio.samples, sampleRate: audio.sampleRate))
        }
        print("features in \(Int(Date().timeIntervalSince(started))) s")
        let items = CrossValidationPlan.items(
            devFiles: dev.files, provenance: dev.provenance, annotations: dev.annotations, durations: dev.durations, clips: clips)
        let plan = CrossValidationPlan(keys: items.keys, amounts: items.amounts, folds: folds, seed: seed)
        for label in labels.split(separator: ",").map(String.init) {
            let recipe = SoundModelRecipe.of(label: label)
            var options = Diagnostics.options(for: label, env)
            if env["ACT"] == nil { options.positiveActivity = TrainingOptions(label: label).positiveActivity }
            var recordings = devRecordings.filter { recipe.syntheticConfusers || !SoundModelTrainer.isSyntheticConfuser($0.name) }
            var annotations = dev.annotations
            var backgroundOf: [String: String] = [:]
            // The recipe's gain and negative-mix copies, each mixed with an event-free file of its own fold, as
            // `vigil train --cross-validate` makes them.
            let copies = env["COPIES"].flatMap(Int.init) ?? recipe.augmentedCopies
            if copies > 0 {
                if devAudio.isEmpty {
                    for file in dev.files {
                        let decoded = try DevData.loadAudio(DevData.devDirectory.appendingPathComponent("audio/\(file)").path)
                        devAudio[file] = (decoded.samples, decoded.sampleRate)
                    }
                }
                let augmented = TrainingRun.augmentedCopies(
                    of: dev.files, pool: dev.files, annotations: dev.annotations, voiceBackground: dev.voiceBackground, audio: devAudio,
                    copies: copies, seed: seed, sameFold: { plan.foldOf[$0] == plan.foldOf[$1] })
                recordings += augmented.recordings
                backgroundOf = augmented.backgroundOf
            }
            // Activity regions of the label's clips.
            var regionCount: [Int] = []
            var covered = 0.0
            var seconds = 0.0
            for rec in clipRecordings {
                let clip = clips[rec.name]!
                if clip.voices && recipe.ignoresVoiceBackground { continue }
                recordings.append(rec)
                if clip.label == label {
                    let events = SoundModelTrainer.activityEvents(rec, label: label, minimumActivity: options.positiveActivity)
                    annotations += events
                    regionCount.append(events.count)
                    covered += events.reduce(0) { $0 + $1.offset - $1.onset }
                    seconds += rec.duration
                }
            }
            print(
                "\(label): \(regionCount.count) clips, regions per clip: none \(regionCount.filter { $0 == 0 }.count), "
                    + "1: \(regionCount.filter { $0 == 1 }.count), 2-4: \(regionCount.filter { (2...4).contains($0) }.count), "
                    + "5+: \(regionCount.filter { $0 >= 5 }.count); active \(Int(covered)) of \(Int(seconds)) s")
            let ignoring: VoiceBackground = recipe.ignoresVoiceBackground ? dev.voiceBackground : .none
            let devSet = Swift.Set(dev.files)
            let segment = recipe.segmentObjective
            for k in 0..<folds {
                if let onlyFold, onlyFold != k + 1 { continue }
                let data = CrossValidation.foldData(
                    plan: plan, fold: k, label: label, recordings: recordings, clips: clips, backgroundOf: backgroundOf)
                let valEvents = annotations.filter { $0.label == label && data.validation.contains($0.file) }.count
                let (model, inner) = SoundModelTrainer.train(
                    label: label, recordings: data.training, annotations: annotations, validation: data.validation,
                    voiceBackground: dev.voiceBackground, seed: seed, options: options, partlyLabelled: data.partlyLabelled,
                    backgroundOf: backgroundOf)
                let d = model.decision
                print(
                    "fold \(k + 1): inner validation \(data.validation.count) recordings, \(valEvents) events, inner F1 "
                        + "\(fixed(segment ? inner.segment.f1 : inner.event.f1)) FA \(inner.negativeFalseAlarms) in "
                        + "\(fixed(inner.negativeHours)) h; chosen threshold \(d.threshold) gap \(d.mergeGapSeconds) onset "
                        + "\(d.onsetActivity ?? -1) min \(d.minActiveDecisions) split \(d.splitPauseSeconds ?? -1)/\(d.splitActivity)")
                let dev = data.scored.filter { devSet.contains($0.name) }
                let devAnnotations = annotations.filter { devSet.contains($0.file) }
                let probs = Dictionary(
                    uniqueKeysWithValues: data.scored.map { ($0.name, SoundModelTrainer.probabilities($0, model: model)) })
                // The scored events' peak probabilities.
                var peaks: [Float] = []
                for e in devAnnotations where e.label == label {
                    guard let rec = dev.first(where: { $0.name == e.file }), let p = probs[rec.name] else { continue }
                    let inside = rec.centerTimes.indices.filter {
                        rec.centerTimes[$0] >= e.onset - 0.2 && rec.centerTimes[$0] <= e.offset + 0.2
                    }
                    peaks.append(inside.map { p[$0] }.max() ?? 0)
                }
                let annotated = Swift.Set(devAnnotations.map(\.file))
                let negativePeaks = data.scored.filter {
                    !annotated.contains($0.name) && (clips[$0.name].map { $0.label == TrainingClip.negativeLabel } ?? true)
                }.map { probs[$0.name]!.max() ?? 0 }
                func histogram(_ x: [Float]) -> String {
                    [0.5, 0.9, 0.95, 0.99].map { t in "\(x.filter { $0 >= Float(t) }.count)>=\(t)" }.joined(separator: " ")
                }
                print(
                    "  scored events \(peaks.count): peaks \(histogram(peaks)); negatives \(negativePeaks.count): peaks \(histogram(negativePeaks))"
                )
                for t in [d.threshold, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98] {
                    var decision = d
                    decision.threshold = t
                    var found: [String: [TrackedEvent]] = [:]
                    for rec in data.scored {
                        found[rec.name] = SoundModelTrainer.simulate(
                            rec, classifier: model.classifier, decision: decision, probabilities: probs[rec.name]!)
                    }
                    let f = SoundModelTrainer.score(
                        label: label, found: found, recordings: dev, annotations: devAnnotations, ignoring: ignoring)
                    var wide = EventBasedMetrics(labels: [label], tCollar: 1.0, evaluateOnset: true, evaluateOffset: false)
                    let refByFile = Dictionary(grouping: devAnnotations.filter { $0.label == label }, by: \.file)
                    for rec in dev {
                        let est = (found[rec.name] ?? []).map {
                            LabelEvent(file: rec.name, onset: $0.onset, offset: $0.offset, label: label)
                        }
                        try wide.evaluate(reference: refByFile[rec.name] ?? [], estimated: est)
                    }
                    let w = LabelFigures(wide.results(), label: label)
                    let clipFA = data.scored.filter { clips[$0.name]?.label == TrainingClip.negativeLabel }.reduce(0) {
                        $0 + (found[$1.name]?.count ?? 0)
                    }
                    if env["DETAIL"] != nil, t == 0.9 || t == d.threshold {
                        var byCategory: [String: Int] = [:]
                        for rec in data.scored {
                            guard let clip = clips[rec.name], clip.label == TrainingClip.negativeLabel else { continue }
                            let n = found[rec.name]?.count ?? 0
                            if n > 0 { byCategory[clip.category, default: 0] += n }
                        }
                        print(
                            "    clip false alarms by category: \(byCategory.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
                        )
                        var bySource: [String: (found: Int, clips: Int)] = [:]
                        for rec in data.scored {
                            guard let clip = clips[rec.name], clip.label == label else { continue }
                            bySource[clip.sourceName, default: (0, 0)].clips += 1
                            if !(found[rec.name] ?? []).isEmpty { bySource[clip.sourceName]!.found += 1 }
                        }
                        print(
                            "    clips of the label found by source: \(bySource.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.found)/\($0.value.clips)" }.joined(separator: ", "))"
                        )
                        for e in devAnnotations where e.label == label {
                            guard let events = found[e.file] else { continue }  // the file is in another fold
                            if !events.contains(where: { abs($0.onset - e.onset) <= 0.5 }) {
                                let near = events.map {
                                    "\(DecimalText.fixed($0.onset, places: 2))-\(DecimalText.fixed($0.offset, places: 2))"
                                }
                                print(
                                    "    missed \(e.file) \(DecimalText.fixed(e.onset, places: 2))-\(DecimalText.fixed(e.offset, places: 2)); found \(near.joined(separator: " "))"
                                )
                            }
                        }
                    }
                    let positives = data.scored.filter { clips[$0.name]?.label == label }
                    let clipFound = positives.filter { !(found[$0.name] ?? []).isEmpty }.count
                    print(
                        "  threshold \(t): event F1 \(fixed(f.event.f1)) (P \(fixed(f.event.precision)) R \(fixed(f.event.recall))), collar 1 s "
                            + "\(fixed(w.f1)), segment F1 \(fixed(f.segment.f1)) (P \(fixed(f.segment.precision)) R \(fixed(f.segment.recall))), "
                            + "dev FA \(f.negativeFalseAlarms), clip FA \(clipFA), clips found \(clipFound)/\(positives.count)")
                }
            }
        }
        print("done in \(Int(Date().timeIntervalSince(started))) s")
    }

    func fixed(_ x: Double) -> String { DecimalText.fixed(x, places: 3) }
}
