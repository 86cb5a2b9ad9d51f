import Foundation
import Testing
import VigilAnalysis
import VigilCore
import VigilMedia
import VigilTestSupport

@testable import VigilPipeline

/// Camera recordings (containers read through FFmpeg's libraries) in `vigil analyze`'s pipeline,
/// on clips the `ffmpeg` command makes from Samples/: the demo frames looped as H.264 video with
/// the demo scene as AAC audio.
@Suite(
    "Camera recordings in the analysis pipeline", .serialized,
    .enabled(if: ExternalCommand.isAvailable("ffmpeg"), "needs the ffmpeg command (Debian package ffmpeg) to make the test clips"))
struct MediaContainerAnalysisTests {
    /// The clips, made once: `clip.mp4` (36 s: motion from the walking figure, knocks, a beep and
    /// the start of the smoke alarm), and the y4m (at the analysis rate, 5 fps) + WAV route of the same clip.
    final class Clips: Sendable {
        static let shared = Result { try Clips() }
        let directory: URL
        var mp4: String { directory.appendingPathComponent("clip.mp4").path }
        var y4m: String { directory.appendingPathComponent("clip.y4m").path }
        var wav: String { directory.appendingPathComponent("clip.wav").path }
        var m4a: String { directory.appendingPathComponent("clip.m4a").path }
        var flac: String { directory.appendingPathComponent("clip.flac").path }

        init() throws {
            directory = try PipelineFixtures.temporaryDirectory()
            let ffmpeg = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"]
            try ExternalCommand.run(
                ffmpeg + [
                    "-stream_loop", "-1", "-framerate", "10", "-i", "Samples/demo-frames/frame-%03d.png", "-i", PipelineFixtures.demoScene,
                    "-map", "0:v", "-map", "1:a", "-t", "36", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "aac",
                    "-b:a", "96k", mp4,
                ])
            // The y4m + WAV route, decoded by the ffmpeg command from the same MP4.
            try ExternalCommand.run(
                ffmpeg + ["-i", mp4, "-vf", "fps=5", "-pix_fmt", "gray", "-f", "yuv4mpegpipe", y4m, "-vn", "-c:a", "pcm_f32le", wav])
            // Audio only: AAC in M4A, and FLAC, from the same 36 s of the scene.
            try ExternalCommand.run(ffmpeg + ["-i", PipelineFixtures.demoScene, "-t", "36", "-c:a", "aac", "-b:a", "96k", m4a])
            try ExternalCommand.run(ffmpeg + ["-i", PipelineFixtures.demoScene, "-t", "36", flac])
        }
    }

    /// An event record's trigger, zone, start and end.
    struct EventRow: CustomStringConvertible {
        var trigger: String
        var zone: Int?
        var start: Double
        var end: Double
        var description: String { "\(trigger) zone \(zone.map(String.init) ?? "-") \(start)-\(end)" }
    }

    /// The final `event` records of an analysis of `inputs` (or of `video` with `audio`).
    static func events(
        inputs: [String] = [], video: String? = nil, audio: String? = nil, limits: InputLimits = .default,
        configure: (inout OfflineAnalysis) -> Void = { _ in }
    ) throws -> (rows: [EventRow], records: [OutputRecord], messages: [String], outcome: OfflineAnalysis.Outcome) {
        let (loaded, plan) = try PipelineFixtures.plan()
        let log = MessageLog()
        var analysis = OfflineAnalysis(messages: { log.append($0) })
        (analysis.inputs, analysis.showsProgress, analysis.jobs) = (inputs, false, 2)
        if let video {
            var input = OfflineAnalysis.VideoInput(frames: nil, video: video)
            input.audio = audio
            analysis.videoInput = input
        }
        configure(&analysis)
        let sink = CollectingSink()
        let outcome = try analysis.run(plan: plan, device: loaded.device, limits: limits) { [sink] }
        let rows = sink.records.compactMap { record -> EventRow? in
            let json = record.json
            guard json["type"]?.stringValue == "event", let trigger = json["trigger"]?.stringValue,
                let start = json["start"]?.doubleValue, let end = json["end"]?.doubleValue
            else { return nil }
            return EventRow(trigger: trigger, zone: json["zone"]?.intValue, start: start, end: end)
        }
        return (rows.sorted { ($0.start, $0.trigger) < ($1.start, $1.trigger) }, sink.records, log.lines, outcome)
    }

