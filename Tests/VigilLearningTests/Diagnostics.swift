import Foundation
import Testing
import VigilCore
import VigilLearning

/// Development diagnostics (VIGIL_DIAG=1, release build): frame-level AUC on both parts and the
/// validation files with false positives.
@Suite("Diagnostics")
struct Diagnostics {
    static let enabled = ProcessInfo.processInfo.environment["VIGIL_DIAG"] == "1" && DevData.available

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

    @Test("diagnose", .enabled(if: enabled, "VIGIL_DIAG=1"))
    func diagnose() throws {
        let dev = try DevData.load()
        let allRecordings = try DevData.trainingFeatures(
            dev, copies: Int(ProcessInfo.processInfo.environment["COPIES"] ?? "0") ?? 0,
            lowSNRCopies: Int(ProcessInfo.processInfo.environment["LOWSNR"] ?? "0") ?? 0,
            seed: ProcessInfo.processInfo.environment["SEED"].flatMap(UInt64.init) ?? 99)
        let meta = try DevData.text("files_meta.tsv").split(separator: "\n").reduce(into: [String: String]()) {
            let f = $1.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count > 2 { $0[String(f[0])] = String(f[2]) }
        }
        var options = TrainingOptions()
        let env = ProcessInfo.processInfo.environment
        if let v = env["ITER"].flatMap(Int.init) { options.trees.iterations = v }
        if let v = env["LR"].flatMap(Float.init) { options.trees.learningRate = v }
        if let v = env["LEAVES"].flatMap(Int.init) { options.trees.maxLeaves = v }
        if let v = env["MINLEAF"].flatMap(Int.init) { options.trees.minSamplesPerLeaf = v }
        if let v = env["L2"].flatMap(Double.init) { options.trees.l2 = v }
        if let w = env["ACT"].flatMap(Float.init) { options.positiveActivity = w }
        if let w = env["MARGIN"].flatMap(Double.init) { options.boundaryMargin = w }
        if let names = env["IGNORE"] {
            let all = FeatureSpec.current.componentNames
            options.ignoredInputs = all.indices.filter { i in names.split(separator: ",").contains { all[i].hasPrefix(String($0)) } }
            print("ignoring \(options.ignoredInputs.map { all[$0] })")
        }
        if env["NOIGNORE"] == "1" { options.ignoredInputs = [0] }
        // CONFIGS="dogBark:k:0.5;personTalking:-:0" runs several trainings on one extraction:
        // label, augmented variants ("-" none, "k", "s", "k,s"; "*" the shipped recipe), the trees'
        // learning rate, optionally their leaves, optionally more ignored input prefixes (comma-separated).
        var runs: [(label: String, variants: Swift.Set<String>?, rate: Float?, leaves: Int?, extra: String?)] = []
        if let configs = env["CONFIGS"] {
            for c in configs.split(separator: ";") {
                let f = c.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                let v: Swift.Set<String>? =
                    f.count > 1 && f[1] != "*" ? Swift.Set(f[1].split(separator: ",").map(String.init).filter { $0 != "-" }) : nil
                runs.append(
                    (f[0], v, f.count > 2 ? Float(f[2]) : nil, f.count > 3 ? Int(f[3]) : nil, f.count > 4 && !f[4].isEmpty ? f[4] : nil))
            }
        } else {
            let variants = env["VARIANTS"].map { Swift.Set($0.split(separator: ",").map(String.init)) }
            runs = (env["LABELS"] ?? "dogBark,glassBreak,personTalking").split(separator: ",").map { (String($0), variants, nil, nil, nil) }
        }
        for run in runs {
            let label = run.label
            var options = options
            if let r = run.rate { options.trees.learningRate = r }
            if let l = run.leaves { options.trees.maxLeaves = l }
            print(
                "=== \(label) variants \(run.variants.map { $0.sorted().joined(separator: ",") } ?? "shipped") rate \(options.trees.learningRate) leaves \(options.trees.maxLeaves) extra \(run.extra ?? env["EXTRA"] ?? "-")"
            )
            if let extra = run.extra ?? env["EXTRA"] {
                let all = FeatureSpec.current.componentNames
                options.ignoredInputs = SoundModelTrainer.ignoredInputs(for: label) + all.indices.filter { i in extra.split(separator: ",").contains { all[i].hasPrefix(String($0)) } }
            }
            // VARIANTS=k,s: the augmented variants this run trains on (default: the shipped recipe).
            let recordings = DevData.recordings(for: label, allRecordings, variants: run.variants)
            let (model, fig) = SoundModelTrainer.train(
                label: label, recordings: recordings, annotations: dev.annotations, validation: dev.validation,
                voiceBackground: dev.voiceBackground, seed: env["SEED"].flatMap(UInt64.init) ?? 1, options: options, verbose: true)
            var tr: ([Float], [Bool]) = ([], [])
            var va: ([Float], [Bool]) = ([], [])
            for rec in recordings where !rec.name.contains("#") {
                let ev = dev.annotations.filter { $0.file == rec.name && $0.label == label }
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
            print("\(label): AUC train \(Self.auc(tr.0, tr.1)) val \(Self.auc(va.0, va.1)); thr \(model.decision.threshold) eventF1 \(fig.event.f1) P \(fig.event.precision) R \(fig.event.recall) segF1 \(fig.segment.f1) FA \(fig.negativeFalseAlarms)")
            for rec in recordings where dev.validation.contains(rec.name) {
                let events = SoundModelTrainer.simulate(rec, model: model)
                let ref = dev.annotations.filter { $0.file == rec.name && $0.label == label }
                let c = SoundModelTrainer.score(
                    label: label, found: [rec.name: events], recordings: [rec], annotations: ref
                ).event
                if env["VERBOSE"] == "1" && (c.falsePositives > 0 || c.falseNegatives > 0) {
                    print("  \(rec.name) [\(meta[rec.name] ?? "?")] TP \(c.truePositives) FP \(c.falsePositives) FN \(c.falseNegatives) ref \(ref.map { String(format: "%.2f-%.2f", $0.onset, $0.offset) }) est \(events.map { String(format: "%.2f-%.2f(%.2f)", $0.onset, $0.offset, $0.peakProbability) })")
                }
            }
        }
    }
}

@Suite("DeterminismCheck")
struct DeterminismCheck {
    @Test("features are bit-identical across extractions", .enabled(if: ProcessInfo.processInfo.environment["VIGIL_DET"] == "1" && DevData.available))
    func repeatExtraction() throws {
        let dev = try DevData.load()
        let files = dev.files
        let a = try DevData.features(files)
        let b = try DevData.features(files)
        for (x, y) in zip(a, b) where x.matrix != y.matrix || x.gateValues != y.gateValues {
            print("DIFF in \(x.name)")
        }
        for x in a { print("FILE \(x.name) \(SoundModelTrainer.dataHash(recordings: [x], annotations: []))") }
        print("HASH \(SoundModelTrainer.dataHash(recordings: a, annotations: dev.annotations)) \(SoundModelTrainer.dataHash(recordings: b, annotations: dev.annotations))")
    }
}
