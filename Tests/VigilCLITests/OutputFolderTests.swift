import Foundation
import Testing
import VigilCore
import VigilTestSupport

/// Samples/front-door.json switched to images recording mode (a snapshot per event).
private func imagesModeDevice(in dir: URL) throws -> URL {
    let text = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Samples/front-door.json"), encoding: .utf8)
    let images = text.replacingOccurrences(of: "\"selectedRecordingMode\": 1", with: "\"selectedRecordingMode\": 3")
    #expect(images != text)
    let url = dir.appendingPathComponent("images-door.json")
    try Data(images.utf8).write(to: url)
    return url
}

/// The files below `dir`, as sorted relative paths.
private func files(_ dir: URL) throws -> [String] { try tree(dir).keys.sorted() }

@Suite("vigil analyze --out: result folders", .serialized)
struct OutputFolderTests {
    @Test("a recording analyzed again keeps only this run's snapshots in its folder")
    func reanalysisRemovesStaleOutputs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = try imagesModeDevice(in: dir)
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("Samples/demo-frames"), to: dir.appendingPathComponent("frames"))
        let out = dir.appendingPathComponent("out")
        let video = ["analyze", "--frames", "frames", "--fps", "10", "--device", device.path, "--format", "jsonl", "--out", out.path]
        // With the audio: motion and sound events, several snapshots.
        let first = try CommandRunner.run(
            video + ["--audio", CommandRunner.packageRoot.appendingPathComponent("Samples/demo-scene.flac").path], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let folder = out.appendingPathComponent("frames")
        let firstSnapshots = try files(folder).filter { $0.hasPrefix("snapshots/") }
        #expect(firstSnapshots.count >= 2, "\(firstSnapshots)")
        #expect(try files(folder).contains("report.png"))

        // The same recording without the audio: fewer events.
        let second = try CommandRunner.run(video, in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        let indices = try parseLines(second).compactMap { $0["snapshot"]?["index"]?.intValue }.sorted()
        #expect(!indices.isEmpty && indices.count < firstSnapshots.count)
        let expected = (["done.json", "events.jsonl", "events.tsv", "report.png"] + indices.map { "snapshots/\($0).png" }).sorted()
        #expect(try files(folder) == expected)
    }

    @Test("--no-report writes every output but report.png")
    func noReport() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--out", out.path, "--no-report", "--format", "tsv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try files(out) == [
                "demo-scene.flac/done.json", "demo-scene.flac/events.jsonl", "demo-scene.flac/events.tsv", "summary.json", "summary.tsv",
            ])
        #expect(try String(contentsOf: out.appendingPathComponent("demo-scene.flac/events.tsv"), encoding: .utf8) == result.stdout)
        // The same run with the report is not taken as complete: report.png is drawn.
        let withReport = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--out", out.path, "--format", "tsv"])
        #expect(withReport.status == 0 && !withReport.stderr.contains("resumed:"), "\(withReport.stderr)")
        #expect(try files(out).contains("demo-scene.flac/report.png"))
        let help = try CommandRunner.run(["analyze", "--help"])
        #expect(help.stdout.contains("--no-report"))
        let alone = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--no-report"])
        #expect(alone.status == 2 && alone.stderr.contains("--no-report"), "\(alone.stderr)")
    }

    @Test("result folders are named relative to the input given: a file by its name, a directory's files by the path below it")
    func folderNames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 2, seconds: 1, in: inputs)
        let out = dir.appendingPathComponent("out")
        let absoluteFile = CommandRunner.packageRoot.appendingPathComponent("Samples/demo-scene.flac").path
        let result = try CommandRunner.run(["analyze", absoluteFile, inputs.path, "--out", out.path, "--format", "tsv"])
        #expect(result.status == 0, "\(result.stderr)")
        let folders = try files(out).filter { $0.hasSuffix("/done.json") }.map { String($0.dropLast("/done.json".count)) }
        #expect(folders == ["cam-a/rec000.flac", "cam-b/rec001.flac", "demo-scene.flac"])
    }

    @Test("two inputs that would share a result folder are refused, naming both, before anything is written")
    func folderCollision() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["a", "b"] {
            try makeRecordings(count: 1, seconds: 1, in: dir.appendingPathComponent(sub))
        }
        let out = dir.appendingPathComponent("out")
        let a = dir.appendingPathComponent("a/cam-a/rec000.flac").path, b = dir.appendingPathComponent("b/cam-a/rec000.flac").path
        let files = try CommandRunner.run(["analyze", a, b, "--out", out.path, "--format", "tsv"])
        #expect(files.status == 2)
        #expect(files.stderr.contains(a) && files.stderr.contains(b) && files.stderr.contains("rec000.flac"), "\(files.stderr)")
        #expect(files.stdout.isEmpty)
        #expect((try? tree(out))?.isEmpty ?? true)
        // Two directories with the same layout collide the same way; without --out nothing collides.
        let directories = try CommandRunner.run(
            ["analyze", dir.appendingPathComponent("a").path, dir.appendingPathComponent("b").path, "--out", out.path, "--format", "tsv"])
        #expect(directories.status == 2 && directories.stderr.contains("cam-a/rec000.flac"), "\(directories.stderr)")
        #expect(try CommandRunner.run(["analyze", a, b, "--format", "tsv"]).status == 0)
    }

    @Test("an --out holding results of other recordings is refused with the folder and how to proceed; resuming and shards still work")
    func foreignResults() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try makeRecordings(count: 4, seconds: 1, in: inputs)
        let out = dir.appendingPathComponent("out")
        let archive = ["analyze", inputs.path, "--out", out.path, "--format", "tsv"]
        #expect(try CommandRunner.run(archive).status == 0)
        let before = try tree(out)

        let one = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--out", out.path, "--format", "tsv"])
        #expect(one.status == 2)
        #expect(
            one.stderr.contains(out.path) && one.stderr.contains("4 recordings") && one.stderr.contains("cam-a/rec000.flac"),
            "\(one.stderr)")
        #expect(one.stderr.contains("use another --out directory"), "\(one.stderr)")
        #expect(try tree(out) == before, "a refused run changed the output directory")

        // The same command resumes; a shard of it writes into the same directory.
        let again = try CommandRunner.run(archive)
        #expect(again.status == 0 && again.stderr.contains("resumed: 4 of 4"), "\(again.stderr)")
        let shard = try CommandRunner.run(archive + ["--shard", "0/2"])
        #expect(shard.status == 0, "\(shard.stderr)")
    }
}