    /// Whether `a` and `b` are the same events, with times within `tolerance` seconds.
    static func sameEvents(_ a: [EventRow], _ b: [EventRow], tolerance: Double) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.trigger == $1.trigger && $0.zone == $1.zone && abs($0.start - $1.start) <= tolerance && abs($0.end - $1.end) <= tolerance
            }
    }

    @Test("an MP4 (H.264 + AAC) gives one timeline of motion and sound events, equal within one analysis frame to y4m + WAV")
    func mp4MatchesY4MAndWAV() throws {
        let clips = try Clips.shared.get()
        let container = try Self.events(inputs: [clips.mp4])
        let split = try Self.events(video: clips.y4m, audio: clips.wav)
        #expect(container.outcome == .succeeded && split.outcome == .succeeded, "\(container.messages) \(split.messages)")
        let triggers = Set(container.rows.map(\.trigger))
        #expect(triggers.contains("motion") && triggers.contains("sound") && triggers.contains("smokeAlarm"), "\(container.rows)")
        // One analysis frame at the default 5 fps.
        #expect(Self.sameEvents(container.rows, split.rows, tolerance: 0.2), "mp4: \(container.rows)\ny4m+wav: \(split.rows)")
        // `--video clip.mp4` is the same recording read the same way.
        let asVideo = try Self.events(video: clips.mp4)
        #expect(Self.sameEvents(asVideo.rows, container.rows, tolerance: 0), "\(asVideo.rows)")
    }

    @Test("every frame of an MP4 is the luma the ffmpeg command decodes to gray, at the frame's own time")
    func framesMatchTheFFmpegCommand() throws {
        let clips = try Clips.shared.get()
        let gray = clips.directory.appendingPathComponent("all-frames.y4m")
        try ExternalCommand.run([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", clips.mp4, "-t", "4", "-pix_fmt", "gray", gray.path,
        ])
        let reference = try Y4MVideoSource(path: gray.path)
        let source = try MediaContainerSource(path: clips.mp4, options: MediaReaderOptions(readsAudio: false, analysisFPS: nil))
        var count = 0
        while let expected = try reference.nextFrame() {
            let frame = try #require(try source.nextFrame())
            #expect(frame.picture.luma.pixels == expected.picture.luma.pixels && abs(frame.time - expected.time) < 1e-6)
            count += 1
        }
        #expect(count == 40)
    }

    @Test("--no-video analyzes a recording's audio alone, --no-audio its video alone")
    func streamSelection() throws {
        let clips = try Clips.shared.get()
        let all = try Self.events(inputs: [clips.mp4]).rows
        let audioOnly = try Self.events(inputs: [clips.mp4]) { $0.media.readsVideo = false }.rows
        let videoOnly = try Self.events(inputs: [clips.mp4]) { $0.media.readsAudio = false }.rows
        #expect(!audioOnly.isEmpty && audioOnly.allSatisfy { $0.trigger != "motion" }, "\(audioOnly)")
        #expect(!videoOnly.isEmpty && videoOnly.allSatisfy { $0.trigger == "motion" }, "\(videoOnly)")
        #expect(Self.sameEvents(audioOnly, all.filter { $0.trigger != "motion" }, tolerance: 0))
    }

    @Test("AAC audio in M4A is analyzed like the same audio in FLAC")
    func audioOnlyContainer() throws {
        let clips = try Clips.shared.get()
        let aac = try Self.events(inputs: [clips.m4a])
        let flac = try Self.events(inputs: [clips.flac])
        #expect(aac.outcome == .succeeded && !flac.rows.isEmpty)
        // AAC changes the samples and may delay them by its priming, so sound onsets may move a little.
        #expect(Self.sameEvents(aac.rows, flac.rows, tolerance: 0.1), "m4a: \(aac.rows)\nflac: \(flac.rows)")
    }

    @Test("a truncated MP4 and an undecodable codec are errors naming the file; the batch goes on and keeps what was analyzed")
    func badContainers() throws {
        let clips = try Clips.shared.get()
        // With its index in front (as cameras that stream MP4 write it), half a file still has half the recording.
        let faststart = clips.directory.appendingPathComponent("faststart.mp4")
        try ExternalCommand.run(
            ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", clips.mp4, "-c", "copy", "-movflags", "+faststart", faststart.path])
        let bytes = try Data(contentsOf: faststart)
        let truncated = clips.directory.appendingPathComponent("truncated.mp4")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        // A Matroska video track whose codec id no decoder knows.
        let mkv = clips.directory.appendingPathComponent("video.mkv")
        try ExternalCommand.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", clips.mp4, "-an", "-c", "copy", mkv.path])
        var data = try [UInt8](Data(contentsOf: mkv))
        let codecID = Array("V_MPEG4/ISO/AVC".utf8)
        let at = try #require((0...(data.count - codecID.count)).first { Array(data[$0..<($0 + codecID.count)]) == codecID })
        data.replaceSubrange(at..<(at + codecID.count), with: Array("V_VIGIL/NO/SUCH".utf8))
        let unknown = clips.directory.appendingPathComponent("unknown-codec.mkv")
        try Data(data).write(to: unknown)

        let run = try Self.events(inputs: [truncated.path, unknown.path, clips.m4a])
        #expect(run.outcome == .someInputsFailed)
        let errors = run.records.filter { $0.json["type"]?.stringValue == "error" }
        #expect(errors.contains { $0.line.contains("unknown-codec.mkv") && $0.line.contains("no decoder") }, "\(errors.map(\.line))")
        #expect(run.messages.contains { $0.contains("truncated.mp4") && $0.contains("truncated") }, "\(run.messages)")
        // The truncated file's first half was analyzed, and the last input was analyzed in full.
        let files = Set(run.records.filter { $0.json["type"]?.stringValue == "event" }.compactMap { $0.json["file"]?.stringValue })
        #expect(files.contains(truncated.path) && files.contains(clips.m4a), "\(files)")
    }

    @Test("directories are searched for camera recordings too, and each is analyzed as such")
    func directoryOfRecordings() throws {
        let clips = try Clips.shared.get()
        let folder = clips.directory.appendingPathComponent("camera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["clip.mp4", "clip.m4a"] {
            let target = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: target.path) {
                try FileManager.default.copyItem(at: clips.directory.appendingPathComponent(name), to: target)
            }
        }
        let run = try Self.events(inputs: [folder.path])
        #expect(run.outcome == .succeeded, "\(run.messages)")
        let events = run.records.filter { $0.json["type"]?.stringValue == "event" }
        let byFile = Dictionary(grouping: events) { $0.json["file"]?.stringValue ?? "" }
        #expect(Set(byFile.keys) == ["clip.m4a", "clip.mp4"], "\(byFile.keys)")
        #expect(byFile["clip.mp4"]?.contains { $0.json["trigger"]?.stringValue == "motion" } == true)
        #expect(byFile["clip.m4a"]?.allSatisfy { $0.json["trigger"]?.stringValue != "motion" } == true)
    }

    @Test("the duration limit and the detectors' sample-rate range apply to containers, naming the file")
    func containerLimits() throws {
        let clips = try Clips.shared.get()
        let long = try Self.events(inputs: [clips.mp4], limits: InputLimits(maxAudioDuration: 10))
        #expect(long.outcome == .someInputsFailed)
        #expect(long.messages.contains { $0.contains("clip.mp4") && $0.contains("10 s limit") }, "\(long.messages)")
        let low = clips.directory.appendingPathComponent("4khz.mkv")
        try ExternalCommand.run([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=4000:duration=2",
            "-c:a", "pcm_s16le", low.path,
        ])
        let slow = try Self.events(inputs: [low.path])
        #expect(slow.outcome == .someInputsFailed)
        #expect(slow.messages.contains { $0.contains("4khz.mkv") && $0.contains("4000 Hz") }, "\(slow.messages)")
    }

    @Test("vigil bench speed times a camera recording's video (decoding, and with motion) and its audio")
    func benchSpeedOnARecording() throws {
        let clips = try Clips.shared.get()
        let result = try CommandRunner.run(["bench", "speed", clips.mp4, "--repeat", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        let rows = json["results"]?.arrayValue ?? []
        func speed(_ name: String) -> Double? {
            rows.first { $0["name"]?.stringValue == name }?["xRealTimePerCPUSecond"]?.doubleValue
        }
        for name in ["video decode at 5 fps", "video decode + motion", "decode only"] {
            #expect((speed(name) ?? 0) > 1, "\(name): \(result.stdout)")
        }
    }
}
