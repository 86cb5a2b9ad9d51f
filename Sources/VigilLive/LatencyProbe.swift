import Foundation
import NIOConcurrencyHelpers
import VigilCore

/// Measures event delivery latency as a real SSE client: connects to `GET /events` over TCP on
/// its own thread and timestamps every `eventStarted` and `event` message on arrival against
/// the pacer's media-to-wall mapping (``LiveRunner/wallTime(forMedia:)``).
public final class LatencyProbe: Sendable {
    /// One record's arrival.
    struct Arrival {
        var id: Int
        var trigger: String
        var started: Bool
        var emittedAt: Double
        var detectedAt: Double
        var receivedAt: Double
    }

    private let client: SSEClient
    /// What the lock guards: the arrivals so far, the end of the stream and the tasks waiting for it.
    private struct State {
        var arrivals: [Arrival] = []
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Connects to the server at `host:port` (throws when it cannot, or when no response head
    /// arrives within `responseTimeout` seconds).
    public init(host: String, port: Int, responseTimeout: Double? = 30) throws {
        client = SSEClient(host: host, port: port, responseTimeout: responseTimeout)
        try client.connect()
    }

    /// Starts reading on a dedicated thread until the stream ends.
    public func start() {
        let thread = Thread { [self] in
            while let message = try? client.next() {
                guard message.event == "event" || message.event == "eventStarted", let json = try? JSONValue.parse(message.data),
                    let id = json["id"]?.intValue, let trigger = json["trigger"]?.stringValue,
                    let emitted = json["emittedAt"]?.doubleValue, let detected = json["detectedAt"]?.doubleValue
                else { continue }
                let arrival = Arrival(
                    id: id, trigger: trigger, started: message.event == "eventStarted", emittedAt: emitted, detectedAt: detected,
                    receivedAt: message.receivedAt)
                state.withLockedValue { $0.arrivals.append(arrival) }
            }
            client.close()
            let waiting = state.withLockedValue { state in
                state.done = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiting { waiter.resume() }
        }
        thread.name = "vigil-latency-probe"
        thread.start()
    }

    /// Waits for the end of the stream, then computes the report with `runner`'s mapping.
    public func report(runner: LiveRunner) async -> LatencyReport {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        let all = state.withLockedValue { $0.arrivals }
        var samples: [LatencyReport.Sample] = []
        var firstIndex: [Int: Int] = [:]
        for arrival in all {
            guard let detected = runner.wallTime(forMedia: arrival.detectedAt), let due = runner.wallTime(forMedia: arrival.emittedAt)
            else { continue }
            if let index = firstIndex[arrival.id] {
                // The final record of an event announced earlier.
                samples[index].final = arrival.receivedAt - detected
                continue
            }
            firstIndex[arrival.id] = samples.count
            let latency = arrival.receivedAt - detected
            samples.append(
                LatencyReport.Sample(
                    trigger: arrival.trigger, announcedByStart: arrival.started, confirmation: latency,
                    pipeline: arrival.receivedAt - due, final: arrival.started ? nil : latency))
        }
        return LatencyReport(samples: samples)
    }
}
