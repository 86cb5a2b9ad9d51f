import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilLearning
import VigilSynth

@Suite("vigil train", .serialized)
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
                    for h in 1...6 { s.addTone(frequency: 420 * Double(h) + Double(k * 10), start: t, duration: 0.25, dBFS: -18 - Double(h) * 2) }
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

    @Test("training twice on the same data gives byte-identical model files, with a model card, even when the data's file times differ")
    func deterministic() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labels = try Self.makeDataset(in: dir)
        var outputs: [Data] = []
        for run in 0..<2 {
            // The same data copied at another time: the model must not record the files' times.
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(run) * 86_400)], ofItemAtPath: labels)
            let models = dir.appendingPathComponent("models\(run)")
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
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
            let model = try JSONValue.parse(outputs.last!)
            #expect(model["label"]?.stringValue == "dogBark" || model["trigger"]?.stringValue == "dogBark" || String(decoding: outputs.last!, as: UTF8.self).contains("dogBark"))
            #expect(FileManager.default.fileExists(atPath: models.appendingPathComponent("dogBark.md").path))
            let embedded = try String(contentsOfFile: embed, encoding: .utf8)
            #expect(embedded.contains("dogBark"))
        }
        #expect(outputs[0] == outputs[1])
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

    @Test("vigil train uses each label's recipe: personTalking teaches positives from 1 dB, dogBark from 3 dB; onsets lead by half a decision period; only dogBark splits on the burst values")
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
        #expect(!SoundModelTrainer.ignoredInputs(for: "dogBark").contains { burstInputs.contains($0) })
        for label in ["glassBreak", "personTalking"] {
            #expect(burstInputs.isSubset(of: Set(SoundModelTrainer.ignoredInputs(for: label))), "\(label) may split on the burst values")
        }
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
        #expect(result.stderr.contains("--out \(out): directory \(dir.appendingPathComponent("no-such-dir").path) does not exist"), "\(result.stderr)")
        let embed = dir.appendingPathComponent("missing/EmbeddedModels.swift").path
        let result2 = try CommandRunner.run([
            "train", "--labels", labels, audio, "--out", dir.appendingPathComponent("dogBark.json").path, "--embed", embed, "--no-progress",
        ])
        #expect(result2.status == 2)
        #expect(result2.stderr.contains("--embed \(embed): directory"), "\(result2.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("dogBark.json").path))
    }
}
