import Foundation
import Testing
import VigilTestSupport

/// Runs the built `vigil` executable on the hostile corpus.
enum VigilProcess {
    typealias Result = CommandRunner.Result

    /// Runs `vigil arguments` in the package root; stopped after `timeout` seconds (a hang fails the test).
    static func run(_ arguments: [String], timeout: Double = 60) throws -> Result {
        try CommandRunner.run(arguments, timeout: timeout)
    }

    static func corpus(_ name: String) -> String { CorpusEntry.directory.appendingPathComponent(name).path }
}

@Suite("Hostile input through the vigil command")
struct HostileCLITests {
    @Test("vigil device validate names the zone field of a self-intersecting zone and exits 2")
    func deviceValidate() throws {
        let result = try VigilProcess.run(["device", "validate", VigilProcess.corpus("device-self-intersecting-zone.json")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("zones[0].vertices"), "\(result.stderr)")
    }

    @Test("vigil device validate --max-zones raises the zone limit")
    func deviceZoneLimitOption() throws {
        let file = VigilProcess.corpus("device-max-zones-over-limit.json")
        let refused = try VigilProcess.run(["device", "validate", file])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--max-zones"), "\(refused.stderr)")
        let accepted = try VigilProcess.run(["device", "validate", file, "--max-zones", "1000"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test("vigil analyze reports each bad recording and goes on with the others (exit 1)")
    func analyzeBatch() throws {
        let files = ["audio-million-channels.wav", "audio-zero-rate.wav", "audio-truncated-header.wav", "audio-65-channels.wav"]
        let result = try VigilProcess.run(["analyze", "--format", "jsonl", "--no-progress"] + files.map(VigilProcess.corpus))
        #expect(result.status == 1)
        let errors = result.stdout.split(separator: "\n").filter { $0.contains("\"type\":\"error\"") }
        #expect(errors.count == files.count, "\(result.stdout)")
        #expect(result.stderr.contains("--max-channels"))
    }

    @Test("vigil analyze reports each broken camera recording by name and reason, and analyzes the good one after them (exit 1)")
    func analyzeBrokenContainers() throws {
        let broken = [
            "media-ebml-garbage.mkv", "media-empty.mp4", "media-garbage.bin", "media-mdat-only.mp4", "media-moov-cut.mp4", "media-text.mp4",
            "media-truncated-faststart.mp4", "media-truncated-tail-index.mp4", "media-ts-null-packets.ts", "media-undecodable-codec.mkv",
        ]
        let result = try VigilProcess.run(
            ["analyze", "--format", "jsonl", "--no-progress"] + broken.map(VigilProcess.corpus) + ["Samples/demo-scene.flac"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        for name in broken {
            #expect(lines.contains { $0.contains("\"type\":\"error\"") && $0.contains(name) }, "no error record for \(name)")
        }
        #expect(result.stderr.contains("media-undecodable-codec.mkv") && result.stderr.contains("no decoder"), "\(result.stderr)")
        #expect(lines.contains { $0.contains("\"type\":\"event\"") && $0.contains("demo-scene.flac") })
    }

    @Test("vigil analyze --max-channels and --max-audio-duration apply to recordings")
    func analyzeLimits() throws {
        let wide = VigilProcess.corpus("audio-4-channels-limit-2.wav")
        let refused = try VigilProcess.run(["analyze", "--format", "jsonl", "--no-progress", "--max-channels", "2", wide])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("more than the limit of 2"), "\(refused.stderr)")
        #expect(try VigilProcess.run(["analyze", "--format", "jsonl", "--no-progress", wide]).status == 0)
        let long = try VigilProcess.run(
            ["analyze", "--format", "jsonl", "--no-progress", "--max-audio-duration", "0.01", "Samples/demo-scene.flac"])
        #expect(long.status == 1)
        #expect(long.stderr.contains("--max-audio-duration"), "\(long.stderr)")
        let bad = try VigilProcess.run(["analyze", "--max-image-size", "12by3", wide])
        #expect(bad.status == 2, "usage error, got \(bad.status)")
    }

    @Test("vigil analyze --video refuses a y4m with absurd dimensions")
    func analyzeAbsurdVideo() throws {
        let result = try VigilProcess.run([
            "analyze", "--format", "jsonl", "--no-progress", "--video", VigilProcess.corpus("video-over-limit.y4m"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--max-image-size"), "\(result.stderr)")
    }

    @Test("vigil live refuses a non-loopback address without a token, and absurd stdin channel counts")
    func liveRefusals() throws {
        let open = try VigilProcess.run(["live", "Samples/demo-scene.flac", "--listen", "0.0.0.0:0", "--quiet"], timeout: 20)
        #expect(open.status == 2)
        #expect(open.stderr.contains("--token-file"), "\(open.stderr)")
        let channels = try VigilProcess.run(["live", "-", "--rate", "16000", "--channels", "1000000"], timeout: 20)
        #expect(channels.status != 0)
        #expect(channels.stderr.contains("--max-channels"), "\(channels.stderr)")
        let rate = try VigilProcess.run(["live", "-", "--rate", "0"], timeout: 20)
        #expect(rate.status != 0)
        #expect(rate.stderr.contains("--rate"), "\(rate.stderr)")
    }

    @Test("vigil synth names the field of a 0 Hz scenario")
    func synthZeroRate() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-hostile-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try VigilProcess.run(["synth", VigilProcess.corpus("scenario-zero-rate.json"), "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.contains("sampleRate"), "\(result.stderr)")
    }
}

@Suite("Hostile stream inputs through vigil live")
struct HostileStreamTests {
    @Test(
        "a stream URL that refuses the connection: each attempt is reported, and the run ends with status 1 naming the URL and the reason")
    func refusedConnection() throws {
        let url = "rtsp://127.0.0.1:\(TestProcesses.freeLoopbackPort())/cam"
        let result = try VigilProcess.run(
            ["live", url, "--listen", "127.0.0.1:0", "--reconnect-attempts", "2", "--reconnect-max-delay", "0.1"], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(url): ") && result.stderr.contains("Connection refused"), "\(result.stderr)")
        #expect(result.stderr.contains("connection attempt 3"), "\(result.stderr)")
        #expect(result.stderr.contains("gave up after 3 failed attempts"), "\(result.stderr)")
        #expect(result.lines.last?.contains(#""type":"end""#) == true)
    }

    @Test("garbage on the RTSP port is a clear error naming the URL and the reason, never a crash")
    func garbageOnTheRTSPPort() throws {
        let server = try GarbageServer()
        let url = "rtsp://127.0.0.1:\(server.port)/cam"
        let result = try VigilProcess.run(
            ["live", url, "--listen", "127.0.0.1:0", "--reconnect-attempts", "1", "--reconnect-max-delay", "0.1"], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("vigil live: \(url): "), "\(result.stderr)")
        #expect(result.lines.last?.contains(#""type":"end""#) == true)
        withExtendedLifetime(server) {}
    }

    @Test("--no-audio, --no-video and --analysis-fps are refused for sources that are not containers or streams")
    func mediaOptionsOnOtherSources() throws {
        let result = try VigilProcess.run(["live", "Samples/demo-scene.flac", "--no-video", "--listen", "127.0.0.1:0"], timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--no-video") && result.stderr.contains("demo-scene.flac"), "\(result.stderr)")
        let both = try VigilProcess.run(["live", "rtsp://127.0.0.1:1/cam", "--no-audio", "--no-video"], timeout: 20)
        #expect(both.status == 2 && both.stderr.contains("nothing to analyze"), "\(both.stderr)")
    }
}
