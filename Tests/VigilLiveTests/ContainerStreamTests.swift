import Foundation
import Glibc
import NIOConcurrencyHelpers
import Testing
import VigilControl
import VigilCore
import VigilLive
import VigilPipeline
import VigilServerTesting
import VigilTestSupport

/// A camera clip made by ffmpeg from the test signals and Samples/: the moving square of
/// ``TestSignals/movingSquareY4M(seconds:)`` (motion in the porch zone from 2 to 4 s) with the
/// first `seconds` of the demo scene (a sound at 3 s) as H.264 + AAC in MP4, its audio at the
/// scene's 16 kHz or resampled to `audioRate`.
enum CameraClip {
    static func make(in directory: URL, seconds: Int = 6, audioRate: Int? = nil) throws -> URL {
        let y4m = directory.appendingPathComponent("square.y4m")
        try TestSignals.movingSquareY4M(seconds: Double(seconds)).write(to: y4m)
        let clip = directory.appendingPathComponent(audioRate.map { "camera-\($0).mp4" } ?? "camera.mp4")
        try ExternalCommand.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", y4m.path, "-i",
                LiveTestSupport.samplePath("Samples/demo-scene.flac"), "-t", "\(seconds)", "-map", "0:v", "-map", "1:a", "-c:v", "libx264",
                "-g", "10", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
            ] + (audioRate.map { ["-ar", "\($0)"] } ?? []) + [clip.path])
        return clip
    }

    /// The JSON objects of JSON Lines text.
    static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

@Suite(
    "Live container files and streams: audio and video in one session", .enabled(if: ExternalCommand.isAvailable("ffmpeg"), "needs ffmpeg"))
struct ContainerStreamTests {
    /// The records of a run over `clip` at full speed with the cvr device.
    static func run(_ clip: URL, audio: Bool = true, video: Bool = true) async throws -> [LiveRecord] {
        let source = try LiveContainerSource(input: clip.path, readsAudio: audio, readsVideo: video, log: { _ in })
        let device = try LoadedDevice.load(path: LiveTestSupport.samplePath("Samples/scenarios/cvr-device.json")).device
        let metrics = LiveMetrics()
        let records = NIOLockedValueBox<[LiveRecord]>([])
        let session = LiveSession(
            container: source, device: DeviceController(device: device), hub: EventHub(clientBufferCapacity: 64, metrics: metrics),
            metrics: metrics, onRecord: { record in records.withLockedValue { $0.append(record) } })
        let runner = LiveRunner(session: session, source: source, options: LiveRunner.Options(speed: 0))
        runner.start()
        await runner.wait()
        #expect(runner.error == nil, "\(String(describing: runner.error))")
        return records.withLockedValue { $0 }
    }

    /// The final events of `records` for `trigger` as (start, end) pairs taken from their JSON.
    static func events(_ records: [LiveRecord], _ trigger: EventTriggerType) -> [String] {
        records.filter { $0.type == "event" && $0.trigger == trigger }.map { record in
            let object = CameraClip.objects(record.line).first ?? [:]
            return "\(object["start"] ?? "-")...\(object["end"] ?? "-")"
        }
    }

    @Test(
        "an MP4 is analyzed as audio and video in one session: the same sound events as its audio alone, the same motion as its video alone"
    )
    func audioAndVideoInOneSession() async throws {
        let directory = try TestProcesses.temporaryDirectory(prefix: "vigil-live-container")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try CameraClip.make(in: directory)
        let both = try await Self.run(clip)
        let audioOnly = try await Self.run(clip, video: false)
        let videoOnly = try await Self.run(clip, audio: false)
        #expect(!Self.events(both, .sound).isEmpty, "no sound event in \(both.map(\.line))")
        #expect(Self.events(both, .motion).count == 1, "\(both.map(\.line))")
        #expect(Self.events(both, .sound) == Self.events(audioOnly, .sound))
        #expect(Self.events(both, .motion) == Self.events(videoOnly, .motion))
        #expect(Self.events(audioOnly, .motion).isEmpty && Self.events(videoOnly, .sound).isEmpty)
        // One engine: one ID sequence over both, every record on one timeline, each ID reported once.
        let ids = both.filter { $0.type == "event" }.compactMap { CameraClip.objects($0.line).first?["id"] as? Int }
        #expect(ids.count == Set(ids).count && ids.count == both.filter { $0.type == "event" }.count)
        #expect(both.map(\.emittedAt) == both.map(\.emittedAt).sorted())
        #expect(both.allSatisfy { $0.line.contains(#""file":"\#(clip.path)""#) })
        #expect(both.last?.type == "end")
    }

