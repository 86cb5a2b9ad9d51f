import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilSynth
import VigilTestSupport

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

/// Recordings whose durations are no whole number of milliseconds (sample rates 8 to 48 kHz, each a
/// fraction of a millisecond over a whole number), so that sums of their durations in seconds
/// depend on the order of addition and on rounding: the case where a run's totals can drift.
func makeAwkwardRecordings(in dir: URL) throws {
    var generator = SeededGenerator(seed: 5)
    let rates = [8_000, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000, 16_000, 11_025, 22_050]
    for (k, rate) in rates.enumerated() {
        // About 0.4 ms over k/3 + 1 seconds and 7 ms: rounding to milliseconds loses it every time.
        let count = rate * (k / 3 + 1) + rate * 7 / 1000 + rate * 4 / 10_000
        var s = SignalBuffer(sampleRate: Double(rate), duration: Double(count) / Double(rate))
        s.addNoise(dBFS: -50, generator: &generator)
        let sub = dir.appendingPathComponent(k % 2 == 0 ? "porch" : "yard")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try AudioFileWriter.write(
            Array(s.samples.prefix(count)), sampleRate: rate, format: .wav16,
            to: sub.appendingPathComponent(String(format: "clip%02d.wav", k)).path)
    }
}

@Suite("Batch analysis", .serialized)
struct BatchAnalysisTests {
    @Test("--jobs 1 and --jobs 4 give byte-identical output")
    func jobsInvariance() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 12, in: inputs)
        let one = try CommandRunner.run([
            "analyze", inputs.path, "--format", "jsonl", "--jobs", "1", "--out", dir.appendingPathComponent("o1").path,
        ])
        let four = try CommandRunner.run([
            "analyze", inputs.path, "--format", "jsonl", "--jobs", "4", "--out", dir.appendingPathComponent("o4").path,
        ])
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
            let r = try CommandRunner.run([
                "analyze", inputs.path, "--format", "tsv", "--shard", "\(i)/3", "--out", out, "--triggers", "sound",
            ])
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
        try AudioFileWriter.write(
            s.samples, sampleRate: 16_000, format: .flac16, to: inputs.appendingPathComponent("cam-a/rec000.flac").path)
        let changed = try CommandRunner.run(["analyze", inputs.path, "--out", out, "--format", "tsv"])
        #expect(changed.stderr.contains("resumed: 2 of 3"))
    }

    /// The summary of a run of the awkward recordings into `out`.
    private func summaryOf(_ arguments: [String], out: URL) throws -> Data {
        let r = try CommandRunner.run(["analyze"] + arguments + ["--format", "tsv", "--no-progress", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        return try Data(contentsOf: out.appendingPathComponent("summary.json"))
    }

    @Test("summary.json of recordings of awkward lengths is byte-identical for --jobs 1, --jobs 2, a resumed run and a merge of shards")
    func summaryTotalsAreExact() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeAwkwardRecordings(in: inputs)
        let reference = try summaryOf([inputs.path, "--jobs", "1"], out: dir.appendingPathComponent("jobs1"))
        let json = try JSONValue.parse(reference)
        #expect(json["recordings"]?.intValue == 10)
        // The total is the sum of the entries as written.
        let entries = try #require(json["files"]?.arrayValue)
        let entryMilliseconds = entries.map { Int64((($0["mediaSeconds"]?.doubleValue ?? -1) * 1000).rounded()) }
        #expect(Int64(((json["mediaSeconds"]?.doubleValue ?? -1) * 1000).rounded()) == entryMilliseconds.reduce(0, +))

        #expect(try summaryOf([inputs.path, "--jobs", "2"], out: dir.appendingPathComponent("jobs2")) == reference)

        // An interrupted run: half the recordings completed (their markers kept), the rest not, no summary yet.
        let resumed = dir.appendingPathComponent("resumed")
        _ = try summaryOf([inputs.path, "--jobs", "2"], out: resumed)
        try FileManager.default.removeItem(at: resumed.appendingPathComponent("summary.json"))
        for name in try tree(resumed).keys.sorted() where name.hasSuffix("done.json") && name.hasPrefix("yard/") {
            try FileManager.default.removeItem(at: resumed.appendingPathComponent(name))
        }
        let again = try CommandRunner.run(["analyze", inputs.path, "--format", "tsv", "--no-progress", "--out", resumed.path])
        #expect(again.stderr.contains("resumed: 5 of 10"), "\(again.stderr)")
        #expect(try Data(contentsOf: resumed.appendingPathComponent("summary.json")) == reference)

        // Two shards merged.
        var shards: [String] = []
        for i in 0..<2 {
            let out = dir.appendingPathComponent("shard\(i)")
            let part = try JSONValue.parse(try summaryOf([inputs.path, "--shard", "\(i)/2"], out: out))
            #expect((part["recordings"]?.intValue ?? 0) > 0, "shard \(i)/2 is empty; choose other file names")
            shards.append(out.path)
        }
        let merged = dir.appendingPathComponent("merged")
        let merge = try CommandRunner.run(["summary", "merge"] + shards + ["--out", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try Data(contentsOf: merged.appendingPathComponent("summary.json")) == reference)
        #expect(
            try Data(contentsOf: merged.appendingPathComponent("summary.tsv"))
                == Data(contentsOf: dir.appendingPathComponent("jobs1/summary.tsv")))
    }

    @Test(
        "summary.json of the dev set is the same after resuming every recording",
        .enabled(if: FileManager.default.fileExists(atPath: sharedDevDirectory.path), "needs ../shared/data/dev"))
    func devSetTotalsAfterResume() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let arguments = [sharedDevDirectory.path, "--no-report", "--triggers", "sound"]
        let fresh = try summaryOf(arguments, out: out)
        try FileManager.default.removeItem(at: out.appendingPathComponent("summary.json"))
        #expect(try summaryOf(arguments, out: out) == fresh)
    }
}
