import Foundation
import NIOConcurrencyHelpers
import VigilMedia
import VigilPipeline

/// A container file (MP4, MKV, WebM, MOV, MPEG-TS, ...) or a network stream (`rtsp://`,
/// `http(s)://`, `srt://`, `udp://`) read through VigilMedia for `vigil live`: the audio (mono
/// Float32) and the luma frames at the analysis frame rate of one input, on one media timeline, for
/// one ``LiveSession`` that analyzes both.
///
/// A file is opened at once (a bad file fails before the server starts), read as fast as the
/// runner asks, paced by its media time, and can be rewound for `--loop`; its audio keeps the
/// stream's own sample rate. A network stream is opened by a ``LiveMediaStreamReader`` on the
/// first read: it reconnects with the ``ReconnectPolicy``'s bounded exponential backoff when the
/// stream drops, keeps the timeline monotonic across reconnects, and its chunks are processed as
/// they arrive; its audio keeps the rate of the first connection that carries audio (brought into
/// ``analysisRates``), or is resampled to the rate given, and a reconnect that brings another
/// rate is resampled to it: the analysis keeps one rate. Used by one thread (the runner's),
/// except ``monitor`` and ``stop()``.
public final class LiveContainerSource: MediaSource {
    /// The input as given, with a URL password replaced by `***`: the `file` of every record.
    public let name: String
    /// Whether the input is a network stream (else a file).
    public let isNetwork: Bool
    /// Sample rate of the audio handed over; `nil` when no audio is read, and for a network
    /// stream without a given rate until its first connection that carries audio has chosen it.
    public var sampleRate: Double? { streamRate.withLockedValue { $0 }.map(Double.init) ?? fileRate }
    /// Whether video frames are handed over.
    public let readsVideo: Bool
    /// The network stream's status and stop switch (`nil` for a file).
    public let monitor: LiveStreamMonitor?
    /// The seconds a video frame stands for (1 / analysis fps).
    public let frameDuration: Double

    /// Network streams are processed as they arrive; files are paced by their media time.
    public var pacedByArrival: Bool { isNetwork }

    private let input: String
    private let options: MediaReaderOptions
    /// A file's audio rate.
    private let fileRate: Double?
    /// A network stream's audio rate: the rate given, or the one its first connection with audio chose.
    private let streamRate: NIOLockedValueBox<Int?>
    private var reader: any MediaChunkSource
    /// Whether the current connection carries audio (network streams; set by each open).
    private let connectionHasAudio: NIOLockedValueBox<Bool>
    /// Set by each network connection's open: its first audio is yet to come.
    private let connectionOpened = NIOLockedValueBox(false)
    /// Audio of the current connection ending before this media time is left out.
    private var skipsAudioUntil: Double?
    /// The smallest `arrival - media end` seen on the current connection, and the reconnect count
    /// it belongs to: the stream's own delivery delay, against which the lag is measured.
    private var arrivalBaseline: (reconnects: Int, offset: Double)?

    /// Seconds of audio left out at the start of each network connection: the encoder's priming
    /// frames of a camera that (re)starts, and the first frame a decoder joining mid-stream
    /// decodes without its overlap, are near-silent, and digital silence would pull the sound
    /// detector's noise floor down (the room's background would then count as a sound for many
    /// seconds). The runner fills the gap with noise at the background level.
    public static let connectionAudioSkip = 0.3
    /// The rate network audio is analysed at when the stream does not state its own: every band
    /// the sound models read (up to 16 kHz).
    public static let networkSampleRate = 32_000
    /// The rates a network stream's own audio rate is analysed at unchanged: a camera's own rate
    /// is what `vigil analyze` would use on its recording (below 32 kHz glassBreak and
    /// personTalking use their low-rate models, trained on such audio); a rate outside is brought
    /// to the nearest end.
    public static let analysisRates = 8_000...48_000

