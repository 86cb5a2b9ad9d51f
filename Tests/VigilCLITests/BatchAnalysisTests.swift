import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilSynth

/// A directory of `count` short recordings with a loud burst each, in two subfolders.
func makeRecordings(count: Int, seconds: Double = 4, in dir: URL) throws {
    var generator = SeededGenerator(seed: 11)
    for k in 0..<count {
        var s = SignalBuffer(sampleRate: 16_000, duration: seconds)
        s.addNoise(dBFS: -60, generator: &generator)
        s.addNoise(dBFS: -12, start: 0.5 + Double(k % 5) * 0.5, duration: 0.4, generator: &generator)
        let sub = dir.appendingPathComponent(k % 2 == 0 ? "cam-a" : "cam-b")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try AudioFileWriter.write(
            s.samples, sampleRate: 16_000, format: .flac16, to: sub.appendingPathComponent(String(format: "rec%03d.flac", k)).path)
    }
}

/// Every file below `dir` with its contents, by relative path.
func tree(_ dir: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: dir.path)
    while let relative = walker?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let path = dir.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            out[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return out
}

@Suite("Batch analysis", .serialized)
struct BatchAnalysisTests {
    @Test("--jobs 1 and --jobs 4 give byte-identical output")
    func jobsInvariance() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 12, in: inputs)
        let one = try CommandRunner.run(["analyze", inputs.path, "--format", "jsonl", "--jobs", "1", "--out", dir.appendingPathComponent("o1").path])
        let four = try CommandRunner.run(["analyze", inputs.path, "--format", "jsonl", "--jobs", "4", "--out", dir.appendingPathComponent("o4").path])
        #expect(one.status == 0 && four.status == 0)
        #expect(one.lines.count >= 12)
        #expect(one.stdout == four.stdout)
        let a = try tree(dir.appendingPathComponent("o1"))
        let b = try tree(dir.appendingPathComponent("o4"))
        #expect(a.count == 12 * 4 + 2)  // events.jsonl, events.tsv, report.png, done.json per recording; summary.json/tsv
        #expect(a == b)
        let summary = try JSONValue.parse(try #require(a["summary.json"]))
        #expect(summary["recordings"]?.intValue == 12)
        #expect(summary["byTrigger"]?["sound"]?.intValue == 12)
    }

    @Test("a run killed midway resumes to the same result, with nothing corrupt or duplicated")
    func killAndResume() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 24, seconds: 10, in: inputs)
        let reference = dir.appendingPathComponent("reference")
        let full = try CommandRunner.run(["analyze", inputs.path, "--format", "jsonl", "--jobs", "2", "--out", reference.path])
        #expect(full.status == 0)

        let out = dir.appendingPathComponent("out")
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["analyze", inputs.path, "--format", "jsonl", "--jobs", "1", "--out", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once a few recordings are complete, but before all are.
        var completed = 0
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            completed = (try? tree(out).keys.filter { $0.hasSuffix("done.json") }.count) ?? 0
            if completed >= 3 {
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let killedMidway = process.terminationReason == .uncaughtSignal
        #expect(killedMidway, "the run finished before it could be killed; make it longer")
        let partial = try tree(out)
        #expect(partial.keys.filter { $0.hasSuffix("done.json") }.count < 24)
        #expect(partial["summary.json"] == nil)

        let resumed = try CommandRunner.run(["analyze", inputs.path, "--format", "jsonl", "--jobs", "2", "--out", out.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resumed:"))
        #expect(resumed.stdout == full.stdout)
        let after = try tree(out)
        #expect(after.keys.allSatisfy { !$0.contains(".partial-") })
        #expect(after == (try tree(reference)))
    }

    @Test("shards are disjoint, cover every input, and their summaries merge into the whole")
    func shards() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 15, in: inputs)
        let whole = dir.appendingPathComponent("whole")
        #expect(try CommandRunner.run(["analyze", inputs.path, "--format", "tsv", "--out", whole.path, "--triggers", "sound"]).status == 0)
        var shardOutputs: [String] = []
        var files: [String] = []
        for i in 0..<3 {
            let out = dir.appendingPathComponent("shard\(i)").path
            shardOutputs.append(out)
            let r = try CommandRunner.run(["analyze", inputs.path, "--format", "tsv", "--shard", "\(i)/3", "--out", out, "--triggers", "sound"])
            #expect(r.status == 0)
            files += r.lines.map { String($0.split(separator: "\t")[0]) }
        }
        #expect(files.count == 15)
        #expect(Set(files).count == 15)
        let merged = dir.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["summary", "merge"] + shardOutputs + ["--out", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(
            try Data(contentsOf: merged.appendingPathComponent("summary.json"))
                == Data(contentsOf: whole.appendingPathComponent("summary.json")))
        #expect(
            try Data(contentsOf: merged.appendingPathComponent("summary.tsv"))
                == Data(contentsOf: whole.appendingPathComponent("summary.tsv")))
        let bad = try CommandRunner.run(["analyze", inputs.path, "--shard", "3/3"])
        #expect(bad.status == 2)
    }

    @Test("--force analyzes complete recordings again; a changed input is analyzed again without it")
    func forceAndChangedInputs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 3, in: inputs)
        let out = dir.appendingPathComponent("out").path
        #expect(try CommandRunner.run(["analyze", inputs.path, "--out", out, "--format", "tsv"]).status == 0)
        let again = try CommandRunner.run(["analyze", inputs.path, "--out", out, "--format", "tsv"])
        #expect(again.stderr.contains("resumed: 3 of 3"))
        let forced = try CommandRunner.run(["analyze", inputs.path, "--out", out, "--format", "tsv", "--force"])
        #expect(!forced.stderr.contains("resumed:"))
        #expect(forced.stdout == again.stdout)
        // Replace one recording: it no longer matches its marker.
        var s = SignalBuffer(sampleRate: 16_000, duration: 4)
        s.addTone(frequency: 700, start: 2, duration: 1, dBFS: -10)
        try AudioFileWriter.write(s.samples, sampleRate: 16_000, format: .flac16, to: inputs.appendingPathComponent("cam-a/rec000.flac").path)
        let changed = try CommandRunner.run(["analyze", inputs.path, "--out", out, "--format", "tsv"])
        #expect(changed.stderr.contains("resumed: 2 of 3"))
    }
}
