import Foundation
import VigilControl
import VigilCore
import VigilDetectors
import VigilInference
import VigilMQTT
import VigilMedia
import VigilPipeline

/// What `vigil live` is asked to run: the source, the device, pacing and the HTTP server's
/// settings. ``problem(limits:)`` checks it and ``makeService(limits:models:warn:)`` wires the
/// source, the session, the runner and the server into one ``LiveService``.
public struct LiveLaunch: Sendable {
    /// Audio file, y4m file, container file (``LiveContainerSource/containerExtensions``), stream
    /// URL, scenario JSON, or `-` for stdin.
    public var source: String
    /// Device file; nil for the built-in default device.
    public var devicePath: String?
    /// Media seconds per wall-clock second (0: as fast as possible; stdin is never paced).
    public var speed: Double = 1
    /// Start a file or scenario again at its end.
    public var loop = false
    /// `HOST:PORT` to listen on.
    public var listen = "127.0.0.1:\(LiveServerConfiguration.defaultPort)"
    /// File holding the control endpoints' bearer token.
    public var tokenFile: String?
    /// Sample rate of raw PCM on stdin (nil: stdin is y4m).
    public var rawPCMRate: Int?
    /// Channels of raw PCM on stdin.
    public var channels = 1
    /// Also stream suppressed candidates.
    public var explain = false
    /// No records on stdout.
    public var quiet = false
    /// Keep serving after the source ends.
    public var linger = false
    /// Stop after this many seconds of media.
    public var stopAfter: Double?
    /// Records buffered per stream client before a slow client is dropped.
    public var clientBuffer = 512
    /// Analysis block length in milliseconds.
    public var blockMilliseconds: Double = 10
    /// Largest control request body in bytes.
    public var maxBodySize = LiveServerConfiguration.defaultMaxBodySize
    /// Deepest JSON nesting of a control request body.
    public var maxBodyDepth = LiveServerConfiguration.defaultMaxBodyDepth
    /// Seconds a client has to send its request head and a control body.
    public var requestTimeout: Double = 30
    /// Seconds an HTTP connection may sit idle between requests.
    public var idleTimeout: Double = 60
    /// Most concurrent event-stream clients.
    public var maxClients = LiveServerConfiguration.defaultMaxStreamClients
    /// Measure SSE delivery latency with an internal client.
    public var measureLatency = false
    /// Publish the records to an MQTT broker for Home Assistant (`--mqtt`, docs/mqtt.md).
    public var mqtt: MQTTOutputSettings?
    /// Video frames analyzed per second of media (container files and streams).
    public var analysisFPS = 5.0
    /// Analyze the audio of a container file or stream (`--no-audio` clears it).
    public var readsAudio = true
    /// Analyze the video of a container file or stream (`--no-video` clears it).
    public var readsVideo = true
    /// The rate (Hz) a stream URL's audio is resampled to (`--stream-audio-rate`); `nil` keeps the
    /// stream's own rate (``LiveContainerSource/analysisRate(forStreamRate:)``).
    public var streamAudioRate: Int?
    /// Reconnect attempts after a failure that may fail in a row before a stream is given up (the
    /// run then ends with status 1; 0: never reconnect); `nil` retries for ever.
    public var reconnectAttempts: Int?
    /// The longest wait between connection attempts, in seconds (the backoff starts at 0.5 s and doubles).
    public var reconnectMaxDelay = 30.0

    /// The reconnect policy these settings give.
    public var reconnectPolicy: ReconnectPolicy {
        ReconnectPolicy(initialDelay: min(0.5, reconnectMaxDelay), maximumDelay: reconnectMaxDelay, maximumAttempts: reconnectAttempts)
    }

    /// A launch of `source` with the default settings.
    public init(source: String) { self.source = source }