    @Test("--loop places each pass of a container file after the previous one: a sound of every pass, one timeline")
    func loopedContainer() async throws {
        let directory = try TestProcesses.temporaryDirectory(prefix: "vigil-live-container")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try CameraClip.make(in: directory)
        let source = try LiveContainerSource(input: clip.path, log: { _ in })
        let metrics = LiveMetrics()
        let records = NIOLockedValueBox<[LiveRecord]>([])
        let device = try LoadedDevice.load(path: LiveTestSupport.samplePath("Samples/scenarios/cvr-device.json")).device
        let session = LiveSession(
            container: source, device: DeviceController(device: device), hub: EventHub(clientBufferCapacity: 64, metrics: metrics),
            metrics: metrics, onRecord: { record in records.withLockedValue { $0.append(record) } })
        let runner = LiveRunner(session: session, source: source, options: LiveRunner.Options(speed: 0, loop: true, maxMediaTime: 17))
        runner.start()
        await runner.wait()
        let all = records.withLockedValue { $0 }
        let sounds = all.filter { $0.type == "event" && $0.trigger == .sound }.compactMap(\.detectedAt)
        // The sound at 3 s of the 6 s clip, in each of the three passes.
        #expect(sounds.count == 3 && zip(sounds, [3.0, 9.0, 15.0]).allSatisfy { abs($0 - $1) < 0.2 }, "\(sounds)")
        #expect(all.map(\.emittedAt) == all.map(\.emittedAt).sorted())
    }

    @Test(
        "a session made before its stream's audio rate is known ignores audio until startAudio, then reports what a session at that rate does"
    )
    func audioRateLater() throws {
        let audioSource = try FileAudioSource(path: LiveTestSupport.samplePath("Samples/demo-scene.flac"))
        var samples = [Float](repeating: 0, count: Int(audioSource.sampleRate) * 6)
        let read = try samples.withUnsafeMutableBufferPointer { try audioSource.read(into: $0) }
        #expect(read == samples.count)
        let device = try LoadedDevice.load(path: LiveTestSupport.samplePath("Samples/scenarios/cvr-device.json")).device
        func session(later: Bool) -> LiveSession {
            let metrics = LiveMetrics()
            let hub = EventHub(clientBufferCapacity: 64, metrics: metrics)
            if later {
                return LiveSession(
                    audioRateLaterSourceName: "camera", video: false, device: DeviceController(device: device), hub: hub, metrics: metrics)
            }
            return LiveSession(
                sampleRate: audioSource.sampleRate, sourceName: "camera", device: DeviceController(device: device), hub: hub,
                metrics: metrics)
        }
        let fixed = session(later: false), later = session(later: true)
        #expect(later.analyzesAudio && !later.isVideo && !later.analyzesVideo && later.sampleRate == 0)
        #expect(later.process(samples[0..<1600].map { $0 }).isEmpty && later.mediaTime == 0, "audio before the rate is known")
        later.startAudio(sampleRate: audioSource.sampleRate)
        later.startAudio(sampleRate: 8_000)
        #expect(later.sampleRate == audioSource.sampleRate, "a second start changes nothing")
        var lines: [[String]] = []
        for session in [fixed, later] {
            var records: [LiveRecord] = []
            for start in stride(from: 0, to: samples.count, by: 1600) { records += session.process(Array(samples[start..<(start + 1600)])) }
            records += session.finish()
            lines.append(records.map(\.line))
        }
        #expect(lines[0] == lines[1] && lines[0].contains { $0.contains(#""trigger":"sound""#) }, "\(lines[1])")
        let video = LiveSession(
            videoSourceName: "camera", device: DeviceController(device: device),
            hub: EventHub(clientBufferCapacity: 8, metrics: LiveMetrics()),
            metrics: LiveMetrics())
        video.startAudio(sampleRate: 16_000)
        #expect(video.isVideo && !video.analyzesAudio && video.sampleRate == 0, "a video session takes no audio")
    }

    @Test("a container file that is not one is refused naming the file and the reason")
    func badContainerIsRefused() throws {
        let directory = try TestProcesses.temporaryDirectory(prefix: "vigil-live-container")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bogus = directory.appendingPathComponent("bogus.mp4")
        try Data("not a movie at all".utf8).write(to: bogus)
        #expect {
            _ = try LiveContainerSource(input: bogus.path, log: { _ in })
        } throws: { error in
            "\(error)".hasPrefix(bogus.path + ": ")
        }
    }
}

@Suite(
    "vigil live rtsp:// across camera restarts", .serialized,
    .enabled(if: TestProcesses.rtspCameraAvailable, "needs ffmpeg and rtsp-server-perl (Debian packages)"))
