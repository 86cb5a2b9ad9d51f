import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilFrameIO
import VigilImaging
import VigilMedia
import VigilSynth

@testable import VigilPipeline

/// Each source on real signals (the demo scene, a synthesized y4m clip and tone), and bad input.
@Suite struct SourceTests {
    /// Reads `source` to its end in blocks of `block` samples.
    static func readAll(_ source: any AudioSource, block: Int = 4096) throws -> [Float] {
        var all: [Float] = []
        var buffer = [Float](repeating: 0, count: block)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if n == 0 { return all }
            all += buffer[0..<n]
        }
    }

    @Test func fileSourceReadsTheWholeRecordingAndRewinds() throws {
        let source = try FileAudioSource(path: PipelineFixtures.demoScene)
        let reader = try AudioFileReader(path: PipelineFixtures.demoScene)
        #expect(source.sampleRate == Double(reader.sampleRate) && !source.pacedByArrival && source.name == PipelineFixtures.demoScene)
        let first = try Self.readAll(source)
        #expect(abs(Double(first.count) / source.sampleRate - reader.declaredDuration) < 0.01)
        #expect(first.contains { abs($0) > 0.05 })  // the scene is not silence
        #expect(try source.rewind())
        #expect(try Self.readAll(source, block: 1000) == first)
    }

    @Test func fileSourceRejectsATextFileNamedWav() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("notes.wav")
        try Data("not audio at all\n".utf8).write(to: fake)
        let error = #expect(throws: AudioFileError.self) { try FileAudioSource(path: fake.path) }
        #expect(error?.description.contains(fake.path) == true)
    }

    /// Raw 16-bit PCM through a pipe: stereo mixed to mono, values scaled to [-1, 1).
    @Test func pcmSourceMixesInterleavedChannels() throws {
        let tone = (0..<1600).map { Float(sin(2 * Double.pi * 440 * Double($0) / 16_000) * 0.5) }
        var bytes: [UInt8] = []
        for x in tone {
            let left = Int16(x * 32767), right = Int16(0)
            for value in [left, right] { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(bytes))
        try pipe.fileHandleForWriting.close()
        let source = StdinPCMSource(sampleRate: 16_000, channels: 2, descriptor: pipe.fileHandleForReading.fileDescriptor)
        #expect(source.pacedByArrival && source.sampleRate == 16_000)
        let mono = try Self.readAll(source, block: 256)
        #expect(mono.count == tone.count)
        #expect(zip(mono, tone).allSatisfy { abs($0 - $1 / 2) < 1e-3 })
        #expect(try !source.rewind())
    }

    @Test func pcmSourceRefusesY4MWithAClearReason() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(PipelineFixtures.movingSquareY4M(seconds: 0.1))
        try pipe.fileHandleForWriting.close()
        let source = StdinPCMSource(sampleRate: 16_000, channels: 1, descriptor: pipe.fileHandleForReading.fileDescriptor)
        let error = #expect(throws: SourceReadError.self) { try Self.readAll(source) }
        #expect(error?.reason.contains("y4m") == true)
    }

    /// A scenario (Samples/scenarios/alarms.json) rendered block by block: its whole duration,
    /// the same samples again after a rewind, and the same samples whatever the block size.
    @Test func scenarioSourceRendersTheWholeSceneRepeatably() throws {
        let loaded = try ScenarioLoader.load(path: "Samples/scenarios/alarms.json")
        let source = ScenarioSource(renderer: try ScenarioRenderer(scenario: loaded.scenario, clips: loaded.clips), name: "alarms")
        #expect(source.sampleRate == Double(loaded.scenario.sampleRate) && !source.pacedByArrival)
        let first = try Self.readAll(source, block: 160)
        #expect(abs(Double(first.count) / source.sampleRate - loaded.scenario.duration) < 0.01)
        #expect(first.contains { abs($0) > 0.01 })
        #expect(try source.rewind())
        #expect(try Self.readAll(source, block: 4096) == first)
    }

    @Test func bufferSourcesReplayTheirContents() throws {
        let samples = (0..<8000).map { Float(sin(Double($0) * 0.1)) }
        let buffer = SampleBufferSource(samples: samples, sampleRate: 8000)
        #expect(try Self.readAll(buffer, block: 333) == samples)
        #expect(try buffer.rewind() && Self.readAll(buffer) == samples)
        let frames = (0..<3).map {
            VideoFrame(index: $0, time: Double($0) / 10, picture: .raster(RasterImage(width: 4, height: 2, format: .gray)))
        }
        let list = FrameListSource(frames: frames)
        var times: [Double] = []
        while let frame = list.nextFrame() { times.append(frame.time) }
        #expect(try times == [0, 0.1, 0.2] && list.rewind() && list.nextFrame()?.time == 0)
    }

    /// `vigil live SOURCE`: each kind of argument opens its source.
    @Test func openerChoosesTheSourceByArgument() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("porch.y4m")
        try PipelineFixtures.movingSquareY4M(seconds: 1).write(to: clip)
        let open = { (argument: String) in try MediaSourceOpener.open(argument, rawPCMRate: nil, channels: 1, limits: .default) }
        #expect(try open(PipelineFixtures.demoScene) is FileAudioSource)
        #expect(try open(clip.path) is Y4MVideoSource)
        #expect(try open("Samples/scenarios/alarms.json") is ScenarioSource)
        #expect(try MediaSourceOpener.open("-", rawPCMRate: 16_000, channels: 2, limits: .default) is StdinPCMSource)
        let badScenario = dir.appendingPathComponent("bad.json")
        try Data("{\"sampleRate\": 3}".utf8).write(to: badScenario)
        let error = #expect(throws: ScenarioLoadFailure.self) { try open(badScenario.path) }
        #expect(error?.description.contains(badScenario.path) == true)
    }

    @Test func y4mSourceReadsFramesInMediaTimeAndRewinds() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("porch.y4m")
        try PipelineFixtures.movingSquareY4M(seconds: 3).write(to: clip)
        let source = try Y4MVideoSource(path: clip.path)
        var times: [Double] = []
        while let frame = try source.nextFrame() {
            #expect(frame.picture.width == 160 && frame.picture.height == 120)
            times.append(frame.time)
        }
        #expect(times.count == 30 && abs(times.last! - 2.9) < 1e-9)
        #expect(try source.rewind())
        #expect(try source.nextFrame()?.time == 0)
        #expect(source.sourceName == clip.path)
    }

    @Test func y4mSourceRejectsABadHeaderNamingTheFile() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.y4m")
        try Data("YUV4MPEG2 W0 H-3\nFRAME\n".utf8).write(to: bad)
        let error = #expect(throws: FrameSourceError.self) { try Y4MVideoSource(path: bad.path) }
        #expect(error?.description.contains(bad.path) == true)
    }

    @Test("container audio is placed on a continuous timeline: comfort noise fills gaps, overlaps are dropped, jitter is kept")
    func audioTimeline() {
        func run() -> [Float] {
            var timeline = AudioTimeline()
            var out: [Float] = []
            func place(_ time: Double, _ samples: [Float]) {
                timeline.place(MediaAudioChunk(time: time, sampleRate: 1000, samples: samples)) { out += $0 }
            }
            place(0.003, [1, 1])  // starts after 0: three samples of noise at this chunk's level first
            place(0.005, [0.5, 0.5])  // exactly next
            place(0.005, [3, 3, 3])  // overlaps two samples already handed over: those are dropped
            place(0.0085, [4])  // half a sample late: within the 1-sample tolerance, no gap
            place(2.0, Array(repeating: 0.25, count: 1000))  // a gap of 1991 samples
            place(0.001, [6, 6])  // entirely in the past: nothing
            #expect(timeline.samplesHanded == 3000)
            return out
        }
        let out = run()
        #expect(out.count == 3000)
        #expect(Array(out[3..<9]) == [1, 1, 0.5, 0.5, 3, 4])
        #expect(out[0..<3].contains { $0 != 0 }, "the leading gap is noise, not silence")
        // The long gap: noise at the background level. Less than a second of audio came before, so the
        // level is the quietest of what came so far: the [0.5, 0.5] chunk, RMS 0.5.
        let gap = out[9..<2000]
        let rms = (gap.reduce(0) { $0 + $1 * $1 } / Float(gap.count)).squareRoot()
        let mean = gap.reduce(0, +) / Float(gap.count)
        #expect(abs(rms - 0.5) < 0.05 && abs(mean) < 0.05, "rms \(rms), mean \(mean)")
        #expect(out[2000...].allSatisfy { $0 == 0.25 })
        #expect(run() == out, "the noise repeats exactly")
    }
}

