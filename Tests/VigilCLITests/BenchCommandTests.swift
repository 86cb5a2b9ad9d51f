import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilSynth
import VigilTestSupport

/// Where the shared development data lives (../shared/data beside the package), if present.
let sharedDevDirectory = CommandRunner.packageRoot.appendingPathComponent("../shared/data/dev").standardizedFileURL
let sharedDevAvailable = FileManager.default.fileExists(atPath: sharedDevDirectory.appendingPathComponent("labels.tsv").path)

@Suite("vigil bench", .serialized)
struct BenchCommandTests {
    @Test(
        "bench accuracy --system reproduces sed_eval's numbers for the same detection file on the dev set",
        .enabled(if: sharedDevAvailable, "needs ../shared/data/dev (not part of a plain clone)"))
    func reproducesSedEval() throws {
        let fixtures = CommandRunner.packageRoot.appendingPathComponent("Benchmarks/dev-system-fixture")
        let result = try CommandRunner.run([
            "bench", "accuracy", "--labels", sharedDevDirectory.appendingPathComponent("labels.tsv").path,
            sharedDevDirectory.appendingPathComponent("audio").path, "--system",
            fixtures.appendingPathComponent("dev_system.tsv").path, "--json", "--count-voice-background",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try JSONValue.parse(result.stdout)
        let expected = try JSONValue.parse(
            String(contentsOf: fixtures.appendingPathComponent("dev_system_expected.json"), encoding: .utf8))
        #expect(ours["files"]?.intValue == expected["files"]?.intValue)
        var compared = 0
        for scoring in ["eventBased", "eventBasedSedEvalDefault", "segmentBased"] {
            var pairs: [(String, JSONValue?, JSONValue?)] = [("overall", ours[scoring]?["overall"], expected[scoring]?["overall"])]
            for label in expected["labels"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                pairs.append((label, ours[scoring]?["classWise"]?[label], expected[scoring]?["classWise"]?[label]))
            }
            for (name, mine, theirs) in pairs {
                for metric in ["f1", "precision", "recall", "errorRate"] {
                    let a = mine?[metric]?.doubleValue
                    let b = theirs?[metric]?.doubleValue
                    #expect(a != nil && b != nil, "\(scoring) \(name) \(metric) missing")
                    if let a, let b {
                        #expect(abs(a - b) <= 0.001, "\(scoring) \(name) \(metric): \(a) vs sed_eval \(b)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 3 * 6 * 4)
    }

    @Test("bench accuracy runs the detectors on a labeled directory and scores them")
    func runsDetectors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var gen = SeededGenerator(seed: 3)
        // Two recordings with loud bursts labeled `sound`, one quiet negative.
        var labels = ""
        for (k, starts) in [[1.0, 4.0], [2.5]].enumerated() {
            var s = SignalBuffer(sampleRate: 16_000, duration: 6)
            s.addNoise(dBFS: -60, generator: &gen)
            for t in starts {
                s.addNoise(dBFS: -12, start: t, duration: 0.5, generator: &gen)
                labels += "rec\(k).wav\t\(t)\t\(t + 0.5)\tsound\n"
            }
            try AudioFileWriter.write(s.samples, sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("rec\(k).wav").path)
        }
        var quiet = SignalBuffer(sampleRate: 16_000, duration: 6)
        quiet.addNoise(dBFS: -60, generator: &gen)
        try AudioFileWriter.write(quiet.samples, sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("quiet.wav").path)
        let labelPath = dir.appendingPathComponent("labels.tsv").path
        try labels.write(toFile: labelPath, atomically: true, encoding: .utf8)
        let systemPath = dir.appendingPathComponent("system.tsv").path
        let result = try CommandRunner.run([
            "bench", "accuracy", "--labels", labelPath, dir.path, "--json", "--jobs", "2", "--write-system", systemPath,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONValue.parse(result.stdout)
        #expect(report["files"]?.intValue == 3)
        #expect(report["eventBased"]?["classWise"]?["sound"]?["f1"]?.doubleValue == 1)
        #expect(report["falseAlarms"]?["sound"]?["falseAlarms"]?.intValue == 0)
        #expect(report["latency"]?["sound"]?["detected"]?.intValue == 3)
        // The written detection file scores the same through --system (for the labels both score).
        let again = try JSONValue.parse(
            try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, dir.path, "--json", "--system", systemPath]).stdout)
        #expect(again["eventBased"]?["classWise"]?["sound"] == report["eventBased"]?["classWise"]?["sound"])
        #expect(again["segmentBased"]?["classWise"]?["sound"] == report["segmentBased"]?["classWise"]?["sound"])
    }

    @Test(
        "bench accuracy: references of files not in the folder are one summary line (listed with --verbose and in JSON); lengths say what they count; --write-system times are milliseconds"
    )
    func summariesAndLengths() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var gen = SeededGenerator(seed: 4)
        var s = SignalBuffer(sampleRate: 16_000, duration: 8)
        s.addNoise(dBFS: -60, generator: &gen)
        s.addNoise(dBFS: -12, start: 1.3, duration: 0.5, generator: &gen)
        try AudioFileWriter.write(s.samples, sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("rec.wav").path)
        let audio = dir.path
        // One reference on the recording (ending at 1.8 s of its 8 s), three on files that are not there.
        var labels = "rec.wav\t1.3\t1.8\tsound\n"
        for k in 0..<3 { labels += "gone\(k).wav\t1\t2\tsound\n" }
        let labelPath = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString).tsv").path
        defer { try? FileManager.default.removeItem(atPath: labelPath) }
        try labels.write(toFile: labelPath, atomically: true, encoding: .utf8)
        let systemPath = FileManager.default.temporaryDirectory.appendingPathComponent("system-\(UUID().uuidString).tsv").path
        defer { try? FileManager.default.removeItem(atPath: systemPath) }

        let text = try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, audio, "--no-progress", "--write-system", systemPath])
        #expect(text.status == 0, "\(text.stderr)")
        let warnings = text.stderr.split(separator: "\n").filter {
            $0.contains("have references but are not in") || $0.contains("has references")
        }
        #expect(warnings.count == 1, "\(text.stderr)")
        #expect(warnings.first?.contains("3 files have references but are not in") == true, "\(text.stderr)")
        #expect(!text.stderr.contains("gone1.wav"))
        // The header gives the audio's length; each table says which length it sums.
        #expect(text.stdout.contains("1 files, 0.1 min of audio (8.00 s)"), "\(text.stdout)")
        #expect(text.stdout.contains("1.80 s evaluated (each file up to its last reference offset"), "\(text.stdout)")
        #expect(
            text.stdout.contains(" s evaluated (each file up to its last reference or detected offset, as sed_eval counts it)"),
            "\(text.stdout)")
        // Detection times in milliseconds.
        let system = try String(contentsOfFile: systemPath, encoding: .utf8)
        let rows = system.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row.count == 4, "\(system)")
            for time in row[1...2] { #expect(time.split(separator: ".").last?.count == 3, "\(system)") }
        }

