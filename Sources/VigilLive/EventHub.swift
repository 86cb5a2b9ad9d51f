import Foundation
import NIOConcurrencyHelpers

/// Fan-out of the live records to stream clients. Each client has a bounded buffer; a client
/// whose buffer is full is dropped (its stream ends) and counted, so publishing never waits
/// for a client. Keeps a bounded history ring so that a client can resume after an ID
/// (SSE `Last-Event-ID`). Memory: at most `historyCapacity` + `clientBufferCapacity` records
/// per client.
public final class EventHub: Sendable {
    /// Records buffered per client before it is dropped.
    public let clientBufferCapacity: Int
    /// Records kept for late joiners.
    public let historyCapacity: Int
    private let metrics: LiveMetrics

    /// A connected client.
    private typealias Subscriber = (continuation: AsyncStream<LiveRecord>.Continuation, kind: String, subscription: LiveSubscription)

    /// What the lock guards: the clients, the history ring, the next client ID and whether the
    /// stream has ended.
    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var history: [LiveRecord] = []
        var historyStart = 0
        var nextID = 1
        var closed = false

        /// The retained history, oldest first.
        var orderedHistory: [LiveRecord] { Array(history[historyStart...]) + Array(history[..<historyStart]) }

        /// Delivers `record` to every client without waiting; removes the clients whose buffer is
        /// full, marks them dropped and returns their streams (to finish and count after the lock).
        mutating func deliver(_ record: LiveRecord) -> [(AsyncStream<LiveRecord>.Continuation, String)] {
            var dropped: [(AsyncStream<LiveRecord>.Continuation, String)] = []
            for (id, subscriber) in subscribers {
                if case .dropped = subscriber.continuation.yield(record) {
                    subscribers[id] = nil
                    subscriber.subscription.markDropped()
                    dropped.append((subscriber.continuation, subscriber.kind))
                }
            }
            return dropped
        }
    }

    private let state = NIOLockedValueBox(State())

    /// Creates a hub.
    public init(clientBufferCapacity: Int = 512, historyCapacity: Int = 1024, metrics: LiveMetrics) {
        self.clientBufferCapacity = max(1, clientBufferCapacity)
        self.historyCapacity = max(0, historyCapacity)
        self.metrics = metrics
    }

    /// Connected clients.
    public var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// Whether the stream has ended.
    public var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// The retained history, oldest first.
    public var recentRecords: [LiveRecord] {
        state.withLockedValue { $0.orderedHistory }
    }

    /// Subscribes a client of `kind` (`sse`, `websocket`). With `after`, retained records with a
    /// larger sequence number are delivered first (a resumed SSE stream; `0` = all retained).
    public func subscribe(kind: String, after: UInt64? = nil) -> LiveSubscription {
        var continuation: AsyncStream<LiveRecord>.Continuation!
        let stream = AsyncStream<LiveRecord>(bufferingPolicy: .bufferingOldest(clientBufferCapacity)) { continuation = $0 }
        return state.withLockedValue { state in
            let id = state.nextID
            state.nextID += 1
            let subscription = LiveSubscription(id: id, records: stream, hub: self)
            if let after {
                for record in state.orderedHistory.suffix(clientBufferCapacity) where record.sequence > after { continuation.yield(record) }
            }
            if state.closed {
                continuation.finish()
            } else {
                state.subscribers[id] = (continuation, kind, subscription)
                metrics.clientConnected(kind)
                let hubRef = self
                continuation.onTermination = { _ in hubRef.unsubscribe(id) }
            }
            return subscription
        }
    }

    /// Delivers `record` to every client without waiting; drops clients whose buffer is full.
    public func publish(_ record: LiveRecord) {
        let droppedNow = state.withLockedValue { state in
            if historyCapacity > 0 {
                if state.history.count < historyCapacity {
                    state.history.append(record)
                } else {
                    state.history[state.historyStart] = record
                    state.historyStart = (state.historyStart + 1) % historyCapacity
                }
            }
            return state.deliver(record)
        }
        metrics.recordPublished(record)
        for (continuation, kind) in droppedNow {
            metrics.clientDropped()
            metrics.clientDisconnected(kind)
            continuation.finish()
        }
    }

    /// Sends a keep-alive to every client (sequence 0, type `heartbeat`; not retained, not
    /// counted). SSE writes it as a comment, which also reveals clients that went away.
    public func heartbeat() {
        let record = LiveRecord(sequence: 0, type: "heartbeat", emittedAt: 0, line: "")
        let droppedNow = state.withLockedValue { $0.deliver(record) }
        for (continuation, kind) in droppedNow {
            metrics.clientDropped()
            metrics.clientDisconnected(kind)
            continuation.finish()
        }
    }

    /// Ends the stream: every client's stream finishes after its buffered records.
    public func close() {
        let all = state.withLockedValue { state in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in all {
            metrics.clientDisconnected(subscriber.kind)
            subscriber.continuation.finish()
        }
    }

    func unsubscribe(_ id: Int) {
        let removed = state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        if let removed {
            metrics.clientDisconnected(removed.kind)
            removed.continuation.finish()
        }
    }
}