struct LiveRTSPCommandTests {
    /// The value of the unlabelled (or fully written) sample `name` in Prometheus text.
    static func sample(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    static func get(_ port: Int, _ path: String) async -> String {
        guard let response = try? await TestHTTPClient(port: port, timeout: .seconds(5)).execute(uri: path, method: .get) else { return "" }
        return String(buffer: response.body)
    }

    /// Polls `path` until `condition` holds on its body (at most `seconds`); the last body.
    static func poll(_ port: Int, _ path: String, seconds: Double, until condition: (String) -> Bool) async -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var body = ""
        while Date() < deadline {
            body = await get(port, path)
            if condition(body) { return body }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return body
    }

    @Test(
        "a stream's audio keeps the camera's own rate (96 kHz brought to 48 kHz), or the --stream-audio-rate given; the option is refused for files and out of range"
    )
    func streamAudioRate() async throws {
        let directory = try TestProcesses.temporaryDirectory(prefix: "vigil-live-rtsp-rate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let camera = try RTSPTestCamera(clip: try CameraClip.make(in: directory), audio: true)
        defer { camera.stop() }
        let fastCamera = try RTSPTestCamera(clip: try CameraClip.make(in: directory, audioRate: 96_000), audio: true)
        defer { fastCamera.stop() }
        let cases: [(camera: RTSPTestCamera, given: Int?, own: Int, analysed: Int)] = [
            (camera, nil, 16_000, 16_000), (camera, 32_000, 16_000, 32_000), (fastCamera, nil, 96_000, 48_000),
            (fastCamera, 16_000, 96_000, 16_000),
        ]
        for (camera, given, own, rate) in cases {
            let lines = NIOLockedValueBox<[String]>([])
            let source = try LiveContainerSource(
                input: camera.url, readsVideo: false, networkAudioRate: given, log: { line in lines.withLockedValue { $0.append(line) } })
            defer { source.stop() }
            #expect(source.sampleRate == given.map(Double.init), "the rate before the first connection")
            #expect(source.analyzesAudio)
            var seconds = 0.0
            while seconds < 1, let chunk = try source.nextChunk() {
                guard case .audio(let audio) = chunk else { continue }
                #expect(audio.sampleRate == rate)
                seconds += Double(audio.samples.count) / Double(rate)
            }
            #expect(seconds >= 1, "no audio at \(rate) Hz")
            #expect(source.sampleRate == Double(rate))
            let told = lines.withLockedValue { $0 }.filter { $0.contains("audio analysed at") }
            let expected = "\(camera.url): audio analysed at \(rate) Hz (the stream's own: \(own) Hz; kept across reconnects)"
            #expect(told == (given == nil ? [expected] : []), "\(told)")
        }
        #expect(LiveContainerSource.analysisRate(forStreamRate: 0) == LiveContainerSource.networkSampleRate)
        #expect(LiveContainerSource.analysisRate(forStreamRate: 4_000) == 8_000)
        #expect(LiveContainerSource.analysisRate(forStreamRate: 22_050) == 22_050)
        var launch = LiveLaunch(source: camera.url)
        launch.streamAudioRate = 16_000
        #expect(launch.problem(limits: InputLimits()) == nil)
        launch.streamAudioRate = 4_000
        #expect(launch.problem(limits: InputLimits()) == "--stream-audio-rate must be 8000...48000 Hz")
        var file = LiveLaunch(source: "clip.mp4")
        file.streamAudioRate = 16_000
        #expect(file.problem(limits: InputLimits())?.contains("--stream-audio-rate applies to a stream URL") == true)
    }

    @Test("vigil live rtsp://127.0.0.1:PORT/cam keeps reporting across three camera restarts, each reconnect in /metrics, no event twice")
    func keepsReportingAcrossRestarts() async throws {
        let directory = try TestProcesses.temporaryDirectory(prefix: "vigil-live-rtsp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let camera = try RTSPTestCamera(clip: try CameraClip.make(in: directory), audio: true)
        defer { camera.stop() }
        let port = TestProcesses.freeLoopbackPort()
        let stdout = directory.appendingPathComponent("stdout.jsonl")
        let stderr = directory.appendingPathComponent("stderr.txt")
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.currentDirectoryURL = CommandRunner.packageRoot
        process.arguments = [
            "live", camera.url, "--device", "Samples/scenarios/cvr-device.json", "--listen", "127.0.0.1:\(port)", "--reconnect-max-delay",
            "0.5",
        ]
        for file in [stdout, stderr] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        defer { if process.isRunning { TestProcesses.kill(process) } }
        func output() -> String {
            ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").split(separator: "\n").suffix(12).joined(separator: "\n") + "\n"
                + ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
        }
        func soundStarts() -> Int {
            CameraClip.objects((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").filter {
                $0["type"] as? String == "eventStarted" && $0["trigger"] as? String == "sound"
            }.count
        }

        let connected = #"vigil_live_stream_state{state="connected"} 1"#
        var metrics = await Self.poll(port, "/metrics", seconds: SanitizerAllowance.seconds(60)) { $0.contains(connected) }
        #expect(metrics.contains(connected), "never connected: \(metrics)\n\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        for restart in 1...3 {
            // Reporting before the restart: a sound of the served clip arrives (one every 6 s of the loop).
            let before = soundStarts()
            #expect(
                TestProcesses.wait(seconds: SanitizerAllowance.seconds(30)) { soundStarts() > before },
                "no sound event before restart \(restart): \(output())")
            camera.stop()
            try camera.start()
            // A restart that had to try the camera again (its publisher gave up under load) may be
            // seen as two: at least one reconnect per restart, at most one per relay started since.
            metrics = await Self.poll(port, "/metrics", seconds: SanitizerAllowance.seconds(60)) {
                (Self.sample("vigil_live_stream_reconnects_total", in: $0) ?? 0) >= Double(restart) && $0.contains(connected)
            }
            let reconnects = Self.sample("vigil_live_stream_reconnects_total", in: metrics) ?? 0
            #expect(
                Double(restart)...Double(max(restart, camera.relayLaunches - 1)) ~= reconnects,
                "restart \(restart), \(camera.relayLaunches) relays started: \(metrics)")
        }
        let afterLast = soundStarts()
        #expect(
            TestProcesses.wait(seconds: SanitizerAllowance.seconds(30)) { soundStarts() > afterLast },
            "no sound event after the third restart: \(output())")
        let health = await Self.get(port, "/health")
        let reconnects = health.firstMatch(of: /"reconnects":(\d+)/).flatMap { Int($0.1) } ?? 0
        #expect(
            (3...max(3, camera.relayLaunches - 1)).contains(reconnects) && health.contains(#""state":"connected""#),
            "\(camera.relayLaunches) relays started: \(health)")
        #expect(health.contains(#""audioSampleRate":16000"#), "the camera's own rate: \(health)")
        _ = Glibc.kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")

        let records = CameraClip.objects(try String(contentsOf: stdout, encoding: .utf8))
        let events = records.filter { $0["type"] as? String == "event" }.compactMap { $0["id"] as? Int }
        let started = records.filter { $0["type"] as? String == "eventStarted" }.compactMap { $0["id"] as? Int }
        #expect(events.count == Set(events).count, "an event reported twice: \(events)")
        #expect(started.count == Set(started).count, "an event announced twice: \(started)")
        #expect(records.contains { $0["type"] as? String == "eventStarted" && $0["trigger"] as? String == "motion" })
        let times = records.compactMap { $0["emittedAt"] as? Double }
        #expect(times == times.sorted(), "the media timeline ran backwards")
        #expect(records.last?["type"] as? String == "end")
        let log = try String(contentsOf: stderr, encoding: .utf8)
        #expect(log.components(separatedBy: "reconnected").count - 1 == reconnects, "\(log)")
    }
}