        let verbose = try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, audio, "--no-progress", "--verbose"])
        for k in 0..<3 { #expect(verbose.stderr.contains("gone\(k).wav has references but is not in"), "\(verbose.stderr)") }
        let json = try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, audio, "--no-progress", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONValue.parse(json.stdout)
        #expect(report["filesNotInAudioDir"]?.arrayValue?.compactMap(\.stringValue) == ["gone0.wav", "gone1.wav", "gone2.wav"])
    }

    @Test(
        "bench accuracy says when the scored files are the shipped models' own training data, except for a label whose model --model replaced",
        .enabled(if: sharedDevAvailable, "needs ../shared/data/dev (not part of a plain clone)"))
    func shippedModelsTrainingData() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Six dev recordings (links, nothing copied): most dev files are in the models' training part.
        let listed = try String(contentsOf: sharedDevDirectory.appendingPathComponent("files.tsv"), encoding: .utf8)
        let names = listed.split(separator: "\n").prefix(6).compactMap { $0.split(separator: "\t").first.map(String.init) }
        for name in names {
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent(name), withDestinationURL: sharedDevDirectory.appendingPathComponent("audio/\(name)"))
        }
        let labels = sharedDevDirectory.appendingPathComponent("labels.tsv").path
        let copy = dir.appendingPathComponent("dogBark-copy.json")
        try FileManager.default.copyItem(at: CommandRunner.packageRoot.appendingPathComponent("Models/dogBark.json"), to: copy)
        let audio = dir.path
        let result = try CommandRunner.run([
            "bench", "accuracy", "--labels", labels, audio, "--no-progress", "--model", "dogBark=\(copy.path)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stdout.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        #expect(
            notes.contains {
                $0.contains("glassBreak:") && $0.contains("of the 6 scored files are training data of the shipped glassBreak model")
            }, "\(result.stdout)")
        #expect(notes.contains { $0.contains("personTalking:") && $0.contains("optimistic") }, "\(result.stdout)")
        #expect(!notes.contains { $0.contains("dogBark") }, "\(result.stdout)")
        let json = try JSONValue.parse(
            try CommandRunner.run(["bench", "accuracy", "--labels", labels, audio, "--no-progress", "--json"]).stdout)
        #expect((json["shippedModelTrainingData"]?["dogBark"]?["scoredTrainingFiles"]?.intValue ?? 0) > 0, "\(json)")
        // The figure to expect on unseen recordings is the cross-validated one the shipped model file records.
        let shipped = try JSONValue.parse(Data(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Models/dogBark.json")))
        let cv = try #require(shipped["training"]?["crossValidation"])
        let reported = json["shippedModelTrainingData"]?["dogBark"]?["crossValidated"]
        #expect(reported?["metric"]?.stringValue == "eventF1Collar0.5s")
        let meanOverFolds = try #require(reported?["mean"]?.doubleValue)
        #expect(abs(meanOverFolds - (cv["mean"]?.doubleValue ?? .nan)) <= 0.00005)
        #expect(reported?["worstFold"]?.doubleValue == cv["worst"]?.doubleValue)
        let text = try CommandRunner.run(["bench", "accuracy", "--labels", labels, audio, "--no-progress"]).stdout
        let personTalkingCV = try JSONValue.parse(
            Data(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Models/personTalking.json")))["training"]?["crossValidation"]
        let folds = try #require(personTalkingCV?["perFold"]?.arrayValue).compactMap { $0["segmentF1_1s"]?.doubleValue }
        let mean = folds.reduce(0, +) / Double(folds.count)
        #expect(
            text.split(separator: "\n").contains {
                $0.hasPrefix("note: personTalking:") && $0.contains("cross-validated segment F1 is \(DecimalText.fixed(mean, places: 3))")
            }, "\(text)")
    }

    @Test("bench accuracy does not count personTalking in voice-background material named by PROVENANCE.tsv, unless asked to")
    func voiceBackground() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var gen = SeededGenerator(seed: 5)
        for name in ["talk", "kids", "scene", "quiet"] {
            var s = SignalBuffer(sampleRate: 16_000, duration: 6)
            s.addNoise(dBFS: -50, generator: &gen)
            try AudioFileWriter.write(s.samples, sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("\(name).wav").path)
        }
        let labelPath = dir.appendingPathComponent("labels.tsv").path
        try "talk.wav\t1.0\t2.0\tpersonTalking\nscene.wav\t3.5\t4.0\tpersonTalking\n".write(
            toFile: labelPath, atomically: true, encoding: .utf8)
        // kids.wav is children playing throughout; scene.wav has children playing from 3 s to 5 s.
        try """
        filename\trole\tsource_class\tsource_repo\toriginal_path\tlicense\tlocal_path\tsrc_start_s\tsrc_end_s\tout_start_s
        kids.wav\tbackground\tnegative_children_playing\tr\to\tl\tkids/a.wav\t0\t6\t0
        scene.wav\tbackground\tnegative_children_playing\tr\to\tl\tkids/b.wav\t10\t12\t3
        scene.wav\tbackground\tnegative_vacuum\tr\to\tl\tvac/c.wav\t0\t3\t0

        """.write(toFile: dir.appendingPathComponent("PROVENANCE.tsv").path, atomically: true, encoding: .utf8)
        let systemPath = dir.appendingPathComponent("system.tsv").path
        try """
        talk.wav\t1.0\t2.0\tpersonTalking
        kids.wav\t1.0\t2.0\tpersonTalking
        scene.wav\t3.4\t4.1\tpersonTalking
        scene.wav\t4.5\t4.8\tpersonTalking
        scene.wav\t0.5\t1.0\tpersonTalking
        quiet.wav\t1.0\t2.0\tpersonTalking

        """.write(toFile: systemPath, atomically: true, encoding: .utf8)
        let base = ["bench", "accuracy", "--labels", labelPath, dir.path, "--system", systemPath, "--json"]

        // Default: PROVENANCE.tsv beside the labels applies. The detections starting in a region with
        // no speech annotated there (kids.wav 1-2 s, scene.wav 4.5-4.8 s) are left out; the one that
        // overlaps the speech annotated inside a region (scene.wav 3.4-4.1 s) is a hit; the one before
        // the region (scene.wav 0.5-1 s) is a false positive; kids.wav is no negative time.
        let ruled = try CommandRunner.run(base)
        #expect(ruled.status == 0, "\(ruled.stderr)")
        let r = try JSONValue.parse(ruled.stdout)
        let events = r["eventBased"]?["classWise"]?["personTalking"]
        #expect(events?["Ntp"]?.intValue == 2)
        #expect(events?["Nfp"]?.intValue == 2)
        #expect(events?["Nsys"]?.intValue == 4)
        let fa = r["falseAlarms"]?["personTalking"]
        #expect(fa?["falseAlarms"]?.intValue == 1)
        #expect(fa?["negativeSeconds"]?.doubleValue.map { abs($0 - 6) < 0.01 } == true, "\(String(describing: fa))")
        #expect(fa?["negativeFiles"]?.intValue == 1)
        #expect(r["notCounted"]?["personTalking"]?["regions"]?.intValue == 2)
        #expect(r["notCounted"]?["personTalking"]?["files"]?.intValue == 2)
        #expect(r["notCounted"]?["personTalking"]?["detections"]?.intValue == 2)
        let text = try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, dir.path, "--system", systemPath])
        #expect(
            text.stdout.contains(
                "personTalking: voice-background material not counted against it (2 regions in 2 files); 2 detections there left out"),
            "\(text.stdout)")

        // --count-voice-background: plain sed_eval, every detection counts.
        let plain = try JSONValue.parse(try CommandRunner.run(base + ["--count-voice-background"]).stdout)
        #expect(plain["eventBased"]?["classWise"]?["personTalking"]?["Nsys"]?.intValue == 6)
        #expect(plain["eventBased"]?["classWise"]?["personTalking"]?["Nfp"]?.intValue == 4)
        #expect(plain["falseAlarms"]?["personTalking"]?["falseAlarms"]?.intValue == 2)
        #expect(plain["notCounted"]?["personTalking"] == nil)

        // A named provenance file that is missing or has no PROVENANCE columns is a usage error naming it.
        let missing = try CommandRunner.run(base + ["--provenance", dir.appendingPathComponent("nope.tsv").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.tsv") && missing.stderr.contains("cannot read"), "\(missing.stderr)")
        let wrongPath = dir.appendingPathComponent("wrong.tsv").path
        try "a\tb\n1\t2\n".write(toFile: wrongPath, atomically: true, encoding: .utf8)
        let wrong = try CommandRunner.run(base + ["--provenance", wrongPath])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("wrong.tsv") && wrong.stderr.contains("source_class"), "\(wrong.stderr)")
        // So is a broken PROVENANCE.tsv beside the labels, found without the option.
        let beside = dir.appendingPathComponent("PROVENANCE.tsv").path
        try "a\tb\n1\t2\n".write(toFile: beside, atomically: true, encoding: .utf8)
        let broken = try CommandRunner.run(["bench", "accuracy", "--labels", labelPath, dir.path, "--json", "--no-progress"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains(beside) && broken.stderr.contains("source_class"), "\(broken.stderr)")
        #expect(broken.stdout.isEmpty)
    }

    @Test("bench accuracy reports a bad labels file with its line number, exit 2")
    func badLabels() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("labels.tsv").path
        try "a.wav\t1.0\t2.0\tsound\nb.wav\tx\t2\tsound\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["bench", "accuracy", "--labels", path, dir.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("line 2"), "\(result.stderr)")
    }

    @Test("bench kernels prints JSON with positive rates")
    func kernels() throws {
        let result = try CommandRunner.run(["bench", "kernels", "--repeat", "1", "--seconds", "0.05"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        #expect((json["stftFramesPerSecond"]?.doubleValue ?? 0) > 0)
        #expect((json["pointInPolygonPointsPerSecond"]?.doubleValue ?? 0) > 0)
        for size in ["640x360", "1280x720", "1920x1080"] {
            #expect((json["motionFramesPerSecond"]?[size]?.doubleValue ?? 0) > 0, "no motion figure at \(size)")
        }
        // Fixed work for instruction counting: one kernel, exactly N units.
        let fixed = try JSONValue.parse(try CommandRunner.run(["bench", "kernels", "--only", "pip", "--iterations", "2"]).stdout)
        #expect(fixed["iterations"]?.intValue == 2)
        #expect((fixed["pointInPolygonPointsPerSecond"]?.doubleValue ?? 0) > 0)
        #expect(fixed["stftFramesPerSecond"] == nil && fixed["motionFramesPerSecond"] == nil)
    }

    @Test("bench speed reports every detector, on one core and on all, and peak memory")
    func speed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var s = SignalBuffer(sampleRate: 22_050, duration: 5)
        s.addTone(frequency: 800, start: 1, duration: 1, dBFS: -10)
        let path = dir.appendingPathComponent("s.wav").path
        try AudioFileWriter.write(s.samples, sampleRate: 22_050, format: .wav16, to: path)
        let result = try CommandRunner.run(["bench", "speed", path, "--repeat", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        let names = json["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("decode only") && names.contains("sound"))
        // Every row, one core or all, carries both clocks' figures, each named for its clock.
        let rows = json["results"]?.arrayValue ?? []
        #expect(!rows.isEmpty && rows.allSatisfy { ($0["xRealTimePerCPUSecond"]?.doubleValue ?? 0) > 0 })
        #expect(rows.allSatisfy { ($0["xRealTimePerWallSecond"]?.doubleValue ?? 0) > 0 })
        #expect(rows.allSatisfy { $0["xRealTime"] == nil })
        let text = try CommandRunner.run(["bench", "speed", path, "--repeat", "1"])
        #expect(text.stdout.contains("X REAL TIME PER CPU S") && text.stdout.contains("X REAL TIME PER WALL S"), "\(text.stdout)")
        #expect((json["peakResidentBytes"]?.doubleValue ?? 0) > 0)
    }

    @Test("bench batch times the same batch with one job and with several")
    func batch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try makeRecordings(count: 4, seconds: 3, in: dir)
        let result = try CommandRunner.run(["bench", "batch", dir.path, "--jobs", "2", "--repeat", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        #expect(json["recordings"]?.intValue == 4)
        #expect(json["jobs"]?.intValue == 2)
        #expect((json["secondsOneJob"]?.doubleValue ?? 0) > 0 && (json["speedup"]?.doubleValue ?? 0) > 0)
    }
}
