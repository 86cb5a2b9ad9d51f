import ArgumentParser
import Foundation
import VigilInference
import VigilLive
import VigilPipeline

/// `vigil live`: the live event generator with its HTTP API.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Stream events as they happen from a file, stdin or a scenario, with an HTTP API.",
        discussion: """
            SOURCE is an audio file (paced at real time, or --speed N; --loop repeats it with media time \
            running on), a container file (MP4, MKV, WebM, MOV, TS: audio and video together) or a stream \
            URL (rtsp://, http(s)://, srt://, udp://: reconnects with backoff), a y4m video file (frames \
            paced by their media time; motion in the device's activity zones), "-" for stdin (raw PCM with --rate and --channels: signed 16-bit \
            little-endian; without --rate: y4m frames, e.g. from ffmpeg -f yuv4mpegpipe; processed as \
            they arrive), or a scenario JSON (rendered on the fly by the code behind vigil synth).

            Records go to stdout as JSON Lines (docs/output-schema.md, plus the live keys "seq" and \
            "emittedAt" and the live types "eventStarted", "deviceChanged" and "end") and to an HTTP \
            server (docs/live.md), by default on 127.0.0.1:8787. An event is announced by an \
            "eventStarted" record as soon as its detector confirms it (a sound, an alarm pattern, the \
            first motion in a zone), and reported by its "event" record (same "id") when it is final.

              GET  /events (Server-Sent Events; WebSocket: Upgrade), /device, /health, /metrics (Prometheus)
              POST /zones, PUT and DELETE /zones/{id}, POST /triggers, DELETE /triggers/{zoneID}: zone commands
              POST /event-detection-triggers, PUT /recording-mode, /transport, /audio: device settings
            Control requests are validated like device files; errors are 4xx with \
            {"status","field","reason"}. Changes take effect from the next 10 ms block or video frame \
            (zones: from the next frame). On a non-loopback \
            address the control endpoints need "Authorization: Bearer TOKEN" (--token-file is then required).

            For example (docs/live.md has the full walk-through with every endpoint):
              vigil live Samples/demo-scene.flac --loop --device Samples/front-door.json &
              curl -N localhost:8787/events
              vigil live rtsp://camera.local/stream --device Samples/front-door.json

            The run ends at the end of SOURCE (without --loop; use --linger to keep serving) or on \
            Ctrl-C; both finish the stream with an "end" record. Exit status: 0, 1 when the source \
            failed while streaming, 2 for usage, device-file or scenario errors.
            """)

    @Argument(help: "Audio, container (mp4, mkv, ...) or y4m file, stream URL, scenario JSON, or - for stdin.")
    var source: String

    @Option(help: "Device file (JSON, see docs/device-file.md). Without it, the built-in default device applies.")
    var device: String?

    @Option(help: "Media seconds per wall-clock second (0: as fast as possible). Ignored for stdin.")
    var speed: Double = 1

    @Flag(help: "Start the source again at its end (files and scenarios).")
    var loop = false

    @Option(help: "Address to listen on, HOST:PORT (default 127.0.0.1:8787; port 0: any free port).")
    var listen: String = "127.0.0.1:\(LiveServerConfiguration.defaultPort)"

    @Option(help: "File holding the bearer token the control endpoints require (mandatory on non-loopback addresses).")
    var tokenFile: String?

    @Option(help: "Sample rate of raw PCM on stdin (without it, stdin is read as y4m video).")
    var rate: Int?

    @Option(help: "Channels of raw PCM on stdin.")
    var channels: Int = 1

    @Flag(help: "Also stream suppressed candidates with the rule that suppressed them.")
    var explain = false

    @Flag(help: "Do not write records to stdout.")
    var quiet = false

    @Flag(help: "Keep serving HTTP after the source ends (until Ctrl-C).")
    var linger = false

    @Option(help: "Stop after this many seconds of media (with --loop: a bounded run).")
    var stopAfter: Double?

    @Option(help: "Records buffered per stream client before a slow client is dropped.")
    var clientBuffer: Int = 512

    @Option(help: .hidden)
    var blockMs: Double = 10

    @Option(help: ArgumentHelp("Largest control request body in bytes.", valueName: "BYTES"))
    var maxBodySize: Int = LiveServerConfiguration.defaultMaxBodySize

    @Option(help: ArgumentHelp("Deepest JSON nesting of a control request body.", valueName: "N"))
    var maxBodyDepth: Int = LiveServerConfiguration.defaultMaxBodyDepth

    @Option(help: ArgumentHelp("Seconds a client has to send its request head, and a control body.", valueName: "SECONDS"))
    var requestTimeout: Double = 30

    @Option(help: ArgumentHelp("Seconds an HTTP connection may sit idle between requests.", valueName: "SECONDS"))
    var idleTimeout: Double = 60

    @Option(help: ArgumentHelp("Most concurrent event-stream clients, SSE and WebSocket.", valueName: "N"))
    var maxClients: Int = LiveServerConfiguration.defaultMaxStreamClients

    @Option(help: "Give up on a stream when this many reconnect attempts in a row have failed (exit 1; default: never).")
    var reconnectAttempts: Int?

    @Option(help: .hidden)
    var reconnectMaxDelay: Double = 30

    @Option(help: "Rate a stream URL's audio is resampled to (Hz; default: the stream's own, see docs/live.md).")
    var streamAudioRate: Int?

    @OptionGroup(title: "Sound models")
    var modelOptions: ModelOptions

    @OptionGroup(title: "Input limits")
    var inputLimits: InputLimitOptions

    @OptionGroup(title: "Camera recordings") var mediaOptions: MediaOptions

    @OptionGroup(title: "MQTT (Home Assistant)") var mqttOptions: MQTTOptions

    @Flag(help: ArgumentHelp("Measure SSE delivery latency with an internal client and print a \"latency\" record.", visibility: .hidden))
    var measureLatency = false

    /// The launch these options describe.
    var launch: LiveLaunch {
        var launch = LiveLaunch(source: source)
        (launch.devicePath, launch.speed, launch.loop, launch.listen, launch.tokenFile) = (device, speed, loop, listen, tokenFile)
        (launch.rawPCMRate, launch.channels, launch.explain, launch.quiet, launch.linger) = (rate, channels, explain, quiet, linger)
        (launch.stopAfter, launch.clientBuffer, launch.blockMilliseconds) = (stopAfter, clientBuffer, blockMs)
        (launch.maxBodySize, launch.maxBodyDepth, launch.maxClients) = (maxBodySize, maxBodyDepth, maxClients)
        (launch.requestTimeout, launch.idleTimeout, launch.measureLatency) = (requestTimeout, idleTimeout, measureLatency)
        launch.mqtt = mqttOptions.settings
        let media = mediaOptions.readerOptions
        (launch.analysisFPS, launch.readsAudio, launch.readsVideo) = (media.analysisFPS ?? 5, media.readsAudio, media.readsVideo)
        (launch.reconnectAttempts, launch.reconnectMaxDelay) = (reconnectAttempts, reconnectMaxDelay)
        launch.streamAudioRate = streamAudioRate
        return launch
    }

    func validate() throws {
        if let problem = launch.problem(limits: try inputLimits.limits) { throw ValidationError(problem) }
    }

    func run() throws {
        let service: LiveService
        do {
            let models = try ModelReplacement.load(modelOptions.models)
            service = try launch.makeService(limits: try inputLimits.limits, models: models) {
                FileHandle.standardError.write(Data("\($0)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("vigil live: \(error)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
        switch service.runGroupBlocking() {
        case .finished: Foundation.exit(ExitStatus.success)
        case .sourceFailed: Foundation.exit(ExitStatus.someInputsFailed)
        case .cannotListen: Foundation.exit(ExitStatus.usage)
        }
    }
}
