import ArgumentParser
import Foundation
import VigilControl
import VigilCore
import VigilLive
import VigilPipeline

/// `vigil live`: the live event generator with its HTTP API.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Stream events as they happen from a file, stdin or a scenario, with an HTTP API.",
        discussion: """
            SOURCE is an audio file (paced at real time, or --speed N; --loop repeats it with media time \
            running on), a y4m video file (frames paced by their media time; motion in the device's \
            activity zones), "-" for stdin (raw PCM with --rate and --channels: signed 16-bit \
            little-endian; without --rate: y4m frames, e.g. from ffmpeg -f yuv4mpegpipe; processed as \
            they arrive), or a scenario JSON (rendered on the fly by the code behind vigil synth).

            Records go to stdout as JSON Lines (docs/output-schema.md, plus the live keys "seq" and \
            "emittedAt" and the live types "eventStarted", "deviceChanged" and "end") and to an HTTP \
            server (docs/live.md), by default on 127.0.0.1:8787. An event is announced by an \
            "eventStarted" record as soon as its detector confirms it (a sound, an alarm pattern, the \
            first motion in a zone), and reported by its "event" record (same "id") when it is final.
            
              GET  /events             Server-Sent Events (WebSocket: Upgrade)
              GET  /device             device state (device-file JSON)
              GET  /health, /metrics   status; Prometheus text
              POST /zones              createTwoDCartesianZone -> {"zoneID"}
              PUT  /zones/{id}         updateTwoDCartesianZone
              DELETE /zones/{id}       removeZone
              POST /triggers           createOrUpdateTrigger
              DELETE /triggers/{zoneID}  removeTrigger
              POST /event-detection-triggers  setOrUpdateEventDetectionTriggers
              PUT  /recording-mode     select {"selectedRecordingMode":N}
              PUT  /transport          transport status and trigger options
              PUT  /audio              microphone and recording-microphone mute
            Control requests are validated like device files; errors are 4xx with \
            {"status","field","reason"}. Changes take effect from the next 10 ms block or video frame \
            (zones: from the next frame). On a non-loopback \
            address the control endpoints need "Authorization: Bearer TOKEN" (--token-file is then required).

            A session with curl (docs/live.md has the full walk-through):
              vigil live Samples/demo-scene.flac --loop \\
                --device Samples/front-door.json &
              curl -N localhost:8787/events
              curl localhost:8787/health
              curl -X POST localhost:8787/zones -d '{"name":"Drive",
                "use":"motion","vertices":[{"x":0,"y":0},
                {"x":900,"y":0},{"x":900,"y":700}]}'
              curl -X POST localhost:8787/triggers \\
                -d '{"zoneID":3,"initialDuration":10,"maxDuration":30}'
              curl -X POST localhost:8787/event-detection-triggers -d \\
                '[{"eventTriggerType":"sound","enablementStatus":"disabled"}]'
              curl -X PUT localhost:8787/recording-mode \\
                -d '{"selectedRecordingMode":0}'
              curl -X PUT localhost:8787/audio -d '{"microphoneMuted":true}'
              curl localhost:8787/metrics
              curl localhost:8787/device > now.json

            Video from a camera or a clip, zones changed while it runs:
              ffmpeg -i clip.mp4 -f yuv4mpegpipe - | vigil live - \
                --device Samples/front-door.json &
              curl -X PUT localhost:8787/zones/1 -d '{"name":"Porch",
                "use":"motion","vertices":[{"x":0,"y":1000},
                {"x":2048,"y":1000},{"x":2048,"y":2048}]}'

            The run ends at the end of SOURCE (without --loop; use --linger to keep serving) or on \
            Ctrl-C; both finish the stream with an "end" record. Exit status: 0, 1 when the source \
            failed while streaming, 2 for usage, device-file or scenario errors.
            """)

    @Argument(help: "Audio file, y4m video file, scenario JSON, or - for stdin (raw PCM with --rate, else y4m).")
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

    @OptionGroup(title: "Sound models")
    var modelOptions: ModelOptions

    @OptionGroup(title: "Input limits")
    var inputLimits: InputLimitOptions

    @Flag(help: ArgumentHelp("Measure SSE delivery latency with an internal client and print a \"latency\" record.", visibility: .hidden))
    var measureLatency = false

    func validate() throws {
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 (as fast as possible) or a positive number") }
        guard LiveServerConfiguration.parseListen(listen) != nil else { throw ValidationError("--listen \(listen): expected HOST:PORT") }
        let limits = try inputLimits.limits
        guard (1...limits.maxAudioChannels).contains(channels) else {
            throw ValidationError("--channels must be 1...\(limits.maxAudioChannels) (raise the limit with --max-channels)")
        }
        guard maxBodySize >= 1 else { throw ValidationError("--max-body-size must be at least 1 byte") }
        guard (1...InputLimits.maxJSONDepthCeiling).contains(maxBodyDepth) else {
            throw ValidationError("--max-body-depth must be 1...\(InputLimits.maxJSONDepthCeiling)")
        }
        for (name, value) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout)] where !(value > 0 && value <= 86_400) {
            throw ValidationError("\(name) must be a number of seconds in (0, 86400]")
        }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        guard (1...1_000_000).contains(clientBuffer) else { throw ValidationError("--client-buffer must be 1...1000000") }
        guard blockMs >= 1 && blockMs <= 1000 else { throw ValidationError("--block-ms must be 1...1000") }
        if let stopAfter, !(stopAfter > 0 && stopAfter.isFinite) { throw ValidationError("--stop-after must be a positive number of seconds") }
        if source == "-" {
            if let rate, !(8_000...192_000).contains(rate) { throw ValidationError("stdin PCM needs --rate 8000...192000") }
            if loop { throw ValidationError("--loop does not apply to stdin") }
        } else if rate != nil {
            throw ValidationError("--rate applies to raw PCM on stdin (SOURCE -)")
        }
        if measureLatency && (source == "-" || speed == 0) { throw ValidationError("--measure-latency needs a paced file or scenario source") }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("vigil live: \(message)\n".utf8))
        Foundation.exit(ExitStatus.usage)
    }

    func run() throws {
        let (host, port) = LiveServerConfiguration.parseListen(listen)!
        var token: String?
        do { token = try tokenFile.map(LiveServerConfiguration.token(fromFile:)) } catch { fail("--token-file \(error)") }
        let configuration = LiveServerConfiguration(
            host: host, port: port, token: token, maxBodySize: maxBodySize, maxBodyDepth: maxBodyDepth,
            requestTimeout: .milliseconds(Int64(requestTimeout * 1000)), idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            maxStreamClients: maxClients)
        let limits: InputLimits
        do { limits = try inputLimits.limits } catch { fail("\(error)") }
        if !configuration.isLoopback && token == nil {
            fail("--listen \(listen) is not a loopback address: give --token-file so that control requests need a bearer token")
        }
        let loadedDevice: LoadedDevice
        do {
            loadedDevice = try LoadedDevice.load(path: device, limits: limits)
        } catch {
            fail("\(error)")
        }
        for warning in loadedDevice.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        var settings = loadedDevice.settings
        do { settings.models = try modelOptions.load() } catch { fail("\(error)") }

        let mediaSource: any MediaSource
        do {
            mediaSource = try MediaSourceOpener.open(source, rawPCMRate: rate, channels: channels, limits: limits)
        } catch let failure as ScenarioLoadFailure {
            fail(failure.description)
        } catch {
            fail("\(error)")
        }

        let metrics = LiveMetrics()
        let hub = EventHub(clientBufferCapacity: clientBuffer, metrics: metrics)
        let controller = DeviceController(device: loadedDevice.device)
        let stdout = JSONLinesSink()
        let sinks: [any EventSink] = quiet ? [] : [stdout]
        let session =
            (mediaSource as? any AudioSource).map {
                LiveSession(
                    sampleRate: $0.sampleRate, sourceName: $0.name, device: controller, settings: settings, explain: explain, hub: hub,
                    metrics: metrics, sinks: sinks)
            }
            ?? LiveSession(videoSourceName: mediaSource.name, device: controller, explain: explain, hub: hub, metrics: metrics, sinks: sinks)
        let runner = LiveRunner(
            session: session, source: mediaSource,
            options: LiveRunner.Options(
                speed: source == "-" ? 0 : speed, loop: loop, blockDuration: blockMs / 1000, maxMediaTime: stopAfter))
        let service = LiveService(
            server: LiveServer(session: session, configuration: configuration), runner: runner, host: host, measure: measureLatency,
            linger: linger, report: stdout)
        switch service.runGroupBlocking() {
        case .finished: Foundation.exit(ExitStatus.success)
        case .sourceFailed: Foundation.exit(ExitStatus.someInputsFailed)
        case .cannotListen: Foundation.exit(ExitStatus.usage)
        }
    }
}