    /// The rate a network stream whose own audio rate is `sourceRate` (0 when unstated) is analysed at.
    public static func analysisRate(forStreamRate sourceRate: Int) -> Int {
        sourceRate > 0 ? min(max(sourceRate, analysisRates.lowerBound), analysisRates.upperBound) : networkSampleRate
    }
    /// File extensions read as containers through libavformat (other files keep their readers).
    public static let containerExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "ts", "m2ts", "mts", "avi", "flv", "3gp"]

    /// Whether `source` (a `vigil live` SOURCE argument) is read by this source: a network URL, or
    /// a file with one of the ``containerExtensions``.
    public static func reads(_ source: String) -> Bool {
        MediaInputName.isNetworkURL(source) || containerExtensions.contains((source as NSString).pathExtension.lowercased())
    }

    /// Opens `input`: a file at once, a URL on the first ``nextChunk()``.
    /// - Parameters:
    ///   - readsAudio, readsVideo: which streams to analyze (`--no-audio`, `--no-video`).
    ///   - analysisFPS: video frames handed over per second of media.
    ///   - policy: when to reconnect a network stream (files are not reconnected).
    ///   - networkAudioRate: the rate a network stream's audio is resampled to; `nil` (the default)
    ///     keeps the rate of the first connection that carries audio (``analysisRate(forStreamRate:)``).
    ///     Files keep their own.
    ///   - log: receives one line per failed connection attempt and per reconnect.
    /// - Throws: ``MediaReadError`` naming the file and the reason (unreadable, not a container,
    ///   no audio or video stream to read).
    public init(
        input: String, readsAudio: Bool = true, readsVideo: Bool = true, analysisFPS: Double = 5, policy: ReconnectPolicy = .standard,
        networkAudioRate: Int? = nil, log: @escaping @Sendable (String) -> Void
    ) throws(MediaReadError) {
        self.input = input
        let name = MediaInputName.redacted(input)
        self.name = name
        isNetwork = MediaInputName.isNetworkURL(input)
        frameDuration = 1 / analysisFPS
        let hasAudio = NIOLockedValueBox(readsAudio)
        connectionHasAudio = hasAudio
        let opened = connectionOpened
        let streamRate = NIOLockedValueBox<Int?>(isNetwork && readsAudio ? networkAudioRate : nil)
        self.streamRate = streamRate
        if isNetwork {
            let options = MediaReaderOptions(readsAudio: readsAudio, readsVideo: readsVideo, analysisFPS: analysisFPS)
            self.options = options
            let monitor = LiveStreamMonitor()
            self.monitor = monitor
            fileRate = nil
            self.readsVideo = readsVideo
            reader = LiveMediaStreamReader(
                inputName: name, policy: policy, frameDuration: 1 / analysisFPS, monitor: monitor,
                sleep: LiveMediaStreamReader.sleepSeconds,
                open: { () throws(MediaReadError) -> any MediaChunkSource in
                    let before = monitor.status
                    do throws(MediaReadError) {
                        let reader = try Self.open(input, options: options, rate: streamRate, name: name, log: log)
                        monitor.setCancellation(reader.cancellation)
                        hasAudio.withLockedValue { $0 = reader.audio != nil }
                        opened.withLockedValue { $0 = true }
                        if before.chunks > 0 {
                            log("\(name): reconnected (\(before.lastError.map { "after: \($0.reason)" } ?? "after the stream ended"))")
                        }
                        return reader
                    } catch {
                        let attempt = before.consecutiveFailures + 1
                        let retries = error.isTransient && policy.allowsRetry(afterFailures: attempt)
                        log(
                            "\(error) (connection attempt \(attempt)\(retries ? "; retrying in \(policy.delay(afterFailures: attempt)) s" : ""))"
                        )
                        throw error
                    }
                })
        } else {
            let options = MediaReaderOptions(readsAudio: readsAudio, readsVideo: readsVideo, analysisFPS: analysisFPS)
            self.options = options
            let reader = try MediaContainerReader(input: input, options: options)
            monitor = nil
            fileRate = reader.audio.map { Double($0.sampleRate) }
            self.readsVideo = reader.video != nil
            hasAudio.withLockedValue { $0 = reader.audio != nil }
            self.reader = reader
        }
    }

    /// Opens one connection to a network stream, its audio at the rate in `rate`; while that is
    /// `nil`, the first connection with audio chooses it (``analysisRate(forStreamRate:)``) and
    /// logs it.
    private static func open(
        _ input: String, options: MediaReaderOptions, rate: NIOLockedValueBox<Int?>, name: String, log: @Sendable (String) -> Void
    ) throws(MediaReadError) -> MediaContainerReader {
        var options = options
        let given = rate.withLockedValue { $0 }
        options.audioSampleRate = options.readsAudio ? given ?? networkSampleRate : nil
        let reader = try MediaContainerReader(input: input, options: options)
        guard given == nil, let audio = reader.audio else { return reader }
        let chosen = analysisRate(forStreamRate: audio.sourceSampleRate)
        reader.resampleAudio(to: chosen)
        rate.withLockedValue { $0 = chosen }
        let own = audio.sourceSampleRate > 0 ? "\(audio.sourceSampleRate) Hz" : "no stated rate"
        log("\(name): audio analysed at \(chosen) Hz (the stream's own: \(own); kept across reconnects)")
        return reader
    }

    /// Whether the current connection (a file: the file) delivers audio: video frames then wait
    /// for the audio of their time, so that both reach the engine in media order.
    public var deliversAudio: Bool { sampleRate != nil && connectionHasAudio.withLockedValue { $0 } }

    /// Whether the audio is analysed: the file has audio, or the stream's audio is read (its rate
    /// may still be unknown).
    public var analyzesAudio: Bool { isNetwork ? options.readsAudio : fileRate != nil }

    /// The next chunk on the media timeline, or `nil` at the end of a file (or after ``stop()``).
    /// - Throws: ``SourceReadError`` with the reason (the runner names the input) when a file
    ///   cannot be read on, or when a network stream cannot be reconnected (the policy gave up, or
    ///   the input is wrong in a way a reconnect cannot fix).
    public func nextChunk() throws -> MediaChunk? {
        var chunk: MediaChunk?
        repeat {
            do {
                chunk = try reader.nextChunk()
            } catch {
                let failures = monitor?.status.consecutiveFailures ?? 1
                throw SourceReadError(reason: error.reason + (failures > 1 ? " (gave up after \(failures) failed attempts in a row)" : ""))
            }
            if let first = chunk, connectionOpened.withLockedValue({ $0 }) {
                connectionOpened.withLockedValue { $0 = false }
                skipsAudioUntil = first.time + Self.connectionAudioSkip
            }
            guard case .audio(let audio) = chunk, let until = skipsAudioUntil else { break }
            if audio.endTime > until {
                skipsAudioUntil = nil
                break
            }
        } while true
        if let chunk, let monitor {
            let end: Double
            switch chunk {
            case .audio(let audio): end = audio.endTime
            case .video(let frame): end = frame.time
            }
            let offset = LiveClock.now() - end
            let reconnects = monitor.status.reconnects
            if let baseline = arrivalBaseline, baseline.reconnects == reconnects {
                arrivalBaseline = (reconnects, min(baseline.offset, offset))
            } else {
                arrivalBaseline = (reconnects, offset)
            }
        }
        return chunk
    }

    /// How far (seconds, ≥ 0) the analysis at media time `mediaTime`, finished now, is behind
    /// the live stream: the wall time since `mediaTime` arrived, less the stream's own delivery
    /// delay (the smallest seen on this connection). `nil` for a file.
    public func lagBehindStream(processedMediaTime mediaTime: Double) -> Double? {
        guard let baseline = arrivalBaseline else { return nil }
        return max(0, LiveClock.now() - mediaTime - baseline.offset)
    }

    /// Opens a file again from its start (for `--loop`); `false` for a network stream.
    public func rewind() throws -> Bool {
        guard !isNetwork else { return false }
        do { reader = try MediaContainerReader(input: input, options: options) } catch { throw SourceReadError(reason: error.reason) }
        return true
    }

    /// Ends a network stream: a blocking read or a wait between attempts returns at once.
    public func stop() { monitor?.stop() }
}
