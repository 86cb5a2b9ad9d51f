import Foundation
import Testing
import VigilAnalysis
import VigilControl
import VigilCore
import VigilLive
import VigilVision

@testable import VigilPipeline

/// The pipeline's output, byte for byte, against outputs recorded with the `vigil` binary before
/// the pipeline moved into this library (Golden/; PNGs by their FNV-1a 64 hash): the demo scene
/// in every format, the output folder, a y4m clip, a PNG sequence with audio in images mode, and
/// live runs of a file and a y4m clip.
///
/// To record them again (from the package root; `porch.y4m` is ``PipelineFixtures/movingSquareY4M(seconds:)``
/// of 6 s, written to a directory D and analyzed from there so that records name it `porch.y4m`):
///
///     vigil analyze Samples/demo-scene.flac --device Samples/front-door.json --format jsonl   > demo-scene.jsonl
///     ... --format tsv > demo-scene.tsv; --format table > demo-scene.table.txt; --format jsonl --explain > demo-scene.explain.jsonl
///     ... --out O: O/summary.json, O/summary.tsv, O/demo-scene.flac/report.png (hash)
///     (cd D && vigil analyze --video porch.y4m --device .../front-door.json --format jsonl) > porch.jsonl; with --out O:
///         O/summary.json > porch.summary.json, O/porch.y4m/report.png (hash)
///     vigil analyze --frames Samples/demo-frames --fps 10 --audio Samples/demo-scene.flac --device IMAGES --out O
///         (IMAGES: front-door.json with "selectedRecordingMode": 3): O/demo-frames/events.jsonl, report.png and
///         snapshots/1.png, 2.png (hashes)
///     vigil live Samples/demo-scene.flac --speed 0 --listen 127.0.0.1:0 --device Samples/front-door.json > live-demo-scene.jsonl
///     (cd D && vigil live porch.y4m --speed 0 --listen 127.0.0.1:0 --device .../front-door.json) > live-porch.jsonl
@Suite struct GoldenOutputTests {
    enum Format: String, CaseIterable { case jsonl, tsv, table }