/// The options of `vigil analyze` parsed into the plan.
@Suite struct AnalysisOptionsTests {
    @Test func triggersAndSensitivitiesShapeThePlan() throws {
        let loaded = try LoadedDevice.load(path: PipelineFixtures.deviceFile)
        let overrides = try AnalysisOptions.sensitivities(["8", "smokeAlarm=2"])
        let plan = AnalysisOptions.plan(
            for: loaded, sensitivities: overrides, triggers: try AnalysisOptions.triggers("smokeAlarm, sound"), explain: true)
        #expect(plan.settings.defaultSensitivity == Sensitivity(8) && plan.settings.sensitivity[.smokeAlarm] == Sensitivity(2))
        #expect(plan.policy.enabledTriggers == [.smokeAlarm, .sound] && plan.explain)
    }

    @Test(arguments: ["bogus", "personDetected"])
    func unknownOrUndetectableTriggerIsRefused(name: String) {
        let error = #expect(throws: AnalysisOptions.ParseError.self) { try AnalysisOptions.triggers("sound,\(name)") }
        #expect(error?.description.contains(name) == true)
    }

    @Test(arguments: ["0", "11", "x", "motion=3", "smokeAlarm=11"])
    func badSensitivityIsRefused(text: String) {
        let error = #expect(throws: AnalysisOptions.ParseError.self) { try AnalysisOptions.sensitivities([text]) }
        #expect(error?.description.hasPrefix(text) == true)
    }
}