    /// The first problem with these settings, naming the option, or nil when they can run.
    public func problem(limits: InputLimits) -> String? {
        guard speed >= 0, speed.isFinite else { return "--speed must be 0 (as fast as possible) or a positive number" }
        guard LiveServerConfiguration.parseListen(listen) != nil else { return "--listen \(listen): expected HOST:PORT" }
        guard (1...limits.maxAudioChannels).contains(channels) else {
            return "--channels must be 1...\(limits.maxAudioChannels) (raise the limit with --max-channels)"
        }
        guard maxBodySize >= 1 else { return "--max-body-size must be at least 1 byte" }
        guard (1...InputLimits.maxJSONDepthCeiling).contains(maxBodyDepth) else {
            return "--max-body-depth must be 1...\(InputLimits.maxJSONDepthCeiling)"
        }
        for (name, value) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout)] where !(value > 0 && value <= 86_400)
        {
            return "\(name) must be a number of seconds in (0, 86400]"
        }
        guard maxClients >= 1 else { return "--max-clients must be at least 1" }
        guard (1...1_000_000).contains(clientBuffer) else { return "--client-buffer must be 1...1000000" }
        guard blockMilliseconds >= 1 && blockMilliseconds <= 1000 else { return "--block-ms must be 1...1000" }
        if let stopAfter, !(stopAfter > 0 && stopAfter.isFinite) { return "--stop-after must be a positive number of seconds" }
        if source == "-" {
            if let rawPCMRate, !(8_000...192_000).contains(rawPCMRate) { return "stdin PCM needs --rate 8000...192000" }
            if loop { return "--loop does not apply to stdin" }
        } else if rawPCMRate != nil {
            return "--rate applies to raw PCM on stdin (SOURCE -)"
        }
        if measureLatency && (source == "-" || speed == 0) { return "--measure-latency needs a paced file or scenario source" }
        return mediaProblem
    }

    /// The first problem with the container and stream options.
    private var mediaProblem: String? {
        guard readsAudio || readsVideo else { return "--no-audio and --no-video leave nothing to analyze" }
        guard analysisFPS > 0 && analysisFPS <= 60 else { return "--analysis-fps must be in (0, 60]" }
        guard reconnectMaxDelay > 0 && reconnectMaxDelay <= 3600 else { return "--reconnect-max-delay must be in (0, 3600] seconds" }
        if let reconnectAttempts, reconnectAttempts < 0 { return "--reconnect-attempts must be 0 or more" }
        guard LiveContainerSource.reads(source) else {
            if !readsAudio || !readsVideo || analysisFPS != 5 {
                return "--no-audio, --no-video and --analysis-fps apply to a container file (\(source) is not one) or a stream URL"
            }
            return nil
        }
        guard MediaInputName.isNetworkURL(source) else {
            return streamAudioRate != nil ? "--stream-audio-rate applies to a stream URL (a file keeps its own rate)" : nil
        }
        if loop { return "--loop does not apply to a stream URL" }
        if measureLatency { return "--measure-latency needs a paced file or scenario source" }
        if let streamAudioRate, !LiveContainerSource.analysisRates.contains(streamAudioRate) {
            return "--stream-audio-rate must be 8000...48000 Hz"
        }
        return nil
    }

    /// Loads the device and the token, opens the source and wires the live service; a failure is
    /// a ``LiveLaunchFailure`` with the message to print (a usage, device-file or scenario error).
    public func makeService(
        limits: InputLimits, models: [EventTriggerType: SoundModel], warn: (String) -> Void
    ) throws(LiveLaunchFailure) -> LiveService {
        let (host, port) = LiveServerConfiguration.parseListen(listen) ?? ("127.0.0.1", LiveServerConfiguration.defaultPort)
        let token: String?
        do { token = try tokenFile.map(LiveServerConfiguration.token(fromFile:)) } catch {
            throw LiveLaunchFailure("--token-file \(error)")
        }
        let configuration = LiveServerConfiguration(
            host: host, port: port, token: token, maxBodySize: maxBodySize, maxBodyDepth: maxBodyDepth,
            requestTimeout: .milliseconds(Int64(requestTimeout * 1000)), idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            maxStreamClients: maxClients)
        if !configuration.isLoopback && token == nil {
            throw LiveLaunchFailure(
                "--listen \(listen) is not a loopback address: give --token-file so that control requests need a bearer token")
        }
        let loadedDevice: LoadedDevice
        do { loadedDevice = try LoadedDevice.load(path: devicePath, limits: limits) } catch { throw LiveLaunchFailure("\(error)") }
        for warning in loadedDevice.warnings { warn("warning: \(warning)") }
        var settings = loadedDevice.settings
        settings.models = models
        let mediaSource: any MediaSource
        do {
            if LiveContainerSource.reads(source) {
                mediaSource = try LiveContainerSource(
                    input: source, readsAudio: readsAudio, readsVideo: readsVideo, analysisFPS: analysisFPS, policy: reconnectPolicy,
                    networkAudioRate: streamAudioRate, log: { FileHandle.standardError.write(Data("vigil live: \($0)\n".utf8)) })
            } else {
                mediaSource = try MediaSourceOpener.open(source, rawPCMRate: rawPCMRate, channels: channels, limits: limits)
            }
        } catch let failure as ScenarioLoadFailure {
            throw LiveLaunchFailure(failure.description)
        } catch {
            throw LiveLaunchFailure("\(error)")
        }
        let metrics = LiveMetrics()
        let hub = EventHub(clientBufferCapacity: clientBuffer, metrics: metrics)
        let controller = DeviceController(device: loadedDevice.device)
        let stdout = JSONLinesSink()
        var sinks: [any EventSink] = quiet ? [] : [stdout]
        if let mqtt {
            do { sinks.append(try MQTTEventSink(settings: mqtt, device: loadedDevice.device, metrics: metrics)) } catch {
                throw LiveLaunchFailure("--mqtt \(error)")
            }
        }
        let container = mediaSource as? LiveContainerSource
        if let monitor = container?.monitor { metrics.attach(stream: monitor) }
        let session =
            container.map {
                LiveSession(
                    container: $0, device: controller, settings: settings, explain: explain, hub: hub, metrics: metrics, sinks: sinks)
            }
            ?? (mediaSource as? any AudioSource).map {
                LiveSession(
                    sampleRate: $0.sampleRate, sourceName: $0.name, device: controller, settings: settings, explain: explain, hub: hub,
                    metrics: metrics, sinks: sinks)
            }
            ?? LiveSession(
                videoSourceName: mediaSource.name, device: controller, explain: explain, hub: hub, metrics: metrics, sinks: sinks)
        let runner = LiveRunner(
            session: session, source: mediaSource,
            options: LiveRunner.Options(
                speed: source == "-" ? 0 : speed, loop: loop, blockDuration: blockMilliseconds / 1000, maxMediaTime: stopAfter))
        return LiveService(
            server: LiveServer(session: session, configuration: configuration), runner: runner, host: host, measure: measureLatency,
            linger: linger, report: stdout)
    }
}

