import Glibc
import NIOConcurrencyHelpers
import Synchronization

/// Reads a live stream (RTSP, HTTP, SRT, UDP, or a file) through a ``MediaChunkSource`` and
/// reconnects when it drops: on a read error or an end of stream it opens the input again after
/// the ``ReconnectPolicy``'s delay, and places the new connection's media after the old one's on
/// one monotonic timeline (``StreamTimeline``).
///
/// The I/O is in the `open` closure (by default a ``MediaContainerReader``); the reconnect
/// decisions, the timeline and the status are plain logic, testable with any source. The reader
/// itself belongs to one thread; its ``monitor`` may be shared with others (health, metrics, stop).
public final class LiveMediaStreamReader: MediaChunkSource {
    /// The input as named in messages.
    public let inputName: String
    /// The status and the stop switch, for other threads.
    public let monitor: LiveStreamMonitor
    private let open: () throws(MediaReadError) -> any MediaChunkSource
    private let sleep: (Double) -> Void
    private let policy: ReconnectPolicy
    private let frameDuration: Double
    private let reconnectsAtEnd: Bool
    private var source: (any MediaChunkSource)?
    private var timeline = StreamTimeline()
    private var hasConnected = false

    /// A reader of `input` through ``MediaContainerReader`` with `options`. With
    /// `reconnectsAtEnd` (the default for live streams) the end of the input counts as a drop;
    /// without it the end of the input ends the reader.
    public convenience init(
        input: String, options: MediaReaderOptions = MediaReaderOptions(), policy: ReconnectPolicy = .standard, reconnectsAtEnd: Bool = true
    ) {
        let monitor = LiveStreamMonitor()
        self.init(
            inputName: MediaInputName.redacted(input), policy: policy, frameDuration: 1 / (options.analysisFPS ?? 25),
            reconnectsAtEnd: reconnectsAtEnd, monitor: monitor, sleep: LiveMediaStreamReader.sleepSeconds,
            open: { () throws(MediaReadError) -> any MediaChunkSource in
                let reader = try MediaContainerReader(input: input, options: options)
                monitor.setCancellation(reader.cancellation)
                return reader
            })
    }

    /// A reader over any source: `open` makes a new connection each time it is called, `sleep`
    /// waits (seconds) between attempts.
    public init(
        inputName: String, policy: ReconnectPolicy, frameDuration: Double, reconnectsAtEnd: Bool = true,
        monitor: LiveStreamMonitor = LiveStreamMonitor(), sleep: @escaping (Double) -> Void,
        open: @escaping () throws(MediaReadError) -> any MediaChunkSource
    ) {
        self.inputName = inputName
        self.policy = policy
        self.frameDuration = frameDuration
        self.reconnectsAtEnd = reconnectsAtEnd
        self.monitor = monitor
        self.sleep = sleep
        self.open = open
    }

    /// A copy of the current status.
    public var status: LiveStreamStatus { monitor.status }

    /// The next chunk on the continuous timeline; blocks while reconnecting. `nil` after
    /// ``LiveStreamMonitor/stop()`` or at the end of a non-reconnecting input; throws the last
    /// error when the policy gives up or the error is one a reconnect cannot fix.
    public func nextChunk() throws(MediaReadError) -> MediaChunk? {
        while !monitor.isStopped {
            guard let source else {
                try connect()
                continue
            }
            let chunk: MediaChunk?
            do {
                chunk = try source.nextChunk()
            } catch {
                if monitor.isStopped { return nil }
                try handleDrop(error)
                continue
            }
            guard let chunk else {
                if !reconnectsAtEnd {
                    monitor.update { $0.state = .ended }
                    return nil
                }
                try handleDrop(MediaReadError(.readFailed, input: inputName, reason: "the stream ended"))
                continue
            }
            let placed = timeline.place(chunk, frameDuration: frameDuration)
            let end = timeline.end
            monitor.update { status in
                status.state = .connected
                status.consecutiveFailures = 0
                status.chunks += 1
                status.mediaTime = end
            }
            return placed
        }
        monitor.update { $0.state = .stopped }
        return nil
    }

    private func connect() throws(MediaReadError) {
        do {
            source = try open()
            if hasConnected { monitor.update { $0.reconnects += 1 } }
            hasConnected = true
            timeline.beginSegment()
        } catch {
            try handleDrop(error)
        }
    }

    /// Counts the failure and waits before the next attempt, or rethrows when retrying is over.
    private func handleDrop(_ error: MediaReadError) throws(MediaReadError) {
        source = nil
        monitor.setCancellation(nil)
        var failures = 0
        monitor.update { status in
            status.consecutiveFailures += 1
            status.lastError = error
            failures = status.consecutiveFailures
        }
        guard error.isTransient, policy.allowsRetry(afterFailures: failures) else {
            monitor.update { $0.state = .failed }
            throw error
        }
        // Before the first connection the state stays `connecting`.
        if hasConnected { monitor.update { $0.state = .reconnecting } }
        var left = policy.delay(afterFailures: failures)
        while left > 0 && !monitor.isStopped {
            let step = min(left, 0.1)
            sleep(step)
            left -= step
        }
    }

    /// Sleeps `seconds` (the default wait between attempts).
    public static func sleepSeconds(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
    }
}

/// The thread-safe side of a ``LiveMediaStreamReader``: its status and its stop switch.
public final class LiveStreamMonitor: Sendable {
    private let current = NIOLockedValueBox(LiveStreamStatus())
    private let stopped = Atomic<Bool>(false)
    private let cancellation = NIOLockedValueBox<MediaReadCancellation?>(nil)

    /// Creates a monitor in state `connecting`.
    public init() {}

    /// A copy of the current status.
    public var status: LiveStreamStatus { current.withLockedValue { $0 } }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Ends the reader: a blocking read of the current connection is cancelled and the reader's
    /// next ``LiveMediaStreamReader/nextChunk()`` returns `nil`.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        cancellation.withLockedValue { $0?.cancel() }
        current.withLockedValue { $0.state = .stopped }
    }

    func update(_ change: (inout LiveStreamStatus) -> Void) {
        current.withLockedValue { status in
            if status.state == .stopped { return }
            change(&status)
        }
    }

    /// Registers the cancellation handle of the connection being opened or read (`nil`: none), so
    /// that ``stop()`` can end its blocking I/O; a reader made with its own `open` closure calls it.
    public func setCancellation(_ handle: MediaReadCancellation?) {
        cancellation.withLockedValue { $0 = handle }
        if isStopped { handle?.cancel() }
    }
}

/// Cancels a ``MediaContainerReader``'s blocking I/O from another thread.
public struct MediaReadCancellation: Sendable {
    let state: InterruptState

    /// Makes the reader's current (or next) open or read fail with ``MediaReadError/Kind/cancelled``.
    public func cancel() { state.cancelled.store(true, ordering: .relaxed) }
}
