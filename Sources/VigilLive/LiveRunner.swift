import Foundation
import NIOConcurrencyHelpers
import VigilCore
import VigilFrameIO
import VigilPipeline

/// Drives a ``LiveSession`` from a ``AudioSource`` (blocks of samples) or a
/// ``VideoSource`` (frames) on its own thread: reads the media, paces it by the media clock
/// (`speed` × real time; or by arrival for real-time sources), and hands it to the session.
/// A block is due when its last sample is; a frame at its media time. Media time drives analysis; the wall clock only decides when a
/// block is processed. Detection never waits for stream clients (the hub never blocks).
public final class LiveRunner: @unchecked Sendable {
    /// How to run.
    public struct Options: Sendable, Hashable {
        /// Media seconds per wall-clock second; 0 = as fast as possible.
        public var speed: Double
        /// Start the source again at its end (media time keeps increasing).
        public var loop: Bool
        /// Audio block length in seconds of media (10 ms: a confirmation is processed at most
        /// one block after its media time).
        public var blockDuration: Double
        /// Stop after this much media (seconds); `nil`: at the end of the source.
        public var maxMediaTime: Double?
        /// Wall-clock seconds between keep-alives to stream clients (``EventHub/heartbeat()``).
        public var heartbeatInterval: Double = 15

        /// Creates options (real time, no loop, 10 ms blocks).
        public init(speed: Double = 1, loop: Bool = false, blockDuration: Double = 0.01, maxMediaTime: Double? = nil) {
            self.speed = speed
            self.loop = loop
            self.blockDuration = blockDuration
            self.maxMediaTime = maxMediaTime
        }
    }

    /// The session fed.
    public let session: LiveSession
    /// The source read.
    public let source: any MediaSource
    /// The options.
    public let options: Options

    /// What the lock guards: the stop request, the end of the run and its error, the tasks
    /// waiting for the end, and the wall-clock start.
    private struct State {
        var stopRequested = false
        var done = false
        var failure: (any Error)?
        var waiters: [CheckedContinuation<Void, Never>] = []
        var wallStart: Double?
    }

    private let state = NIOLockedValueBox(State())

    /// Creates a runner. An audio source needs an audio session, a video source a video session, a
    /// ``LiveContainerSource`` a session that analyzes what it delivers (audio, video or both).
    public init(session: LiveSession, source: any MediaSource, options: Options) {
        if let container = source as? LiveContainerSource {
            precondition(
                session.analyzesAudio == container.analyzesAudio && session.analyzesVideo == container.readsVideo,
                "a container source needs a session that analyzes its audio and video")
        } else {
            precondition(
                (source is any VideoSource) == session.isVideo, "a video source needs a video session, an audio source an audio session")
        }
        self.session = session
        self.source = source
        self.options = options
    }

    /// The wall-clock time (``LiveClock/now()``) at which media time `media` is due, when paced
    /// by the media clock and started.
    public func wallTime(forMedia media: Double) -> Double? {
        state.withLockedValue { state in
            guard let wallStart = state.wallStart, options.speed > 0, !source.pacedByArrival else { return nil }
            return wallStart + media / options.speed
        }
    }

    /// The error that ended the run, if any.
    public var error: (any Error)? { state.withLockedValue { $0.failure } }

    /// Whether the run has ended.
    public var isDone: Bool { state.withLockedValue { $0.done } }

    /// Starts the processing thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "vigil-live-pacer"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Asks the run to stop after the current block (a network stream's blocking read or
    /// reconnect wait ends at once); the session is then finished.
    public func stop() {
        state.withLockedValue { $0.stopRequested = true }
        (source as? LiveContainerSource)?.stop()
    }