@Suite("vigil live of a stream URL that never connects")
struct NeverConnectingStreamTests {
    @Test("by default it keeps retrying with backoff: /health and /metrics show the state and the last error; Ctrl-C ends it at once")
    func keepsRetryingAndShowsIt() async throws {
        let url = "rtsp://127.0.0.1:\(TestProcesses.freeLoopbackPort())/cam"
        let port = TestProcesses.freeLoopbackPort()
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.currentDirectoryURL = CommandRunner.packageRoot
        process.arguments = ["live", url, "--listen", "127.0.0.1:\(port)", "--reconnect-max-delay", "0.2"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { TestProcesses.kill(process) } }
        let health = await LiveRTSPCommandTests.poll(port, "/health", seconds: SanitizerAllowance.seconds(60)) {
            $0.contains(#""consecutiveFailures":3"#)
        }
        #expect(health.contains(#""state":"connecting""#) && health.contains("Connection refused") && health.contains(url), "\(health)")
        let metrics = await LiveRTSPCommandTests.get(port, "/metrics")
        #expect(metrics.contains(#"vigil_live_stream_state{state="connecting"} 1"#), "\(metrics)")
        #expect((LiveRTSPCommandTests.sample("vigil_live_stream_consecutive_failures", in: metrics) ?? 0) >= 3, "\(metrics)")
        #expect(process.isRunning)
        _ = Glibc.kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\(url): cannot open: Connection refused (connection attempt 3; retrying in 0.2 s)"), "\(log)")
    }
}
