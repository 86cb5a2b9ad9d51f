import ArgumentParser
import Foundation
import VigilCore
import VigilInference
import VigilScoring
import VigilTestSupport
import VigilTraining

/// Development diagnostics: trains a label's model on the training part exactly as the shipped
/// recipe does (``DevData/shippedOptions(for:)``, its augmented variants and copies, seed 20251122),
/// unless the environment changes one setting, and prints the validation figures (frame AUC, event
/// and segment F1, false alarms) with whatever detail is asked for. Needs the development data;
/// run it in a release build (docs/sound-models.md, "Diagnostics"):
///
///     swift build -c release --product vigil-dev
///     LABELS=dogBark PEREV=1 .build/release/vigil-dev diagnose
///
/// Settings: `LABELS` (comma-separated), `SEED`, `COPIES` and `LOWSNR` (augmented copies made),
/// `VARIANTS` (which copies a run trains on: `k`, `s`, `-` for none), `ITER`, `LR`, `LEAVES`,
/// `MINLEAF`, `L2`, `DEPTH`, `BINS`, `POSW` (the trees), `ACT` (``TrainingOptions/positiveActivity``),
/// `MARGIN` (``TrainingOptions/boundaryMargin``), `NEGW` (``TrainingOptions/negativeClipWeight``), `DEVPOSW`
/// (``TrainingOptions/developmentPositiveWeight``), `ROWS` and `COLS`
/// (``TreeTrainingOptions/rowSubsample`` and ``TreeTrainingOptions/inputSubsample``), `IGNORE` (input names the trees must not split on,
/// comma-separated prefixes, or exact names ending in `$`), `NOSYN=1` (no synthetic negatives), `NOMUSIC=1` (not the rendered music of dogBark's recipe),
/// `NOWORDS=1` (not the generated words of personTalking's recipe), `EXTRA=dir`
/// (every audio file in the folder as an extra training negative; `EXTRAGAIN` scales them),
/// `RESAMPLE=0.84,1.19` (resampled copies of the training files; `RSCOPE=dog`, `speech` or `glass` for the
/// files with that label only, `RPREFIX=iso_speech` for names with that prefix only). Output: `GRID=1` the best decision settings, `VERBOSE=1` validation files with errors,
/// `PEREV=1` each validation event's peak probability, `BIAS=1` onset and offset errors per part,
/// `LEADS=0,0.02,...` figures at other onset leads, `SENS=1` figures at every sensitivity level, `TRACE=file:t0:t1` probabilities,
/// `ONSETS=1.5/0.375,-,...`, `SPLITS=0.5/0.7,-,...` and `GAPS=0.3,...` figures with other onset refinements, splitting at
/// pauses and merge gaps on the validation part and on the training part's own files, `SAVE=dir` writes the model; `EVALDIR=dir` counts the events reported on every audio file in a folder, taken as negatives,
/// at sensitivity 5 to 10 (with `EVALLABELS=tsv` it also scores the folder's .wav files against those labels);
/// `EXTRAPOS=dir` with `EXTRAPOSLABELS=tsv` adds labelled recordings (.wav) to the training part; `PRINTVAL=1` lists the validation files;
/// `SALT=text` draws another validation part (the same rules with another salt); `CROSSFIT=1` prints cross-fitted
/// figures over the whole development set (each training half scored by a model trained on everything else).
struct Diagnostics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "Train a label's model on the training part with one setting changed and print its validation figures.",
        discussion:
            "The settings and outputs are environment variables: LABELS, SEED, COPIES, ITER, PEREV, GRID, ... (see the source's summary).")

    static func auc(_ scores: [Float], _ labels: [Bool]) -> Double {
        let idx = scores.indices.sorted { scores[$0] < scores[$1] }
        var rankSum = 0.0
        var pos = 0.0
        for (r, i) in idx.enumerated() where labels[i] {
            rankSum += Double(r + 1)
            pos += 1
        }
        let neg = Double(scores.count) - pos
        return pos == 0 || neg == 0 ? 0 : (rankSum - pos * (pos + 1) / 2) / (pos * neg)
    }

    /// The shipped recipe of `label` with the environment's changes.
    static func options(for label: String, _ env: [String: String]) -> TrainingOptions {
        var options = DevData.shippedOptions(for: label)
        if let v = env["ITER"].flatMap(Int.init) { options.trees.iterations = v }
        if let v = env["LR"].flatMap(Float.init) { options.trees.learningRate = v }
        if let v = env["LEAVES"].flatMap(Int.init) { options.trees.maxLeaves = v }
        if let v = env["MINLEAF"].flatMap(Int.init) { options.trees.minSamplesPerLeaf = v }
        if let v = env["L2"].flatMap(Double.init) { options.trees.l2 = v }
        if let v = env["DEPTH"].flatMap(Int.init) { options.trees.maxDepth = v }
        if let v = env["BINS"].flatMap(Int.init) { options.trees.maxBins = v }
        if let v = env["POSW"].flatMap(Float.init) { options.trees.maxPositiveWeight = v }
        if let v = env["ACT"].flatMap(Float.init) { options.positiveActivity = v }
        if let v = env["MARGIN"].flatMap(Double.init) { options.boundaryMargin = v }
        if let v = env["NEGW"].flatMap(Float.init) { options.negativeClipWeight = v }
        if let v = env["DEVPOSW"].flatMap(Float.init) { options.developmentPositiveWeight = v }
        if let v = env["ROWS"].flatMap(Double.init) { options.trees.rowSubsample = v }
        if let v = env["COLS"].flatMap(Double.init) { options.trees.inputSubsample = v }
        if let names = env["IGNORE"] {
            let all = FeatureSpec.current.componentNames
            let patterns = names.split(separator: ",")
            options.ignoredInputs =
                SoundModelTrainer.ignoredInputs(for: label)
                + all.indices.filter { i in
                    patterns.contains { $0.hasSuffix("$") ? all[i] == String($0.dropLast()) : all[i].hasPrefix(String($0)) }
                }
            print("ignoring \(options.ignoredInputs.map { all[$0] })")
        }
        return options
    }

    func run() throws {
        try DevData.requireAvailable()
        let env = ProcessInfo.processInfo.environment
        let started = Date()
        var dev = try DevData.load()
        if let salt = env["SALT"] {
            // Another validation part, drawn as the shipped one is but with another salt (the
            // augmented copies follow it): how much the figures depend on which files are held out.
            dev.validation = DevelopmentSet.validationFiles(
                provenance: dev.provenance, files: dev.files, annotations: dev.annotations, durations: dev.durations, salt: salt)
            for label in ["dogBark", "glassBreak", "personTalking"] {
                let all = dev.annotations.filter { $0.label == label }
                print(
                    "split \(salt) \(label): \(all.filter { dev.validation.contains($0.file) }.count) of \(all.count) events in validation")
            }
        }
        let seed = env["SEED"].flatMap(UInt64.init) ?? 20_251_122
        var allRecordings = try DevData.trainingFeatures(
            dev, copies: env["COPIES"].flatMap(Int.init) ?? DevData.shippedCopies.copies,
            lowSNRCopies: env["LOWSNR"].flatMap(Int.init) ?? DevData.shippedCopies.lowSNRCopies, seed: seed)
        var annotations = dev.annotations
        if let factors = env["RESAMPLE"] {
            let extra = try DevData.resampledVariants(
                dev, factors: factors.split(separator: ",").compactMap { Double($0) },
                onlyLabel: ["dog": "dogBark", "speech": "personTalking", "glass": "glassBreak"][env["RSCOPE"] ?? ""],
                prefix: env["RPREFIX"] ?? "")
            allRecordings += extra.recordings
            annotations += extra.annotations
        }
        if let dir = env["EXTRA"] {
            // Extra negative recordings (every audio file in the folder), always in the training part.
            let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".wav") || $0.hasSuffix(".flac") }
                .sorted()
            for name in names {
                let audio = try DevData.loadAudio("\(dir)/\(name)")
                let gain = Float(env["EXTRAGAIN"].flatMap(Double.init) ?? 1)
                allRecordings.append(
                    SoundModelTrainer.extraNegativeFeatures(
                        name: name, samples: audio.samples.map { $0 * gain }, sampleRate: audio.sampleRate))
            }
            print("extra negatives: \(names.count) files from \(dir)")
        }
        if let dir = env["EXTRAPOS"], let labelsPath = env["EXTRAPOSLABELS"] {
            // Extra labeled recordings (every .wav in the folder, events from a labels TSV with the
            // folder's file names), always in the training part: recordings from other sources.
            let extraLabels = DevelopmentSet.parseLabels(try String(contentsOfFile: labelsPath, encoding: .utf8))
            let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".wav") }.sorted()
            for name in names {
                let audio = try DevData.loadAudio("\(dir)/\(name)")
                allRecordings.append(
                    SoundModelTrainer.extraPositiveFeatures(name: "extra/\(name)", samples: audio.samples, sampleRate: audio.sampleRate))
            }
            annotations += SoundModelTrainer.extraPositiveEvents(
                extraLabels.map { LabelEvent(file: "extra/\($0.file)", onset: $0.onset, offset: $0.offset, label: $0.label) })
            print("extra labeled recordings: \(names.count) files, \(extraLabels.count) events from \(dir)")
        }
        if env["PRINTVAL"] == "1" { print("validation files: \(dev.validation.sorted().joined(separator: " "))") }
        print("features in \(Date().timeIntervalSince(started)) s")
        let meta = try DevData.text("files_meta.tsv").split(separator: "\n").reduce(into: [String: String]()) {
            let f = $1.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count > 2 { $0[String(f[0])] = String(f[2]) }
        }
        for label in (env["LABELS"] ?? "dogBark,glassBreak,personTalking").split(separator: ",").map(String.init) {
            let options = Self.options(for: label, env)
            let variants = env["VARIANTS"].map { Swift.Set($0.split(separator: ",").map(String.init).filter { $0 != "-" }) }
            // The shipped recipe's extra negatives (dogBark: the rendered music), unless NOMUSIC=1.
            // The shipped recipe's extra labeled recordings (personTalking: the generated words), unless NOWORDS=1.
            let positives: (recordings: [RecordingFeatures], annotations: [LabelEvent]) =
                env["NOWORDS"] == "1" ? ([], []) : try DevData.extraPositives(for: label)
            let annotations: [LabelEvent] = annotations + positives.annotations
            var recordings =
                DevData.recordings(for: label, allRecordings, variants: variants)
                + (env["NOMUSIC"] == "1" ? [] : try DevData.extraNegatives(for: label)) + positives.recordings
            if env["NOSYN"] == "1" { recordings = recordings.filter { !$0.name.hasPrefix("synthetic-") } }
            let trainingStarted = Date()
            let (trained, fig) = SoundModelTrainer.train(
                label: label, recordings: recordings, annotations: annotations, validation: dev.validation,
                voiceBackground: dev.voiceBackground, seed: seed, options: options, verbose: env["GRID"] == "1")
            var model = trained
            let ignoring: VoiceBackground = label == "personTalking" ? dev.voiceBackground : .none
            var tr: ([Float], [Bool]) = ([], [])
            var va: ([Float], [Bool]) = ([], [])
            for rec in recordings where !rec.name.contains("#") && !rec.name.contains("@") {
                let ev = annotations.filter { $0.file == rec.name && $0.label == label }
                let p = SoundModelTrainer.probabilities(rec, model: model)
                for (i, t) in rec.centerTimes.enumerated() {
                    let y = ev.contains { t >= $0.onset && t <= $0.offset }
                    if dev.validation.contains(rec.name) {
                        va.0.append(p[i])
                        va.1.append(y)
                    } else {
                        tr.0.append(p[i])
                        tr.1.append(y)
                    }
                }
            }
            print(
                String(
                    format:
                        "%@: AUC train %.3f val %.3f | eventF1 %.3f (TP %d FP %d FN %d) segF1 %.3f (TP %d FP %d FN %d) FA %d thr %.2f [%.0f s]",
                    label, Self.auc(tr.0, tr.1), Self.auc(va.0, va.1), fig.event.f1, fig.event.truePositives,
                    fig.event.falsePositives, fig.event.falseNegatives, fig.segment.f1, fig.segment.truePositives,
                    fig.segment.falsePositives, fig.segment.falseNegatives, fig.negativeFalseAlarms, model.decision.threshold,
                    Date().timeIntervalSince(trainingStarted)))
            if let spec = env["BOUT"] {
                // The model with a bout continuation `seconds/threshold` ("-": none) for everything below.
                let v = spec.split(separator: "/").map { Double($0) }
                model.decision.boutSeconds = v.first ?? nil
                if v.count > 1, let b = v[1] { model.decision.boutThreshold = b }
            }
            print("  decision: \(model.decision)")
            let valRecs = recordings.filter { dev.validation.contains($0.name) }
            if env["VERBOSE"] == "1" {
                for rec in valRecs {
                    let events = SoundModelTrainer.simulate(rec, model: model)
                    let ref = annotations.filter { $0.file == rec.name && $0.label == label }
                    let c = SoundModelTrainer.score(label: label, found: [rec.name: events], recordings: [rec], annotations: ref).event
                    if c.falsePositives > 0 || c.falseNegatives > 0 {
                        print(
                            "  \(rec.name) [\(meta[rec.name] ?? "?")] TP \(c.truePositives) FP \(c.falsePositives) FN \(c.falseNegatives) ref \(ref.map { String(format: "%.2f-%.2f", $0.onset, $0.offset) }) est \(events.map { String(format: "%.2f-%.2f(%.2f)", $0.onset, $0.offset, $0.peakProbability) })"
                        )
                    }
                }
            }
            if let leads = env["LEADS"] {
                for lead in leads.split(separator: ",").compactMap({ Double($0) }) {
                    var m = model
                    m.decision.onsetLeadSeconds = lead
                    var found: [String: [TrackedEvent]] = [:]
                    for rec in valRecs { found[rec.name] = SoundModelTrainer.simulate(rec, model: m) }
                    let f = SoundModelTrainer.score(
                        label: label, found: found, recordings: valRecs, annotations: annotations, ignoring: ignoring)
                    print(
                        String(
                            format: "  lead %.3f: eventF1 %.3f segF1 %.3f (TP %d FP %d FN %d)", lead, f.event.f1, f.segment.f1,
                            f.segment.truePositives, f.segment.falsePositives, f.segment.falseNegatives))
                }
            }
            // Decision variants on the validation part and on the training part's original files
            // (in-sample probabilities: this measures the rules, not the classifier). `ONSETS`:
            // onset refinements `activity/backtrack` (activity "-" for none); `SPLITS`: splitting at
            // pauses `pause/activity` ("-" for none); `GAPS`: merge gaps.
            let trainRecs = recordings.filter {
                !dev.validation.contains($0.name) && !$0.name.contains("#") && !$0.name.contains("@") && !$0.name.hasPrefix("synthetic-")
                    && !$0.name.hasPrefix(SoundModelTrainer.extraNegativePrefix)
                    && !$0.name.hasPrefix(SoundModelTrainer.extraPositivePrefix)
            }
            let variantKinds: [(key: String, name: String, apply: (inout DecisionParameters, [Double?]) -> Void)] = [
                (
                    "ONSETS", "onset",
                    { d, v in
                        d.onsetActivity = v[0]
                        if v.count > 1, let b = v[1] { d.onsetBacktrackSeconds = b }
                    }
                ),
                (
                    "SPLITS", "split",
                    { d, v in
                        d.splitPauseSeconds = v[0]
                        if v.count > 1, let a = v[1] { d.splitActivity = a }
                    }
                ),
                ("GAPS", "gap", { d, v in if let g = v[0] { d.mergeGapSeconds = g } }),
                (
                    "BOUTS", "bout",
                    { d, v in
                        d.boutSeconds = v[0]
                        if v.count > 1, let b = v[1] { d.boutThreshold = b }
                    }
                ),
            ]
            for kind in variantKinds {
                for spec in (env[kind.key] ?? "").split(separator: ",") {
                    var m = model
                    kind.apply(&m.decision, spec.split(separator: "/").map { Double($0) })
                    var line = "  \(kind.name) \(spec):"
                    for (part, recs) in [("val", valRecs), ("train", trainRecs)] {
                        var found: [String: [TrackedEvent]] = [:]
                        for rec in recs { found[rec.name] = SoundModelTrainer.simulate(rec, model: m) }
                        let s = SoundModelTrainer.score(
                            label: label, found: found, recordings: recs, annotations: annotations, ignoring: ignoring)
                        line += String(
                            format: " %@ eventF1 %.3f (TP %d FP %d FN %d) sed_eval default %.3f FA %d |", part, s.event.f1,
                            s.event.truePositives, s.event.falsePositives, s.event.falseNegatives, s.eventSedEvalDefault.f1,
                            s.negativeFalseAlarms)
                    }
                    print(line)
                }
            }
            if env["CROSSFIT"] == "1" {
                // Cross-fitted probabilities: the training part in two group-aware halves, each scored by a
                // model trained on everything else (the validation part included); the validation part by
                // the model above. The thresholds at the model's other decision settings on all of them.
                let trainFiles = dev.files.filter { !dev.validation.contains($0) }
                let halfA = DevelopmentSet.validationFiles(
                    provenance: dev.provenance, files: trainFiles, annotations: dev.annotations, durations: dev.durations,
                    validationPercent: 50, salt: "crossfit"
                ).intersection(trainFiles)
                let halfB = Swift.Set(trainFiles).subtracting(halfA)
                var probs: [String: [Float]] = [:]
                for rec in valRecs { probs[rec.name] = SoundModelTrainer.probabilities(rec, model: model) }
                for half in [halfA, halfB] {
                    let (foldModel, _) = SoundModelTrainer.train(
                        label: label, recordings: recordings, annotations: annotations, validation: half,
                        voiceBackground: dev.voiceBackground, seed: seed, options: options)
                    for rec in recordings where half.contains(rec.name) {
                        probs[rec.name] = SoundModelTrainer.probabilities(rec, model: foldModel)
                    }
                }
                let all = recordings.filter { probs[$0.name] != nil }
                print("  crossfit: halves \(halfA.count) + \(halfB.count) files, \(all.count) scored")
                let segmentObjective = SoundModelTrainer.defaults(for: label).segmentObjective
                // With `BOUTS=10/0.5,-,...` every threshold also with those bout continuations (`-`: none).
                let bouts: [[Double?]] = (env["BOUTS"] ?? "=").split(separator: ",").map {
                    $0 == "=" ? [] : $0.split(separator: "/").map { Double($0) }
                }
                for bout in bouts {
                    for t in [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99] {
                        var d = model.decision
                        d.threshold = t
                        if !bout.isEmpty {
                            d.boutSeconds = bout[0]
                            if bout.count > 1, let b = bout[1] { d.boutThreshold = b }
                        }
                        var line = String(
                            format: "  threshold %.2f%@:", t,
                            bout.isEmpty ? "" : " bout \(d.boutSeconds.map { "\($0)/\(d.boutThreshold)" } ?? "-")")
                        for (part, recs) in [("cross-fitted all", all), ("val", valRecs)] {
                            var found: [String: [TrackedEvent]] = [:]
                            for rec in recs {
                                found[rec.name] = SoundModelTrainer.simulate(
                                    rec, classifier: model.classifier, decision: d, probabilities: probs[rec.name])
                            }
                            let f = SoundModelTrainer.score(
                                label: label, found: found, recordings: recs, annotations: annotations, ignoring: ignoring)
                            let f1 = segmentObjective ? f.segment.f1 : f.event.f1
                            line += String(
                                format: " %@ F1 %.3f (event %.3f TP %d FP %d FN %d) FA %d in %.3f h objective %.3f |", part, f1, f.event.f1,
                                f.event.truePositives, f.event.falsePositives, f.event.falseNegatives, f.negativeFalseAlarms,
                                f.negativeHours,
                                f1 - 0.05 * max(0, f.falseAlarmsPerHour - 1))
                        }
                        print(line)
                    }
                }
                // The cross-fitted false alarms at the model's threshold, file by file.
                let annotatedFiles = Swift.Set(annotations.map(\.file))
                for rec in all where !annotatedFiles.contains(rec.name) {
                    let events = ignoring.counted(
                        SoundModelTrainer.simulate(
                            rec, classifier: model.classifier, decision: model.decision, probabilities: probs[rec.name]
                        )
                        .map { LabelEvent(file: rec.name, onset: $0.onset, offset: $0.offset, label: label) }, reference: [])
                    if !events.isEmpty {
                        print(
                            "  cross-fitted false alarms \(rec.name) [\(meta[rec.name] ?? "?")\(dev.validation.contains(rec.name) ? ", val" : "")]: \(events.map { String(format: "%.2f-%.2f", $0.onset, $0.offset) })"
                        )
                    }
                }
            }
            if env["SENS"] == "1" {
                // The validation figures at every sensitivity level (5 is the shipped operating point).
                for level in 1...10 {
                    let sensitivity = Sensitivity(level)
                    var found: [String: [TrackedEvent]] = [:]
                    for rec in valRecs { found[rec.name] = SoundModelTrainer.simulate(rec, model: model, sensitivity: sensitivity) }
                    let f = SoundModelTrainer.score(
                        label: label, found: found, recordings: valRecs, annotations: annotations, ignoring: ignoring)
                    print(
                        String(
                            format:
                                "  sensitivity %2d (threshold %.3f): eventF1 %.3f P %.3f R %.3f | segF1 %.3f P %.3f R %.3f | FA %d (%.1f/h)",
                            level, model.decision.threshold(for: sensitivity), f.event.f1, f.event.precision, f.event.recall,
                            f.segment.f1, f.segment.precision, f.segment.recall, f.negativeFalseAlarms, f.falseAlarmsPerHour))
                }
            }
            if env["BIAS"] == "1" {
                // Each annotated event against the nearest detected onset (and offset) within 0.5 s.
                for part in ["train", "val"] {
                    var dOn: [Double] = []
                    var dOff: [Double] = []
                    for rec in recordings
                    where !rec.name.contains("#") && !rec.name.contains("@") && !rec.name.hasPrefix("synthetic-")
                        && dev.validation.contains(rec.name) == (part == "val")
                    {
                        let events = SoundModelTrainer.simulate(rec, model: model)
                        for r in annotations where r.file == rec.name && r.label == label {
                            guard let e = events.min(by: { abs($0.onset - r.onset) < abs($1.onset - r.onset) }),
                                abs(e.onset - r.onset) < 0.5
                            else { continue }
                            dOn.append(e.onset - r.onset)
                            if let e2 = events.min(by: { abs($0.offset - r.offset) < abs($1.offset - r.offset) }),
                                abs(e2.offset - r.offset) < 0.5
                            {
                                dOff.append(e2.offset - r.offset)
                            }
                        }
                    }
                    dOn.sort()
                    dOff.sort()
                    func q(_ a: [Double], _ f: Double) -> Double { a.isEmpty ? .nan : a[min(a.count - 1, Int(Double(a.count) * f))] }
                    print(
                        String(
                            format: "  %@ onset err n %d q25 %.3f med %.3f q75 %.3f | offset err n %d q25 %.3f med %.3f q75 %.3f",
                            part, dOn.count, q(dOn, 0.25), q(dOn, 0.5), q(dOn, 0.75), dOff.count, q(dOff, 0.25), q(dOff, 0.5),
                            q(dOff, 0.75)))
                }
            }
            if env["PEREV"] == "1" {
                // Peak probability inside each annotated event, and the highest one away from them.
                for rec in valRecs {
                    let p = SoundModelTrainer.probabilities(rec, model: model)
                    let ref = annotations.filter { $0.file == rec.name && $0.label == label }
                    func maxIn(_ a: Double, _ b: Double) -> Float {
                        zip(rec.centerTimes, p).filter { $0.0 >= a && $0.0 <= b }.map(\.1).max() ?? -1
                    }
                    let outs = zip(rec.centerTimes, p).filter { t in
                        !ref.contains { t.0 >= $0.onset - 0.3 && t.0 <= $0.offset + 0.3 } && !ignoring.contains(file: rec.name, time: t.0)
                    }
                    let outside = outs.map(\.1).max() ?? 0
                    let outAt = outs.max { $0.1 < $1.1 }?.0 ?? -1
                    if ref.isEmpty && outside < 0.3 { continue }
                    print(
                        "  \(rec.name): "
                            + ref.map { String(format: "%.2f-%.2f: %.2f", $0.onset, $0.offset, maxIn($0.onset, $0.offset)) }
                            .joined(separator: " | ") + String(format: "  out %.2f at %.2f", outside, outAt))
                }
            }
            if let spec = env["TRACE"] {
                let f = spec.split(separator: ":").map(String.init)
                if f.count == 3, let t0 = Double(f[1]), let t1 = Double(f[2]), let rec = recordings.first(where: { $0.name == f[0] }) {
                    let p = SoundModelTrainer.probabilities(rec, model: model)
                    for (t, v) in zip(rec.centerTimes, p) where t >= t0 && t <= t1 { print(String(format: "  %.2f %.3f", t, v)) }
                }
            }
            if let dir = env["EVALDIR"] {
                // Events reported on every audio file in the folder, all taken as negatives (music, say).
                let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
                var seconds = 0.0
                var files = 0
                var perLevel = [Int](repeating: 0, count: 11)
                for name in names where [".wav", ".flac", ".ogg", ".mp3"].contains(where: name.hasSuffix) {
                    guard let audio = try? DevData.loadAudio("\(dir)/\(name)") else { continue }
                    let rec = SoundModelTrainer.extractFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
                    seconds += Double(audio.samples.count) / audio.sampleRate
                    files += 1
                    for level in 5...10 {
                        perLevel[level] += SoundModelTrainer.simulate(rec, model: model, sensitivity: Sensitivity(level)).count
                    }
                }
                print(
                    String(
                        format: "  EVALDIR %@: %d files, %.2f h: events at sensitivity 5 / 6 / 7 / 8 / 9 / 10: %d / %d / %d / %d / %d / %d",
                        dir, files, seconds / 3600, perLevel[5], perLevel[6], perLevel[7], perLevel[8], perLevel[9], perLevel[10]))
                if let labelsPath = env["EVALLABELS"] {
                    // The same folder scored against its own labels (event F1, 0.5 s onset collar).
                    let refs = DevelopmentSet.parseLabels(try String(contentsOfFile: labelsPath, encoding: .utf8)).filter {
                        $0.label == label
                    }
                    var recs: [RecordingFeatures] = []
                    for name in names where name.hasSuffix(".wav") {
                        let audio = try DevData.loadAudio("\(dir)/\(name)")
                        recs.append(SoundModelTrainer.extractFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate))
                    }
                    for level in 5...10 {
                        var found: [String: [TrackedEvent]] = [:]
                        for rec in recs { found[rec.name] = SoundModelTrainer.simulate(rec, model: model, sensitivity: Sensitivity(level)) }
                        let f = SoundModelTrainer.score(label: label, found: found, recordings: recs, annotations: refs).event
                        print(
                            String(
                                format: "  EVALLABELS level %d: event F1 %.3f (TP %d FP %d FN %d)", level, f.f1, f.truePositives,
                                f.falsePositives, f.falseNegatives))
                    }
                }
            }
            if let dir = env["SAVE"] {
                try model.fileText.write(toFile: "\(dir)/\(label).json", atomically: true, encoding: .utf8)
            }
        }
    }
}

/// Extracts the features of every development file twice and checks that they are bit-identical.
struct DeterminismCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "determinism", abstract: "Check that the features of every development file are bit-identical across two extractions.")

    func run() throws {
        try DevData.requireAvailable()
        let dev = try DevData.load()
        let files = dev.files
        let a = try DevData.features(files)
        let b = try DevData.features(files)
        var differing = 0
        for (x, y) in zip(a, b) where x.matrix != y.matrix || x.gateValues != y.gateValues {
            print("features of \(x.name) differ between two extractions")
            differing += 1
        }
        for x in a { print("FILE \(x.name) \(SoundModelTrainer.dataHash(recordings: [x], annotations: []))") }
        guard differing == 0 else { throw ExitCode.failure }
        print("features of \(a.count) files are bit-identical across two extractions")
    }
}
