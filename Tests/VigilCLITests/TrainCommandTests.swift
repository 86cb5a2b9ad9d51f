import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilInference
import VigilSynth
import VigilTestSupport
import VigilTraining

/// Not serialized, unlike the other CLI suites: each test trains in its own folder, and the suite's
/// `vigil train` runs are the longest chain under ThreadSanitizer (about 35 s each), so two at a
/// time keep both cores busy there.
@Suite("vigil train")
struct TrainCommandTests {
    /// Eight small recordings: four with bark-like bursts (a harmonic stack with noise, 0.25 s,
    /// in bouts), four negatives (steady tones and noise), and their labels.
    static func makeDataset(in dir: URL) throws -> String {
        var generator = SeededGenerator(seed: 5)
        var labels = ""
        let audio = dir.appendingPathComponent("audio")
        try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
        for k in 0..<8 {
            var s = SignalBuffer(sampleRate: 22_050, duration: 6)
            s.addNoise(dBFS: -50, generator: &generator)
            let name = "clip\(k).wav"
            if k < 4 {
                for b in 0..<3 {
                    let t = 1.0 + Double(b) * 1.3 + Double(k) * 0.1
                    for h in 1...6 {
                        s.addTone(frequency: 420 * Double(h) + Double(k * 10), start: t, duration: 0.25, dBFS: -18 - Double(h) * 2)
                    }
                    s.addNoise(dBFS: -24, start: t, duration: 0.25, generator: &generator)
                    labels += "\(name)\t\(t)\t\(t + 0.25)\tdogBark\n"
                }
            } else {
                s.addTone(frequency: 300 + Double(k) * 200, start: 1, duration: 3, dBFS: -25)
            }
            try AudioFileWriter.write(s.samples, sampleRate: 22_050, format: .wav16, to: audio.appendingPathComponent(name).path)
        }
        let path = dir.appendingPathComponent("labels.tsv").path
        try labels.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `makeDataset`'s data trained once for the suite with no extra recordings: the model the
    /// determinism, `--negatives` and `--positives` tests compare theirs with. Each `vigil train`
    /// takes about 35 s under ThreadSanitizer, so the suite trains this one once, not four times.
    static let plainModel: Result<Data, any Error> = Result {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try makeDataset(in: dir)
        let out = dir.appendingPathComponent("dogBark.json").path
        let result = try CommandRunner.run([
            "train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--no-progress",
        ])
        guard result.status == 0 else { throw CommandFailure(arguments: "train (the suite's plain model)", stderr: result.stderr) }
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    struct CommandFailure: Error, CustomStringConvertible {
        var arguments: String
        var stderr: String
        var description: String { "vigil \(arguments) failed: \(stderr)" }
    }

    /// Trains `makeDataset`'s data in `dir` with `extra` options (`--negatives DIR`, `--positives
    /// DIR`) and returns the run, the model file and its card.
    static func trainWithExtra(_ extra: [String], labels: String, in dir: URL) throws
        -> (result: CommandRunner.Result, model: JSONValue, card: String)
    {
        let out = dir.appendingPathComponent("extra/dogBark.json").path
        try FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try CommandRunner.run(
            ["train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--no-progress"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let card = try String(contentsOfFile: (out as NSString).deletingPathExtension + ".md", encoding: .utf8)
        return (result, try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: out))), card)
    }

    @Test(
        "training twice on the same data gives byte-identical model files, with a model card describing the data used and the path written, even when the data's folder and file times differ"
    )
    func deterministic() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        // The same data made in another folder at another time: the model must record neither.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_086_400)], ofItemAtPath: labels)
        let models = dir.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        let out = models.appendingPathComponent("dogBark.json").path
        let embed = models.appendingPathComponent("EmbeddedModels.swift").path
        let result = try CommandRunner.run([
            "train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--embed", embed, "--no-progress",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(summary["label"]?.stringValue == "dogBark")
        #expect(summary["files"]?.intValue == 8)
        let output = try Data(contentsOf: URL(fileURLWithPath: out))
        let model = try JSONValue.parse(output)
        #expect(model["label"]?.stringValue == "dogBark")
        // The card describes the data actually used and the path actually written.
        let card = try String(contentsOf: models.appendingPathComponent("dogBark.md"), encoding: .utf8)
        #expect(card.contains("File: `\(out)` (embedded in the binary as `EmbeddedModels.dogBark`, `\(embed)`)"), "\(card)")
        #expect(card.contains("Recordings `\(dir.appendingPathComponent("audio").path)` (8 files, 0.8 min)"), "\(card)")
        #expect(card.contains("labels `\(labels)` (12 dogBark events on these files)"), "\(card)")
        #expect(card.contains("No PROVENANCE.tsv"), "\(card)")
        for stale in ["Models/dogBark.json", "232 files", "shared/data/dev", "Licence note"] {
            #expect(!card.contains(stale), "card says \(stale)")
        }
        let embedded = try String(contentsOfFile: embed, encoding: .utf8)
        #expect(embedded.contains("dogBark"))
        #expect(output == (try Self.plainModel.get()))
    }

    @Test(
        "--classifier trees+network trains trees and a temporal convolutional network on fixed-duration frames; vigil analyze runs the model and finds the barks of a new recording; an unknown classifier is a usage error"
    )
    func networkClassifier() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let (result, model, card) = try Self.trainWithExtra(["--classifier", "trees+network"], labels: labels, in: dir)
        #expect(result.status == 0)
        #expect(model["classifier"]?["kind"]?.stringValue == "gbdt+tcn")
        #expect(model["frames"]?.stringValue == "fixedDuration")
        #expect(model["training"]?["classifier"]?.stringValue == "gbdt+tcn")
        #expect(card.contains("the mean of the logits of gradient-boosted trees"), "\(card)")
        #expect(card.contains("a temporal convolutional network over the per-frame columns"), "\(card)")
        // A recording the model has not seen: three bark-like bursts at other times, over other noise.
        var generator = SeededGenerator(seed: 77)
        var s = SignalBuffer(sampleRate: 22_050, duration: 8)
        s.addNoise(dBFS: -50, generator: &generator)
        let starts = [1.4, 3.9, 6.1]
        for t in starts {
            for h in 1...6 { s.addTone(frequency: 425 * Double(h), start: t, duration: 0.25, dBFS: -18 - Double(h) * 2) }
            s.addNoise(dBFS: -24, start: t, duration: 0.25, generator: &generator)
        }
        let recording = dir.appendingPathComponent("new.wav").path
        try AudioFileWriter.write(s.samples, sampleRate: 22_050, format: .wav16, to: recording)
        let analysed = try CommandRunner.run([
            "analyze", recording, "--triggers", "dogBark", "--format", "jsonl", "--model",
            "dogBark=\(dir.appendingPathComponent("extra/dogBark.json").path)", "--sensitivity", "dogBark=10",
        ])
        #expect(analysed.status == 0, "\(analysed.stderr)")
        let events = analysed.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
            .filter { $0["trigger"]?.stringValue == "dogBark" }
        let onsets = events.compactMap { $0["start"]?.doubleValue }
        #expect(!onsets.isEmpty, "\(analysed.stdout)")
        #expect(onsets.allSatisfy { onset in starts.contains { abs($0 - onset) < 0.5 } }, "\(onsets)")
        let bad = try CommandRunner.run(["train", "--labels", labels, ".", "--out", "/tmp/dogBark.json", "--classifier", "cnn"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("cnn") && bad.stderr.contains("trees+network"), "\(bad.stderr)")
    }

    @Test("a label that cannot be trained, or a missing labels file, is a usage error")
    func usageErrors() throws {
        let bad = try CommandRunner.run(["train", "--labels", "x.tsv", ".", "--out", "Models/smokeAlarm.json"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("cannot train"))
        let missing = try CommandRunner.run(["train", "--labels", "/nonexistent.tsv", ".", "--out", "/tmp/dogBark.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent.tsv"))
    }

    @Test(
        "vigil train uses each label's recipe: personTalking teaches positives from 1 dB, dogBark from 3 dB; onsets lead by half a decision period; personTalking never splits on the burst values, dogBark and glassBreak may"
    )
    func labelRecipes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let barkLabels = try Self.makeDataset(in: dir)
        // The same bursts annotated as speech, for a personTalking run on the same audio.
        let speechLabels = dir.appendingPathComponent("speech.tsv").path
        try String(contentsOfFile: barkLabels, encoding: .utf8).replacingOccurrences(of: "dogBark", with: "personTalking")
            .write(toFile: speechLabels, atomically: true, encoding: .utf8)
        let names = FeatureSpec.current.componentNames
        let burstInputs = Set(names.indices.filter { names[$0].hasPrefix("burst.") })
        #expect(burstInputs.count == 7)
        // Half the decision period (4 hops of 512 samples at 44.1 kHz), in whole milliseconds.
        let halfPeriod = 0.023
        for (label, labels, activity) in [("dogBark", barkLabels, 0.3), ("personTalking", speechLabels, 0.1)] {
            let out = dir.appendingPathComponent("\(label).json").path
            let result = try CommandRunner.run([
                "train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--no-progress",
            ])
            #expect(result.status == 0, "\(label): \(result.stderr)")
            let model = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: out)))
            #expect(abs((model["training"]?["positiveActivity"]?.doubleValue ?? -1) - activity) < 1e-6, "\(label) positiveActivity")
            #expect(model["decision"]?["onsetLeadSeconds"]?.doubleValue == halfPeriod, "\(label) onset lead")
            let splitInputs = Set((model["classifier"]?["feature"]?.arrayValue ?? []).compactMap(\.intValue).filter { $0 >= 0 })
            #expect(!splitInputs.isEmpty, "\(label): the trees split on nothing")
            if label != "dogBark" { #expect(splitInputs.isDisjoint(with: burstInputs), "\(label) splits on a burst value") }
        }
        for label in ["dogBark", "glassBreak"] {
            #expect(!SoundModelTrainer.ignoredInputs(for: label).contains { burstInputs.contains($0) }, "\(label) ignores a burst value")
        }
        #expect(
            burstInputs.isSubset(of: Set(SoundModelTrainer.ignoredInputs(for: "personTalking"))),
            "personTalking may split on the burst values")
    }

    @Test("an --out or --embed directory that does not exist is a usage error before any training")
    func missingOutputDirectory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let audio = dir.appendingPathComponent("audio").path
        let out = dir.appendingPathComponent("no-such-dir/dogBark.json").path
        let result = try CommandRunner.run(["train", "--labels", labels, audio, "--out", out, "--no-progress"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("--out \(out): directory \(dir.appendingPathComponent("no-such-dir").path) does not exist"),
            "\(result.stderr)")
        let embed = dir.appendingPathComponent("missing/EmbeddedModels.swift").path
        let result2 = try CommandRunner.run([
            "train", "--labels", labels, audio, "--out", dir.appendingPathComponent("dogBark.json").path, "--embed", embed, "--no-progress",
        ])
        #expect(result2.status == 2)
        #expect(result2.stderr.contains("--embed \(embed): directory"), "\(result2.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("dogBark.json").path))
    }

    @Test(
        "--negatives adds training-only negatives: counted in the training decisions and the data hash, never in validation, named in the card; a missing or empty folder is a usage error, a broken file a warning"
    )
    func extraNegatives() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let audio = dir.appendingPathComponent("audio").path
        // Two unlabeled 4 s recordings at 16 kHz (steady chords, a sound unlike both classes of the set) and a broken file.
        let negatives = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: negatives, withIntermediateDirectories: true)
        for k in 0..<2 {
            var s = SignalBuffer(sampleRate: 16_000, duration: 4)
            for f in [261.6, 329.6, 392.0] { s.addTone(frequency: f * Double(k + 1), start: 0.5, duration: 3, dBFS: -20) }
            try AudioFileWriter.write(
                s.samples, sampleRate: 16_000, format: .wav16, to: negatives.appendingPathComponent("piece\(k).wav").path)
        }
        try Data("RIFF....WAVEjunk".utf8).write(to: negatives.appendingPathComponent("broken.wav"))
        let trained = try Self.trainWithExtra(["--negatives", negatives.path], labels: labels, in: dir)
        #expect(trained.result.stderr.contains("broken.wav"), "\(trained.result.stderr)")
        #expect(trained.card.contains("Also 2 extra negative recordings, for training only"), "\(trained.card)")
        let (plain, withNegatives) = (try JSONValue.parse(Self.plainModel.get())["training"]!, trained.model["training"]!)
        #expect(plain["extraNegativeFiles"] == nil)
        #expect(withNegatives["extraNegativeFiles"]?.intValue == 2)
        #expect(withNegatives["validationFiles"] == plain["validationFiles"])
        // 4 s at 16 kHz: one decision per 4 hops of 128 samples (32 ms), so about 125 decisions per piece.
        let added = (withNegatives["trainingDecisions"]?.intValue ?? 0) - (plain["trainingDecisions"]?.intValue ?? 0)
        #expect((230...260).contains(added), "\(added) decisions added")
        #expect(withNegatives["dataHash"] != plain["dataHash"])

        let out = dir.appendingPathComponent("dogBark.json").path
        let missing = try CommandRunner.run(["train", "--labels", labels, audio, "--out", out, "--negatives", "/nonexistent-music"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--negatives /nonexistent-music: no such file or directory"), "\(missing.stderr)")
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try CommandRunner.run(["train", "--labels", labels, audio, "--out", out, "--negatives", empty.path])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--negatives \(empty.path): no audio files"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "--positives adds training-only labeled recordings: their events are taught, counted in the data hash, never in validation, named in the card; a bad folder or labels file is a usage error naming it"
    )
    func extraPositives() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let audio = dir.appendingPathComponent("audio").path
        // Two 5 s recordings at 16 kHz with two bark-like bursts each (another pitch than the set's), and their events.
        let positives = dir.appendingPathComponent("more-barks")
        try FileManager.default.createDirectory(at: positives, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: 9)
        var events = ""
        for k in 0..<2 {
            var s = SignalBuffer(sampleRate: 16_000, duration: 5)
            s.addNoise(dBFS: -50, generator: &generator)
            for b in 0..<2 {
                let t = 1.2 + Double(b) * 1.6
                for h in 1...5 { s.addTone(frequency: 510 * Double(h), start: t, duration: 0.3, dBFS: -20 - Double(h) * 2) }
                events += "bark\(k).wav\t\(t)\t\(t + 0.3)\tdogBark\n"
            }
            try AudioFileWriter.write(
                s.samples, sampleRate: 16_000, format: .wav16, to: positives.appendingPathComponent("bark\(k).wav").path)
        }
        try events.write(to: positives.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        let trained = try Self.trainWithExtra(["--positives", positives.path], labels: labels, in: dir)
        #expect(trained.card.contains("Also 2 extra labeled recordings, for training only"), "\(trained.card)")
        let (plain, withPositives) = (try JSONValue.parse(Self.plainModel.get())["training"]!, trained.model["training"]!)
        #expect(plain["extraPositiveFiles"] == nil)
        #expect(withPositives["extraPositiveFiles"]?.intValue == 2)
        #expect(withPositives["validationFiles"] == plain["validationFiles"])
        #expect(withPositives["dataHash"] != plain["dataHash"])
        // Four bursts of 0.3 s with decisions every 32 ms: their decisions are taught as positives.
        let taught = (withPositives["trainingPositives"]?.intValue ?? 0) - (plain["trainingPositives"]?.intValue ?? 0)
        #expect((30...45).contains(taught), "\(taught) positive decisions added")

        let out = dir.appendingPathComponent("dogBark.json").path
        func usage(_ positivesPath: String) throws -> String {
            let r = try CommandRunner.run(["train", "--labels", labels, audio, "--out", out, "--positives", positivesPath])
            #expect(r.status == 2, "\(r.stderr)")
            return r.stderr
        }
        #expect(try usage("/nonexistent-words").contains("--positives /nonexistent-words: not a directory"))
        let unlabeled = dir.appendingPathComponent("unlabeled")
        try FileManager.default.createDirectory(at: unlabeled, withIntermediateDirectories: true)
        #expect(try usage(unlabeled.path).contains("--positives \(unlabeled.path)/labels.tsv: cannot read file"))
        try "bark0.wav\t1.0\t1.3\tglassBreak\n".write(to: unlabeled.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        #expect(try usage(unlabeled.path).contains("labels.tsv: no 'dogBark' events"))
        try "gone.wav\t1.0\t1.3\tdogBark\n".write(to: positives.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        #expect(try usage(positives.path).contains("'gone.wav' is not an audio file in \(positives.path)"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A clips folder: six 4 s clips at 16 kHz, three with one bark-like burst each (groups g0, g0, g1),
    /// three of steady tones and noise (`negative`, one with voices).
    static func makeClips(in dir: URL) throws -> URL {
        var generator = SeededGenerator(seed: 9)
        let clips = dir.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips.appendingPathComponent("audio"), withIntermediateDirectories: true)
        var list = "filename\tlabel\tcategory\tgroup\tvoices\tseconds\tsample_rate\n"
        for k in 0..<6 {
            var s = SignalBuffer(sampleRate: 16_000, duration: 4)
            s.addNoise(dBFS: -48, generator: &generator)
            let name = "c\(k).flac"
            if k < 3 {
                let t = 0.8 + Double(k) * 0.7
                for h in 1...5 {
                    s.addTone(frequency: 430 * Double(h) + Double(k * 20), start: t, duration: 0.3, dBFS: -18 - Double(h) * 2)
                }
                s.addNoise(dBFS: -25, start: t, duration: 0.3, generator: &generator)
                list += "\(name)\tdogBark\tbark\tg\(k / 2)\tno\t4.000\t16000\n"
            } else {
                s.addTone(frequency: 250 + Double(k) * 150, start: 0.5, duration: 3, dBFS: -26)
                list += "\(name)\tnegative\tengine\tn\(k)\t\(k == 5 ? "yes" : "no")\t4.000\t16000\n"
            }
            try AudioFileWriter.write(
                s.samples, sampleRate: 16_000, format: .flac16, to: clips.appendingPathComponent("audio/\(name)").path)
        }
        try list.write(to: clips.appendingPathComponent("clips.tsv"), atomically: true, encoding: .utf8)
        return clips
    }

    @Test(
        "clips of unknown source cut from one recording share a fold in the run's plan, at every training rate; another recording's clip does not join them"
    )
    func alikeClipsShareAFold() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let clips = dir.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips.appendingPathComponent("audio"), withIntermediateDirectories: true)
        // Two cuts of one 22.05 kHz recording and a clip of another; each group names the clip (source unknown).
        let long = BurstsOverNoise.recording(seconds: 8, sampleRate: 22_050, pink: true, pitch: 450, seed: 3)
        let cuts = [("a", Array(long[0..<88_200])), ("b", Array(long[88_200...]))]
        let other = BurstsOverNoise.recording(seconds: 4, sampleRate: 22_050, pink: false, pitch: 1_100, seed: 4)
        var list = "filename\tlabel\tcategory\tgroup\tvoices\tseconds\tsample_rate\n"
        for (name, samples) in cuts + [("c", other)] {
            try AudioFileWriter.write(
                samples, sampleRate: 22_050, format: .flac16, to: clips.appendingPathComponent("audio/\(name).flac").path)
            list += "\(name).flac\tdogBark\tbark\tsrc:\(name).wav\tno\t4.000\t22050\n"
        }
        try list.write(to: clips.appendingPathComponent("clips.tsv"), atomically: true, encoding: .utf8)
        var run = try TrainingInputs.run(
            trigger: .dogBark, labels: labels, audioDirectory: dir.appendingPathComponent("audio").path,
            out: dir.appendingPathComponent("m.json").path, seed: 1, clips: clips.path)
        for rate in [nil, 16_000] {
            run.trainingRate = rate
            let component = try run.material { _ in }.plan.componentOf
            #expect(component["clip:a.flac"] != nil && component["clip:a.flac"] == component["clip:b.flac"], "rate \(rate ?? 0)")
            #expect(component["clip:c.flac"] != component["clip:a.flac"], "rate \(rate ?? 0)")
        }
    }

    @Test(
        "--clips adds a clip-labelled folder; --cross-validate prints each fold, the mean and the worst fold, and writes them into the model file and card"
    )
    func clipsAndCrossValidation() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let clips = try Self.makeClips(in: dir)
        let (result, model, card) = try Self.trainWithExtra(
            ["--clips", clips.path, "--cross-validate", "--folds", "2"], labels: labels, in: dir)
        #expect(
            result.stdout.contains("| 1 |") && result.stdout.contains("| 2 |") && result.stdout.contains("| **mean** |"), "\(result.stdout)"
        )
        #expect(result.stdout.contains("| worst (fold "), "\(result.stdout)")
        let cv = model["training"]?["crossValidation"]
        #expect(cv?["folds"]?.intValue == 2)
        #expect(cv?["perFold"]?.arrayValue?.count == 2)
        // Every clip of the label is scored once over the folds, as are the 8 development files.
        let perFold = cv?["perFold"]?.arrayValue ?? []
        #expect(perFold.compactMap { $0["positiveClips"]?.intValue }.reduce(0, +) == 3)
        #expect(perFold.compactMap { $0["devFiles"]?.intValue }.reduce(0, +) == 8)
        #expect(model["training"]?["clipFiles"]?.intValue == 6)
        #expect(card.contains("## Cross-validated figures (grouped, nested, 2 folds"), "\(card)")
        // The clips are named in the card, and the validation part's figures are not reported beside the cross-validated ones.
        #expect(card.contains("Also 6 clip-labelled recordings, split with the files"), "\(card)")
        // dogBark's recipe weights the development files' barks against the clips' activity regions, and says so.
        #expect(model["training"]?["developmentPositiveWeight"]?.doubleValue == 3)
        #expect(card.contains("the development files' annotated events count 3 times against those regions"), "\(card)")
        #expect(!card.contains("## Validation metrics"), "\(card)")
    }

    @Test(
        "--repeats runs the cross-validation at fold seeds --seed, --seed + 1, ...: the mean and the worst fold are over every fold of every seed, each seed's mean is reported, and the card names the seeds; bad values are usage errors"
    )
    func repeatedCrossValidation() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let clips = try Self.makeClips(in: dir)
        let audio = dir.appendingPathComponent("audio").path
        for (extra, message) in [
            (["--cross-validate", "--repeats", "0"], "--repeats 0: must be 1...10"),
            (["--repeats", "2"], "--repeats needs --cross-validate"),
        ] {
            let result = try CommandRunner.run(
                ["train", "--labels", labels, audio, "--out", dir.appendingPathComponent("x/dogBark.json").path] + extra)
            #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        }
        let (result, model, card) = try Self.trainWithExtra(
            ["--clips", clips.path, "--cross-validate", "--folds", "2", "--repeats", "2", "--seed", "7"], labels: labels, in: dir)
        let cv = try #require(model["training"]?["crossValidation"])
        #expect(cv["folds"]?.intValue == 2)
        #expect(cv["foldSeeds"]?.arrayValue?.compactMap(\.intValue) == [7, 8])
        let rows = cv["perFold"]?.arrayValue ?? []
        #expect(rows.compactMap { $0["foldSeed"]?.intValue } == [7, 7, 8, 8])
        // The headline is the mean and the minimum over all four folds; each seed's mean is that of its two folds.
        let f1 = rows.compactMap { $0["eventF1Collar0.5s"]?.doubleValue }
        #expect(f1.count == 4)
        #expect(abs((cv["mean"]?.doubleValue ?? -1) - f1.reduce(0, +) / 4) < 1e-3)
        #expect(cv["worst"]?.doubleValue == f1.min())
        let repeatMeans = cv["repeatMeans"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        #expect(
            repeatMeans.count == 2 && abs(repeatMeans[0] - (f1[0] + f1[1]) / 2) < 1e-3 && abs(repeatMeans[1] - (f1[2] + f1[3]) / 2) < 1e-3)
        // Every clip of the label is scored once per seed.
        #expect(rows.compactMap { $0["positiveClips"]?.intValue }.reduce(0, +) == 6)
        #expect(result.stderr.contains("dogBark fold 1/2 (seed 8)"), "\(result.stderr)")
        for text in ["| 2, seed 8 |", "| mean, seed 7 |", "| mean, seed 8 |", "| **mean** (2 seeds) |"] {
            #expect(result.stdout.contains(text) && card.contains(text), "\(text): \(result.stdout)")
        }
        #expect(
            card.contains("## Cross-validated figures (grouped, nested, 2 folds at each of the fold seeds 7, 8; sensitivity 5)"), "\(card)")
    }

    @Test(
        "personTalking also trains on 16 kHz copies of every recording without speech (copies of its speech and other labels' copies are not made), all on frames of one duration at every rate; dogBark and low-rate models use the shared STFT's frames"
    )
    func negativeRateCopies() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The data set's 22.05 kHz files, its four event files relabelled as speech.
        let dogLabels = try Self.makeDataset(in: dir)
        let labels = dir.appendingPathComponent("speech.tsv").path
        try String(contentsOfFile: dogLabels, encoding: .utf8).replacingOccurrences(of: "dogBark", with: "personTalking")
            .write(toFile: labels, atomically: true, encoding: .utf8)
        let audio = dir.appendingPathComponent("audio").path
        func material(_ trigger: EventTriggerType, _ labels: String) throws -> TrainingRun.Material {
            try TrainingInputs.run(
                trigger: trigger, labels: labels, audioDirectory: audio, out: dir.appendingPathComponent("m.json").path, seed: 1
            ).material { _ in }
        }
        let speech = try material(.personTalking, labels)
        let copies = speech.features.filter { $0.name.hasSuffix("#r16000") }
        #expect(copies.map(\.name).sorted() == (4..<8).map { "clip\($0).wav#r16000" })
        #expect(copies.allSatisfy { $0.sampleRate == 16_000 && !$0.matrix.isEmpty })
        // A copy is the recording as a 16 kHz camera records it, not the recording again.
        let original = try #require(speech.features.first { $0.name == "clip4.wav" })
        let copy = try #require(copies.first { $0.name == "clip4.wav#r16000" })
        #expect(original.sampleRate == 22_050 && abs(copy.duration - original.duration) < 0.01 && copy.matrix != original.matrix)
        #expect(try material(.dogBark, dogLabels).features.allSatisfy { !$0.name.contains("#r") && $0.frames == .shared })
        // personTalking's model takes its features on frames of one duration at every rate, the copies' too.
        #expect(speech.features.allSatisfy { $0.frames == .fixedDuration })
        #expect(abs(copy.frameTimes[1] - copy.frameTimes[0] - 186.0 / 16_000) < 1e-9)
        var lowRate = try TrainingInputs.run(
            trigger: .personTalking, labels: labels, audioDirectory: audio, out: dir.appendingPathComponent("m.json").path, seed: 1)
        lowRate.trainingRate = 16_000
        #expect(lowRate.featureFrames == .shared)
        // The model file and its card say which frames.
        let out = dir.appendingPathComponent("personTalking.json").path
        let result = try CommandRunner.run(["train", "--labels", labels, audio, "--out", out, "--seed", "1", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try SoundModel(fileText: String(contentsOfFile: out, encoding: .utf8)).frames == .fixedDuration)
        let card = try String(contentsOfFile: dir.appendingPathComponent("personTalking.md").path, encoding: .utf8)
        #expect(card.contains("Per STFT frame (`fixedDuration`: frames of 1024/44100 s"), "\(card)")
    }

    @Test(
        "glassBreak's shipped training: its full-band model copies every file over files with other labels' events but no glass, and trains on every copy; its low-rate model copies over event-free files and trains on no copy of the validation part; a copy's background lies on its file's side of that part"
    )
    func glassBreakCopies() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The data set's event files 0 and 1 hold glass breaks, 2 and 3 barks.
        let dogLabels = try Self.makeDataset(in: dir)
        let labels = dir.appendingPathComponent("glass.tsv").path
        let text = try String(contentsOfFile: dogLabels, encoding: .utf8).split(separator: "\n").map { line in
            line.hasPrefix("clip0") || line.hasPrefix("clip1") ? line.replacingOccurrences(of: "dogBark", with: "glassBreak") : String(line)
        }
        try (text.joined(separator: "\n") + "\n").write(toFile: labels, atomically: true, encoding: .utf8)
        let audio = dir.appendingPathComponent("audio").path
        func material(rate: Int?) throws -> TrainingRun.Material {
            var run = try TrainingInputs.run(
                trigger: .glassBreak, labels: labels, audioDirectory: audio, out: dir.appendingPathComponent("m.json").path, seed: 1)
            run.trainingRate = rate
            return try run.material { _ in }
        }
        let glass = ["clip0.wav", "clip1.wav"]
        let barks = ["clip2.wav", "clip3.wav"]
        let full = try material(rate: nil)
        #expect(full.options.decisionChoice == .validationPartThenAll && full.options.copiesOverOtherLabels)
        #expect(!full.validation.isEmpty)
        let fullCopied = Set(full.features.suffix(full.augmentedCount).map { CrossValidation.item($0.name) })
        #expect(fullCopied == Set(full.files), "copied: \(fullCopied.sorted())")
        #expect(Set(full.backgroundOf.values).isDisjoint(with: glass))
        #expect(!Set(full.backgroundOf.values).isDisjoint(with: barks), "\(full.backgroundOf.values.sorted())")
        #expect(full.split.training.count == full.features.count)
        let inner = full.plan.innerValidation(outerFold: -1)
        #expect(!inner.isDisjoint(with: fullCopied))
        #expect(
            full.backgroundOf.allSatisfy { copy, background in inner.contains(CrossValidation.item(copy)) == inner.contains(background) })
        let low = try material(rate: 16_000)
        #expect(low.options.decisionChoice == .validationPart && !low.options.copiesOverOtherLabels)
        #expect(Set(low.backgroundOf.values).isDisjoint(with: glass + barks))
        // The low-rate model's trees never hear a copy mixed with a file of the validation part.
        let lowCopies = low.split.training.filter { low.backgroundOf[$0.name] != nil }
        #expect(!lowCopies.isEmpty)
        #expect(lowCopies.allSatisfy { !inner.contains(CrossValidation.item($0.name)) && !inner.contains(low.backgroundOf[$0.name]!) })
    }

    @Test(
        "the model's split is one fold of the cross-validation with every file and clip as its training part: the decision is chosen on the first of K-1 grouped folds, whose clips of other labels are scored and whose clips of the label are left out; the model file records the part's files"
    )
    func shippedSplit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let clips = try Self.makeClips(in: dir)
        let out = dir.appendingPathComponent("dogBark.json").path
        let run = try TrainingInputs.run(
            trigger: .dogBark, labels: labels, audioDirectory: dir.appendingPathComponent("audio").path, out: out, seed: 3,
            clips: clips.path)
        let m = try run.material { _ in }
        let clipNames = Set(m.listedClips.keys)
        let inner = m.plan.innerValidation(outerFold: -1)
        let labelClips = Set(clipNames.filter { m.listedClips[$0]!.label == "dogBark" })
        #expect(m.validation == inner.subtracting(labelClips))
        #expect(m.plan.innerFoldCount == 4)
        // One fold of four over 8 files and 6 clips: both kinds are in it, and every category keeps most of its items outside.
        #expect(!m.validation.intersection(m.files).isEmpty && m.validation.intersection(m.files).count <= 4)
        #expect(m.validation.isSubset(of: clipNames.union(m.files)))
        let trained = Set(m.split.training.map { CrossValidation.item($0.name) })
        #expect(!labelClips.isDisjoint(with: inner) && !labelClips.isSubset(of: inner))
        for name in labelClips {
            // The label's clips: taught outside the validation part, left out inside it (they have no onsets to score).
            #expect(trained.contains(name) == !inner.contains(name), "\(name)")
            #expect(m.split.partlyLabelled.contains(name) == !inner.contains(name), "\(name)")
        }
        // The copies' backgrounds lie on their file's side of the part.
        #expect(m.backgroundOf.allSatisfy { copy, background in inner.contains(CrossValidation.item(copy)) == inner.contains(background) })
        let result = try run.train(m) { _ in }
        let model = result.model
        let recorded = model.training["validationPart"]?["files"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(recorded) == m.validation.intersection(m.files))
        #expect(model.training["validationPart"]?["folds"]?.intValue == 4)
        #expect(model.training["validationFiles"]?.intValue == m.validation.count)
        #expect(result.validationFiles == recorded.count)
        // A scorer tells the model's training files from its validation part; another data set gets no answer.
        #expect(model.trainingPart(files: m.files) == Set(m.files).subtracting(recorded))
        #expect(model.trainingPart(files: Array(m.files.dropLast())) == nil)
        let clipCount = m.validation.count - recorded.count
        #expect(clipCount > 0)
        #expect(
            result.card.contains(
                "thresholds chosen on the validation part (\(recorded.count) files and \(clipCount) clips of other labels)"),
            "\(result.card)")
        // Trees trained again on everything, or a decision chosen out of fold: every file is training data, and the card says so.
        for (choice, wording) in [
            (TrainingOptions.DecisionChoice.validationPartThenAll, "the model's trees were then trained on all 8"),
            (.outOfFold, "Trained on all 8 files; thresholds chosen on out-of-fold probabilities"),
        ] {
            var everything = run
            everything.decisionChoice = choice
            let trained = try everything.run { _ in }
            #expect(trained.model.trainingPart(files: m.files) == Set(m.files), "\(choice)")
            #expect(trained.card.contains(wording), "\(trained.card)")
        }
    }

    @Test(
        "--rate trains a low-rate model: every recording above the rate, and the synthetic negatives, at that rate; the model and its card say so, and --embed embeds it beside the label's model"
    )
    func lowRateModel() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let audio = dir.appendingPathComponent("audio").path
        let models = dir.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        let out = models.appendingPathComponent("dogBark-16kHz.json").path
        func usage(_ extra: [String]) throws -> String {
            let result = try CommandRunner.run(
                ["train", "--labels", labels, audio, "--out", out, "--no-progress", "--label", "dogBark"] + extra)
            #expect(result.status == 2, "\(result.stderr)")
            return result.stderr
        }
        #expect(try usage(["--rate", "32000"]).contains("--rate 32000: a low-rate model is for streams below 32000 Hz"))
        #expect(try usage(["--rate", "16000", "--cross-validate", "--resample", "16000"]).contains("--resample can only lower it"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // The material: the data set's 22.05 kHz files and the synthetic negatives, all at 16 kHz.
        var run = try TrainingInputs.run(trigger: .dogBark, labels: labels, audioDirectory: audio, out: out, seed: 1)
        run.trainingRate = 16_000
        let material = try run.material { _ in }
        #expect(material.features.count > 8 && material.features.allSatisfy { $0.sampleRate == 16_000 })
        // The plain model beside it: --embed embeds both.
        try Self.plainModel.get().write(to: models.appendingPathComponent("dogBark.json"))
        let embed = models.appendingPathComponent("EmbeddedModels.swift").path
        let result = try CommandRunner.run([
            "train", "--labels", labels, audio, "--out", out, "--label", "dogBark", "--rate", "16000", "--seed", "1", "--embed", embed,
            "--no-progress",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let model = try SoundModel(fileText: try String(contentsOfFile: out, encoding: .utf8))
        #expect(model.trainingRate == 16_000 && model.label == "dogBark")
        #expect(model.training["dataHash"]?.stringValue == material.dataHash)
        let card = try String(contentsOfFile: models.appendingPathComponent("dogBark-16kHz.md").path, encoding: .utf8)
        #expect(card.contains("(embedded in the binary as `EmbeddedModels.dogBarkLowRate`"), "\(card)")
        #expect(card.contains("Low-rate model: every recording above 16000 Hz was resampled to 16000 Hz"), "\(card)")
        let source = try String(contentsOfFile: embed, encoding: .utf8)
        #expect(source.contains("case .dogBark: return dogBark.joined()"), "\(source)")
        #expect(source.contains("case .dogBark: return dogBarkLowRate.joined()"), "\(source)")
        #expect(source.contains("/// Models/dogBark-16kHz.json, minified."))
    }

    @Test(
        "a --clips folder that is missing, has no clips.tsv, a malformed line or a listed file that is not there is a usage error naming it"
    )
    func clipsUsageErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let out = dir.appendingPathComponent("dogBark.json").path
        func usage(_ clips: String) throws -> String {
            let result = try CommandRunner.run(
                ["train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--no-progress", "--clips", clips])
            #expect(result.status == 2, "\(result.stderr)")
            return result.stderr
        }
        #expect(try usage(dir.appendingPathComponent("none").path).contains("none: not a directory"))
        let clips = dir.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips.appendingPathComponent("audio"), withIntermediateDirectories: true)
        let list = clips.appendingPathComponent("clips.tsv")
        #expect(try usage(clips.path).contains("\(list.path): cannot read file"))
        try "filename\tlabel\tcategory\tgroup\tvoices\nx.flac\tdogbark\tbark\tg\tno\n".write(to: list, atomically: true, encoding: .utf8)
        #expect(try usage(clips.path).contains("\(list.path):2: unknown label 'dogbark'"))
        try "filename\tlabel\tcategory\tgroup\tvoices\nx.flac\tdogBark\tbark\tg\tno\n".write(to: list, atomically: true, encoding: .utf8)
        #expect(try usage(clips.path).contains("\(list.path):2: no audio file \(clips.path)/audio/x.flac"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "--augment, --resample, --decision-choice and --negative-clip-weight: bad values are usage errors; with them the cross-validation runs, its copies are counted, the decision is chosen out of fold, the clips' weight is recorded; part-then-all trains on every file after the choice"
    )
    func augmentResampleAndChoice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        let clips = try Self.makeClips(in: dir)
        let out = dir.appendingPathComponent("dogBark.json").path
        func usage(_ extra: [String]) throws -> String {
            let result = try CommandRunner.run(
                ["train", "--labels", labels, dir.appendingPathComponent("audio").path, "--out", out, "--no-progress"] + extra)
            #expect(result.status == 2, "\(result.stderr)")
            return result.stderr
        }
        #expect(try usage(["--resample", "16000"]).contains("--resample needs --cross-validate"))
        #expect(try usage(["--cross-validate", "--resample", "100"]).contains("--resample 100: must be 4000...96000 Hz"))
        #expect(try usage(["--augment", "9"]).contains("--augment must be 0...8"))
        #expect(
            try usage(["--decision-choice", "best"]).contains("--decision-choice best: expected 'part', 'part-then-all' or 'out-of-fold'"))
        #expect(try usage(["--negative-clip-weight=-1"]).contains("--negative-clip-weight -1.0: must be 0...100"))
        #expect(try usage(["--negative-clip-weight", "nan"]).contains("--negative-clip-weight nan: must be 0...100"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let (result, model, card) = try Self.trainWithExtra(
            [
                "--clips", clips.path, "--cross-validate", "--folds", "2", "--augment", "1", "--resample", "16000", "--decision-choice",
                "out-of-fold", "--negative-clip-weight", "2.5",
            ],
            labels: labels, in: dir)
        #expect(result.stdout.contains("| **mean** |"), "\(result.stdout)")
        #expect(result.stderr.contains("augmented copies of"), "\(result.stderr)")
        #expect(model["training"]?["roomAugmentedCopies"]?.intValue == 1)
        #expect(model["training"]?["decisionChosenOn"]?.stringValue == "out-of-fold probabilities of 2 sets")
        #expect(model["training"]?["negativeClipWeight"]?.doubleValue == 2.5)
        #expect(card.contains("every decision of a negative clip counts 2.5 times"), "\(card)")
        // The decision chosen on the validation part, then the trees trained on every file.
        let (_, refit, refitCard) = try Self.trainWithExtra(["--decision-choice", "part-then-all"], labels: labels, in: dir)
        #expect(
            refit["training"]?["decisionChosenOn"]?.stringValue == "the validation part, with the trees then trained on every recording")
        #expect(refitCard.contains("the model's trees were then trained on all"), "\(refitCard)")
    }
}