    /// `vigil analyze Samples/demo-scene.flac --device Samples/front-door.json --format F`.
    @Test(arguments: Format.allCases)
    func demoSceneInEachFormat(format: Format) throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "out")
        let sink: any EventSink =
            switch format {
            case .jsonl: JSONLinesSink(handle: handle)
            case .tsv: TSVSink(handle: handle)
            case .table: TableSink(handle: handle)
            }
        let (loaded, plan) = try PipelineFixtures.plan()
        let run = AnalysisRun(sinks: [sink], messages: { _ in })
        let (recordings, problems) = InputDiscovery.expand([PipelineFixtures.demoScene])
        #expect(problems.isEmpty)
        let batch = BatchAnalysis(plan: plan, jobs: 1, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(recordings, with: batch, progress: ProgressBar(totalSeconds: 0, totalItems: 1, enabled: false))
        run.finish()
        try handle.close()
        let expected = ["jsonl": "demo-scene.jsonl", "tsv": "demo-scene.tsv", "table": "demo-scene.table.txt"][format.rawValue]!
        #expect(try String(contentsOf: url, encoding: .utf8) == PipelineFixtures.golden(expected))
        #expect(run.failures == 0)
    }

    /// `--explain`: suppressed candidates with their rules.
    @Test func demoSceneExplained() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "out.jsonl")
        let (loaded, plan) = try PipelineFixtures.plan(explain: true)
        let run = AnalysisRun(sinks: [JSONLinesSink(handle: handle)], messages: { _ in })
        let batch = BatchAnalysis(plan: plan, jobs: 1, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(
            InputDiscovery.expand([PipelineFixtures.demoScene]).recordings, with: batch,
            progress: ProgressBar(totalSeconds: 0, totalItems: 1, enabled: false))
        run.finish()
        try handle.close()
        #expect(try String(contentsOf: url, encoding: .utf8) == PipelineFixtures.golden("demo-scene.explain.jsonl"))
    }

    /// `--out DIR`: events.jsonl, events.tsv, report.png, summary.json, summary.tsv.
    @Test func demoSceneOutputFolder() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (loaded, plan) = try PipelineFixtures.plan()
        let collected = CollectingSink()
        let run = AnalysisRun(sinks: [collected, OutputFolderSink(directory: dir.path)], messages: { _ in })
        let batch = BatchAnalysis(
            plan: plan, jobs: 1, outputDirectory: dir.path, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(
            InputDiscovery.expand([PipelineFixtures.demoScene]).recordings, with: batch,
            progress: ProgressBar(totalSeconds: 0, totalItems: 1, enabled: false))
        run.finish()
        let folder = dir.appendingPathComponent("demo-scene.flac")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
                == PipelineFixtures.golden("demo-scene.jsonl"))
        #expect(
            try String(contentsOf: folder.appendingPathComponent("events.tsv"), encoding: .utf8)
                == PipelineFixtures.golden("demo-scene.tsv"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("summary.json"), encoding: .utf8)
                == PipelineFixtures.golden("demo-scene.summary.json"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("summary.tsv"), encoding: .utf8)
                == PipelineFixtures.golden("demo-scene.summary.tsv"))
        let report = try Data(contentsOf: folder.appendingPathComponent("report.png"))
        #expect(try PipelineFixtures.fnv1a(report) == PipelineFixtures.goldenPNGHash("demo-scene.report.png"))
        #expect(collected.finished.count == 1 && collected.finishCalls == 1)
    }

    /// `vigil analyze --video porch.y4m --device Samples/front-door.json --out DIR`.
    @Test func y4mClip() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("porch.y4m")
        try PipelineFixtures.movingSquareY4M(seconds: 6).write(to: clip)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "out.jsonl")
        let (loaded, plan) = try PipelineFixtures.plan()
        let analyzer = VideoAnalyzer(
            plan: plan, motion: MotionConfiguration(device: loaded.device, anchor: .anyPixel), overlay: ZoneOverlay(device: loaded.device),
            drawReport: true)
        let run = AnalysisRun(sinks: [JSONLinesSink(handle: handle), OutputFolderSink(directory: out.path)], messages: { _ in })
        run.analyzeVideo(
            .y4m(path: clip.path), as: InputRecording(path: clip.path, displayName: "porch.y4m"), audioPath: nil, with: analyzer,
            snapshotDirectory: nil, fingerprint: "test", limits: .default)
        run.finish()
        try handle.close()
        #expect(try String(contentsOf: url, encoding: .utf8) == PipelineFixtures.golden("porch.jsonl"))
        #expect(
            try String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8)
                == PipelineFixtures.golden("porch.summary.json"))
        let report = try Data(contentsOf: out.appendingPathComponent("porch.y4m/report.png"))
        #expect(try PipelineFixtures.fnv1a(report) == PipelineFixtures.goldenPNGHash("porch.report.png"))
    }

    /// Images mode: `--frames Samples/demo-frames --fps 10 --audio Samples/demo-scene.flac --out DIR`
    /// writes a snapshot per event.
    @Test func pngSequenceWithAudioInImagesMode() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deviceText = try String(contentsOfFile: PipelineFixtures.deviceFile, encoding: .utf8)
            .replacingOccurrences(of: "\"selectedRecordingMode\": 1", with: "\"selectedRecordingMode\": 3")
        let device = dir.appendingPathComponent("images.json")
        try deviceText.write(to: device, atomically: true, encoding: .utf8)
        let (loaded, plan) = try PipelineFixtures.plan(device: device.path)
        #expect(plan.policy.recordingMode == .images)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let recording = InputRecording(path: PipelineFixtures.demoFrames, displayName: PipelineFixtures.demoFrames)
        let snapshots = (RecordingOutputWriter.directory(for: recording, under: out.path) as NSString).appendingPathComponent("snapshots")
        let analyzer = VideoAnalyzer(
            plan: plan, motion: MotionConfiguration(device: loaded.device, anchor: .anyPixel), overlay: ZoneOverlay(device: loaded.device),
            drawReport: true)
        let run = AnalysisRun(sinks: [OutputFolderSink(directory: out.path)], messages: { _ in })
        run.analyzeVideo(
            .pngSequence(directory: PipelineFixtures.demoFrames, framesPerSecond: 10), as: recording, audioPath: PipelineFixtures.demoScene,
            with: analyzer, snapshotDirectory: snapshots, fingerprint: "test", limits: .default)
        run.finish()
        let folder = out.appendingPathComponent("demo-frames")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
                == PipelineFixtures.golden("demo-frames-images.jsonl"))
        for (file, key) in [("report.png", "report.png"), ("snapshots/1.png", "snapshot-1.png"), ("snapshots/2.png", "snapshot-2.png")] {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(try PipelineFixtures.fnv1a(bytes) == PipelineFixtures.goldenPNGHash("demo-frames-images.\(key)"), "\(file)")
        }
    }

    /// `vigil live SOURCE --speed 0` on the demo scene and on the y4m clip: the stdout stream.
    @Test(arguments: [false, true])
    func liveRun(video: Bool) async throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "live.jsonl")
        let loaded = try LoadedDevice.load(path: PipelineFixtures.deviceFile)
        let metrics = LiveMetrics()
        let hub = EventHub(metrics: metrics)
        let controller = DeviceController(device: loaded.device)
        let sink = JSONLinesSink(handle: handle)
        let source: any MediaSource
        let session: LiveSession
        if video {
            let clip = dir.appendingPathComponent("porch.y4m")
            try PipelineFixtures.movingSquareY4M(seconds: 6).write(to: clip)
            source = try Y4MVideoSource(path: clip.path, name: "porch.y4m")
            session = LiveSession(videoSourceName: source.name, device: controller, hub: hub, metrics: metrics, sinks: [sink])
        } else {
            let audio = try FileAudioSource(path: PipelineFixtures.demoScene)
            source = audio
            session = LiveSession(
                sampleRate: audio.sampleRate, sourceName: audio.name, device: controller, settings: loaded.settings, hub: hub,
                metrics: metrics, sinks: [sink])
        }
        let runner = LiveRunner(session: session, source: source, options: LiveRunner.Options(speed: 0))
        runner.start()
        await runner.wait()
        try handle.close()
        #expect(
            try String(contentsOf: url, encoding: .utf8) == PipelineFixtures.golden(video ? "live-porch.jsonl" : "live-demo-scene.jsonl"))
        #expect(hub.isClosed)
    }
}