extension LiveSession {
    /// The session for what `container` delivers: audio and video, audio alone or video alone.
    /// Parameters as for an audio session.
    public convenience init(
        container: LiveContainerSource, device: DeviceController, settings: DetectorSettings = DetectorSettings(), explain: Bool = false,
        hub: EventHub, metrics: LiveMetrics, sinks: [any EventSink] = [], onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        switch (container.analyzesAudio, container.sampleRate, container.readsVideo) {
        case (true, nil, let video):
            self.init(
                audioRateLaterSourceName: container.name, video: video, device: device, settings: settings, explain: explain, hub: hub,
                metrics: metrics, sinks: sinks, onRecord: onRecord)
        case (true, let rate?, true):
            self.init(
                sampleRate: rate, audioVideoSourceName: container.name, device: device, settings: settings, explain: explain, hub: hub,
                metrics: metrics, sinks: sinks, onRecord: onRecord)
        case (true, let rate?, false):
            self.init(
                sampleRate: rate, sourceName: container.name, device: device, settings: settings, explain: explain, hub: hub,
                metrics: metrics, sinks: sinks, onRecord: onRecord)
        case (false, _, _):
            self.init(
                videoSourceName: container.name, device: device, explain: explain, hub: hub, metrics: metrics, sinks: sinks,
                onRecord: onRecord)
        }
    }
}

/// Why a live run could not start: the message names the option or the input and the reason.
public struct LiveLaunchFailure: Error, Sendable, CustomStringConvertible {
    /// The message to print.
    public var description: String
    /// A failure with this message.
    public init(_ description: String) { self.description = description }
}
