import Foundation
import VigilCore

/// Measures event delivery latency as a real SSE client: connects to `GET /events` over TCP on
/// its own thread and timestamps every `event` message on arrival against the pacer's
/// media-to-wall mapping (``LiveRunner/wallTime(forMedia:)``).
public final class LatencyProbe: @unchecked Sendable {
    private let client: SSEClient
    private let lock = NSLock()
    private var arrivals: [(emittedAt: Double, detectedAt: Double, receivedAt: Double)] = []
    private var done = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Connects to the server at `host:port` (throws when it cannot).
    public init(host: String, port: Int) throws {
        client = SSEClient(host: host, port: port)
        try client.connect()
    }

    /// Starts reading on a dedicated thread until the stream ends.
    public func start() {
        let thread = Thread { [self] in
            while let message = try? client.next() {
                guard message.event == "event", let json = try? JSONValue.parse(message.data),
                    let emitted = json["emittedAt"]?.doubleValue, let detected = json["detectedAt"]?.doubleValue
                else { continue }
                lock.withLock { arrivals.append((emitted, detected, message.receivedAt)) }
            }
            client.close()
            let waiting = lock.withLock {
                done = true
                defer { waiters.removeAll() }
                return waiters
            }
            for waiter in waiting { waiter.resume() }
        }
        thread.name = "vigil-latency-probe"
        thread.start()
    }

    /// Waits for the end of the stream, then computes the report with `runner`'s mapping.
    public func report(runner: LiveRunner) async -> LatencyReport {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock {
                if done { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        let all = lock.withLock { arrivals }
        var pipeline: [Double] = []
        var detection: [Double] = []
        for arrival in all {
            guard let due = runner.wallTime(forMedia: arrival.emittedAt), let detected = runner.wallTime(forMedia: arrival.detectedAt) else { continue }
            pipeline.append(arrival.receivedAt - due)
            detection.append(arrival.receivedAt - detected)
        }
        return LatencyReport(pipeline: pipeline, detection: detection)
    }
}