    /// Waits until the run has ended (the session is finished).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func run() {
        if let container = source as? LiveContainerSource {
            runContainer(container)
        } else if let video = source as? any VideoSource {
            runVideo(video)
        } else if let audio = source as? any AudioSource {
            runAudio(audio)
        }
        session.finish()
        let waiting = state.withLockedValue { state in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    private func runVideo(_ video: any VideoSource) {
        var source = video  // a class: `nextFrame()` is `mutating` only for FrameSource value types
        let start = LiveClock.now()
        state.withLockedValue { $0.wallStart = start }
        var nextHeartbeat = start + options.heartbeatInterval
        var loopOffset = 0.0
        var lastTime: Double?
        var interval = 0.0
        do {
            while !state.withLockedValue({ $0.stopRequested }) {
                var next = try source.nextFrame()
                if next == nil {
                    guard options.loop, let last = lastTime, try source.rewind() else { break }
                    // The next pass starts one frame interval after the last frame.
                    loopOffset = last + max(interval, 0.001)
                    next = try source.nextFrame()
                }
                guard var frame = next else { break }
                frame.time += loopOffset
                if let last = lastTime, frame.time > last { interval = frame.time - last }
                lastTime = frame.time
                if let limit = options.maxMediaTime, frame.time >= limit { break }
                let due: Double
                if source.pacedByArrival || options.speed <= 0 {
                    due = LiveClock.now()
                } else {
                    due = start + frame.time / options.speed
                    LiveClock.sleep(until: due)
                }
                session.process(frame: frame)
                let done = LiveClock.now()
                session.metrics.blockProcessed(mediaTime: frame.time, lag: done - due)
                if done >= nextHeartbeat {
                    session.hub.heartbeat()
                    nextHeartbeat = done + options.heartbeatInterval
                }
            }
        } catch {
            state.withLockedValue { $0.failure = error }
        }
    }

    /// Media seconds a video frame waits at most for the audio of its time (a stream whose audio
    /// stalls or lags must not hold back motion for ever).
    public static let videoHoldLimit = 1.0

    /// Reads a container file or a network stream chunk by chunk: audio in blocks of
    /// `blockDuration`, video frames merged in media order (a frame waits until the audio has
    /// reached its time, at most ``videoHoldLimit``), paced by media time (files) or processed as
    /// they arrive (streams). The audio is placed on the stream's timeline by ``AudioTimeline``,
    /// as in `vigil analyze`: comfort noise fills a gap (a reconnect, a jump in the stream's
    /// timestamps) and audio overlapping what was already analyzed is dropped. `--loop` places the next pass of a
    /// file after the end of the previous one.
    private func runContainer(_ source: LiveContainerSource) {
        // A stream analysed at its own rate gives it with its first audio chunk.
        var rate = source.sampleRate ?? 0
        var blockSize = 1
        var block = [Float]()
        func startAudio(at sampleRate: Double) {
            rate = sampleRate
            blockSize = max(1, Int((options.blockDuration * rate).rounded()))
            block.reserveCapacity(blockSize)
            session.startAudio(sampleRate: rate)
        }
        if rate > 0 { startAudio(at: rate) }
        var analyzedSamples: Int64 = 0
        var frames: [VideoFrame] = []
        let start = LiveClock.now()
        state.withLockedValue { $0.wallStart = start }
        var nextHeartbeat = start + options.heartbeatInterval
        var loopOffset = 0.0
        var lastEnd = 0.0
        var timeline = AudioTimeline()
        func pace(_ media: Double) -> Double {
            if source.pacedByArrival || options.speed <= 0 { return LiveClock.now() }
            let due = start + media / options.speed
            LiveClock.sleep(until: due)
            return due
        }
        func processed(_ media: Double, due: Double) {
            let done = LiveClock.now()
            session.metrics.blockProcessed(mediaTime: media, lag: done - due)
            if let lag = source.lagBehindStream(processedMediaTime: media) { session.metrics.streamLagMeasured(lag) }
            if done >= nextHeartbeat {
                session.hub.heartbeat()
                nextHeartbeat = done + options.heartbeatInterval
            }
        }
        func processFrames(upTo limit: Double) {
            while let frame = frames.first, frame.time <= limit {
                frames.removeFirst()
                let due = pace(frame.time)
                session.process(frame: frame)
                processed(frame.time, due: due)
            }
        }
        func processBlock() {
            processFrames(upTo: Double(analyzedSamples) / rate)
            analyzedSamples += Int64(block.count)
            let end = Double(analyzedSamples) / rate
            let due = pace(end)
            block.withUnsafeBufferPointer { _ = session.process($0) }
            block.removeAll(keepingCapacity: true)
            processed(end, due: due)
        }
        func append(_ samples: UnsafeBufferPointer<Float>) {
            var rest = samples[...]
            while !rest.isEmpty {
                let take = min(blockSize - block.count, rest.count)
                block.append(contentsOf: rest.prefix(take))
                rest = rest.dropFirst(take)
                if block.count == blockSize { processBlock() }
            }
        }
        do {
            reading: while !state.withLockedValue({ $0.stopRequested }) {
                var next = try source.nextChunk()
                if next == nil {
                    guard options.loop, try source.rewind() else { break }
                    loopOffset = max(lastEnd, rate > 0 ? Double(analyzedSamples + Int64(block.count)) / rate : 0)
                    next = try source.nextChunk()
                }
                guard let chunk = next else { break }
                switch chunk {
                case .audio(var audio):
                    guard source.analyzesAudio else { continue }
                    if rate == 0 { startAudio(at: Double(audio.sampleRate)) }
                    audio.time += loopOffset
                    if let limit = options.maxMediaTime, audio.time >= limit { break reading }
                    lastEnd = max(lastEnd, audio.endTime)
                    timeline.place(audio) { append($0) }
                case .video(let luma):
                    guard source.readsVideo else { continue }
                    var frame = luma.videoFrame
                    frame.time += loopOffset
                    if let limit = options.maxMediaTime, frame.time >= limit { break reading }
                    lastEnd = max(lastEnd, frame.time + source.frameDuration)
                    frames.append(frame)
                }
                // Frames the audio has reached (all of them without audio), and those too far ahead of it.
                let audioTime = source.deliversAudio ? (rate > 0 ? Double(analyzedSamples) / rate : 0) : Double.infinity
                processFrames(upTo: max(audioTime, (frames.last?.time ?? 0) - Self.videoHoldLimit))
            }
            if !block.isEmpty { processBlock() }
            processFrames(upTo: .infinity)
        } catch {
            state.withLockedValue { $0.failure = error }
        }
    }

    private func runAudio(_ source: any AudioSource) {
        let blockSize = max(1, Int((options.blockDuration * source.sampleRate).rounded()))
        var buffer = [Float](repeating: 0, count: blockSize)
        var media: Int64 = 0
        let rate = source.sampleRate
        let start = LiveClock.now()
        state.withLockedValue { $0.wallStart = start }
        var nextHeartbeat = start + options.heartbeatInterval
        do {
            while !state.withLockedValue({ $0.stopRequested }) {
                var count = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
                if count == 0 {
                    guard options.loop, try source.rewind() else { break }
                    count = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
                    if count == 0 { break }
                }
                if let limit = options.maxMediaTime, Double(media) / rate >= limit { break }
                media += Int64(count)
                let end = Double(media) / rate
                let due: Double
                if source.pacedByArrival || options.speed <= 0 {
                    due = LiveClock.now()
                } else {
                    due = start + end / options.speed
                    LiveClock.sleep(until: due)
                }
                _ = buffer.withUnsafeBufferPointer { session.process(UnsafeBufferPointer(rebasing: $0[0..<count])) }
                let done = LiveClock.now()
                session.metrics.blockProcessed(mediaTime: end, lag: done - due)
                if done >= nextHeartbeat {
                    session.hub.heartbeat()
                    nextHeartbeat = done + options.heartbeatInterval
                }
            }
        } catch {
            state.withLockedValue { $0.failure = error }
        }
    }
}
