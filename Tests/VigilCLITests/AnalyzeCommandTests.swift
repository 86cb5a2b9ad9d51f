import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilSynth
import VigilTestSupport

/// A fresh temporary directory, removed when the test process exits.
func temporaryDirectory() throws -> URL { try TestProcesses.temporaryDirectory(prefix: "vigil-cli") }

/// Parses JSON Lines output.
func parseLines(_ result: CommandRunner.Result) throws -> [JSONValue] {
    try result.lines.map { try JSONValue.parse($0) }
}

@Suite("vigil analyze", .serialized)
struct AnalyzeCommandTests {
    @Test("--help documents the command and its options")
    func help() throws {
        let root = try CommandRunner.run(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("analyze"))
        let analyze = try CommandRunner.run(["analyze", "--help"])
        #expect(analyze.status == 0)
        for option in ["--device", "--format", "--out", "--explain", "Exit status"] {
            #expect(analyze.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test("the demo sample gives its sound events as JSON Lines, the same on every run")
    func demoSample() throws {
        let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try parseLines(result)
        let events = records.filter { $0["type"]?.stringValue == "event" }
        let sounds = events.filter { $0["trigger"]?.stringValue == "sound" }
        // Knocks at 3 s, a beep at 10 s, the alarm from 18 s.
        for expected in [3.0, 10.0, 18.0] {
            #expect(sounds.contains { abs(($0["start"]?.doubleValue ?? -99) - expected) < 0.1 }, "no sound near \(expected) s")
        }
        for event in events {
            #expect(event["v"]?.intValue == 1)
            #expect(event["file"]?.stringValue == "Samples/demo-scene.flac")
            for key in ["start", "end", "detectedAt", "confidence"] { #expect(event[key]?.doubleValue != nil, "missing \(key)") }
            // The default device records ebr clips.
            #expect(event["clip"]?["kind"]?.stringValue == "clip" || event["clip"] == nil)
        }
        let again = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--format", "jsonl"])
        #expect(again.stdout == result.stdout)
    }

    @Test("bad inputs get clear errors while the good ones are still analyzed")
    func badInputsInABatch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A good recording: a loud burst at 1 s.
        var gen = SeededGenerator(seed: 9)
        var good = SignalBuffer(sampleRate: 16_000, duration: 3)
        good.addNoise(dBFS: -60, generator: &gen)
        good.addNoise(dBFS: -10, start: 1, duration: 0.5, generator: &gen)
        try AudioFileWriter.write(good.samples, sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("good.wav").path)
        // Zero bytes.
        #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent("empty.wav").path, contents: Data()))
        // Truncated: the header promises 3 s, the file holds 0.5 s. Contains a burst at 0.2 s.
        var cut = SignalBuffer(sampleRate: 16_000, duration: 3)
        cut.addNoise(dBFS: -60, generator: &gen)
        cut.addNoise(dBFS: -10, start: 0.2, duration: 0.2, generator: &gen)
        let full = dir.appendingPathComponent("full.tmp").path
        try AudioFileWriter.write(cut.samples, sampleRate: 16_000, format: .wav16, to: full)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        try bytes.prefix(44 + 2 * 8_000).write(to: dir.appendingPathComponent("truncated.wav"))
        try FileManager.default.removeItem(atPath: full)
        // A text file named .wav.
        try "hello\n".write(to: dir.appendingPathComponent("text.wav"), atomically: true, encoding: .utf8)
        // A float WAV full of NaN, and a one-sample file.
        try AudioFileWriter.write(
            [Float](repeating: .nan, count: 16_000), sampleRate: 16_000, format: .wavFloat,
            to: dir.appendingPathComponent("nan.wav").path)
        try AudioFileWriter.write([0.9], sampleRate: 16_000, format: .wav16, to: dir.appendingPathComponent("one.wav").path)

        let result = try CommandRunner.run(["analyze", dir.path, "--format", "jsonl", "--triggers", "sound"])
        #expect(result.status == 1)
        let all = try parseLines(result)
        func records(_ file: String, _ type: String) -> [JSONValue] {
            all.filter { $0["file"]?.stringValue == file && $0["type"]?.stringValue == type }
        }
        #expect(records("good.wav", "event").count == 1)
        #expect(records("good.wav", "error").isEmpty)
        #expect(records("empty.wav", "error").first?["kind"]?.stringValue == "empty")
        #expect(records("text.wav", "error").first?["kind"]?.stringValue == "unsupportedFormat")
        #expect(records("truncated.wav", "error").first?["kind"]?.stringValue == "truncated")
        // What the truncated file did hold was still analyzed.
        #expect(records("truncated.wav", "event").count == 1)
        #expect(records("nan.wav", "event").isEmpty)
        #expect(records("nan.wav", "warning").first?["message"]?.stringValue?.contains("non-finite") == true)
        #expect(records("one.wav", "event").isEmpty)
        #expect(records("one.wav", "warning").first?["message"]?.stringValue?.contains("shorter than one analysis frame") == true)
        for name in ["empty.wav", "text.wav", "truncated.wav"] {
            #expect(result.stderr.contains(name), "stderr does not name \(name)")
        }
    }

    @Test("TSV names files relative to the directory argument, or as given")
    func tsvNames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("cam1")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        var s = SignalBuffer(sampleRate: 8_000, duration: 2)
        s.addTone(frequency: 500, start: 1, duration: 0.5, dBFS: -10)
        try AudioFileWriter.write(s.samples, sampleRate: 8_000, format: .flac16, to: sub.appendingPathComponent("a.flac").path)
        let viaDirectory = try CommandRunner.run(["analyze", dir.path, "--format", "tsv", "--triggers", "sound"])
        #expect(viaDirectory.status == 0)
        let fields = viaDirectory.lines.first?.split(separator: "\t").map(String.init) ?? []
        #expect(fields.count == 4)
        #expect(fields.first == "cam1/a.flac")
        #expect(fields.last == "sound")
        #expect(Double(fields[1]).map { abs($0 - 1) < 0.05 } == true)
        let viaFile = try CommandRunner.run(["analyze", "cam1/a.flac", "--format", "tsv", "--triggers", "sound"], in: dir)
        #expect(viaFile.lines.first?.hasPrefix("cam1/a.flac\t") == true)
    }

    @Test(
        "usage errors exit with status 2",
        arguments: [
            ["analyze"], ["analyze", "x.wav", "--format", "xml"], ["analyze", "x.wav", "--sensitivity", "11"],
            ["analyze", "x.wav", "--sensitivity", "motion=3"], ["analyze", "x.wav", "--triggers", "sound,barking"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test("--out writes events.jsonl and events.tsv per recording")
    func outDirectory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--out", dir.path, "--format", "tsv"])
        #expect(result.status == 0)
        let base = dir.appendingPathComponent("demo-scene.flac")
        let jsonl = try String(contentsOf: base.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let tsv = try String(contentsOf: base.appendingPathComponent("events.tsv"), encoding: .utf8)
        #expect(tsv == result.stdout)
        #expect(jsonl.split(separator: "\n").count >= tsv.split(separator: "\n").count)
        let png = try Data(contentsOf: base.appendingPathComponent("report.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("done.json").path))
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("events.jsonl.partial").path))
    }
}