/// Bad input through the run: a clear error record and message naming the input, never a crash;
/// the other inputs are still analyzed.
@Suite struct AnalysisRunErrorTests {
    @Test func badAndMissingInputsAreReportedAndTheOthersAnalyzed() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let truncated = dir.appendingPathComponent("empty.wav")
        try Data().write(to: truncated)
        let missing = dir.appendingPathComponent("missing.flac").path
        let (loaded, plan) = try PipelineFixtures.plan()
        let collected = CollectingSink()
        let log = MessageLog()
        let run = AnalysisRun(sinks: [collected], messages: { log.append($0) })
        let (recordings, problems) = InputDiscovery.expand([truncated.path, missing, PipelineFixtures.demoScene])
        run.report(problems)
        let batch = BatchAnalysis(plan: plan, jobs: 2, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(recordings, with: batch, progress: ProgressBar(totalSeconds: 0, totalItems: 2, enabled: false))
        run.finish()
        #expect(run.failures == 2)
        #expect(log.lines.contains { $0.hasPrefix("error: \(missing)") })
        #expect(log.lines.contains { $0.hasPrefix("error: ") && $0.contains(truncated.path) })
        let errors = collected.records.filter { $0.json["type"]?.stringValue == "error" }
        #expect(errors.count == 2)
        #expect(collected.records.filter { $0.json["type"]?.stringValue == "event" }.count == 5)
    }

    @Test func unreadableVideoIsAnErrorRecord() throws {
        let (loaded, plan) = try PipelineFixtures.plan()
        let collected = CollectingSink()
        let log = MessageLog()
        let run = AnalysisRun(sinks: [collected], messages: { log.append($0) })
        let analyzer = VideoAnalyzer(plan: plan, motion: .init(device: loaded.device), overlay: .init(device: loaded.device))
        run.analyzeVideo(
            .y4m(path: "no/such/clip.y4m"), as: InputRecording(path: "no/such/clip.y4m", displayName: "clip.y4m"), audioPath: nil,
            with: analyzer, snapshotDirectory: nil, fingerprint: "test", limits: .default)
        #expect(run.failures == 1)
        #expect(collected.records.count == 1 && collected.records.first?.json["type"]?.stringValue == "error")
        #expect(log.lines.count == 1 && log.lines[0].contains("no/such/clip.y4m"))
    }
}
