import Foundation
import Testing
import VigilCore
import VigilTestSupport

/// ../shared/data/motion beside the package (real footage with per-pixel ground truth), if present.
let sharedMotionDirectory = CommandRunner.packageRoot.appendingPathComponent("../shared/data/motion").standardizedFileURL
let sharedMotionAvailable = FileManager.default.fileExists(atPath: sharedMotionDirectory.appendingPathComponent("IBMtest2/input.mp4").path)
/// Whether the ffmpeg command is installed (Debian package ffmpeg; `vigil bench motion` decodes MP4 with it).
let ffmpegAvailable = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg")
}

@Suite("vigil bench motion", .serialized)
struct BenchMotionTests {
    @Test("a SETS_DIR that is not a directory is a usage error naming it")
    func badSetsDirectory() throws {
        let result = try CommandRunner.run(["bench", "motion", "no-such-motion-sets"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no-such-motion-sets"), "\(result.stderr)")
    }

    @Test(
        "scores a real sequence (IBMtest2); a sequence folder missing files is an error naming it, the others are still scored",
        .enabled(if: sharedMotionAvailable, "needs ../shared/data/motion (not part of a plain clone)"),
        .enabled(if: ffmpegAvailable, "needs the ffmpeg command (Debian package ffmpeg)"))
    func realSequence() throws {
        let sets = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: sets) }
        try FileManager.default.createSymbolicLink(
            at: sets.appendingPathComponent("IBMtest2"), withDestinationURL: sharedMotionDirectory.appendingPathComponent("IBMtest2"))
        let broken = sets.appendingPathComponent("Broken")
        try FileManager.default.createDirectory(at: broken.appendingPathComponent("groundtruth"), withIntermediateDirectories: true)
        try Data(#"{"scoredFrames": [0, 9]}"#.utf8).write(to: broken.appendingPathComponent("sequence.json"))
        let result = try CommandRunner.run(["bench", "motion", sets.path, "--json"])
        #expect(result.status == 1, "a failed sequence gives exit status 1")
        #expect(result.stderr.contains(broken.path) && result.stderr.contains("missing input.mp4"), "\(result.stderr)")
        let report = try JSONValue.parse(result.stdout)
        let sequences = try #require(report["sequences"]?.arrayValue)
        #expect(sequences.count == 1)
        let ibm = try #require(sequences.first)
        #expect(ibm["sequence"]?.stringValue == "IBMtest2")
        #expect(ibm["frames"]?.intValue == 90 && ibm["scoredFrames"]?.intValue == 90)
        // Every scored pixel is counted once: at most 90 frames of 320 x 240, positives present.
        let counts = ["truePositives", "falsePositives", "trueNegatives", "falseNegatives"].compactMap { ibm[$0]?.intValue }
        #expect(counts.count == 4 && counts.reduce(0, +) <= 90 * 320 * 240 && counts.reduce(0, +) > 80 * 320 * 240 / 2)
        #expect((counts[0] + counts[3]) > 0, "the ground truth has motion")
        let f = try #require(ibm["fMeasure"]?.doubleValue)
        let precision = try #require(ibm["precision"]?.doubleValue), recall = try #require(ibm["recall"]?.doubleValue)
        #expect(abs(f - 2 * precision * recall / (precision + recall)) < 1e-5)
        #expect(f > 0.3, "people walking in a lobby are found: F \(f)")
        #expect(report["mean"]?["fMeasure"]?.doubleValue == f)
        #expect(ibm["zoneF1"]?.doubleValue != nil && (ibm["msPerFrame"]?.doubleValue ?? 0) > 0)
        #expect(report["errors"]?.arrayValue?.count == 1)
        // The table names the sequence and the mean.
        let table = try CommandRunner.run(["bench", "motion", sets.path])
        #expect(table.stdout.contains("IBMtest2") && table.stdout.contains("mean"), "\(table.stdout)")
    }
}
