import Foundation

/// Fan-out of the live records to stream clients. Each client has a bounded buffer; a client
/// whose buffer is full is dropped (its stream ends) and counted, so publishing never waits
/// for a client. Keeps a bounded history ring so that a client can resume after an ID
/// (SSE `Last-Event-ID`). Memory: at most `historyCapacity` + `clientBufferCapacity` records
/// per client.
public final class EventHub: @unchecked Sendable {
    /// Records buffered per client before it is dropped.
    public let clientBufferCapacity: Int
    /// Records kept for late joiners.
    public let historyCapacity: Int
    private let metrics: LiveMetrics
    private let lock = NSLock()
    private var subscribers: [Int: (continuation: AsyncStream<LiveRecord>.Continuation, kind: String, subscription: LiveSubscription)] = [:]
    private var history: [LiveRecord] = []
    private var historyStart = 0
    private var nextID = 1
    private var closed = false

    /// Creates a hub.
    public init(clientBufferCapacity: Int = 512, historyCapacity: Int = 1024, metrics: LiveMetrics) {
        self.clientBufferCapacity = max(1, clientBufferCapacity)
        self.historyCapacity = max(0, historyCapacity)
        self.metrics = metrics
    }

    /// Connected clients.
    public var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Whether the stream has ended.
    public var isClosed: Bool { lock.withLock { closed } }

    /// The retained history, oldest first.
    public var recentRecords: [LiveRecord] {
        lock.withLock { Array(history[historyStart...]) + Array(history[..<historyStart]) }
    }

    /// Subscribes a client of `kind` (`sse`, `websocket`). With `after`, retained records with a
    /// larger sequence number are delivered first (a resumed SSE stream; `0` = all retained).
    public func subscribe(kind: String, after: UInt64? = nil) -> LiveSubscription {
        var continuation: AsyncStream<LiveRecord>.Continuation!
        let stream = AsyncStream<LiveRecord>(bufferingPolicy: .bufferingOldest(clientBufferCapacity)) { continuation = $0 }
        return lock.withLock {
            let id = nextID
            nextID += 1
            let subscription = LiveSubscription(id: id, records: stream, hub: self)
            if let after {
                let ordered = Array(history[historyStart...]) + Array(history[..<historyStart])
                for record in ordered.suffix(clientBufferCapacity) where record.sequence > after { continuation.yield(record) }
            }
            if closed {
                continuation.finish()
            } else {
                subscribers[id] = (continuation, kind, subscription)
                metrics.clientConnected(kind)
                let hubRef = self
                continuation.onTermination = { _ in hubRef.unsubscribe(id) }
            }
            return subscription
        }
    }

    /// Delivers `record` to every client without waiting; drops clients whose buffer is full.
    public func publish(_ record: LiveRecord) {
        var droppedNow: [(AsyncStream<LiveRecord>.Continuation, String)] = []
        lock.withLock {
            if historyCapacity > 0 {
                if history.count < historyCapacity {
                    history.append(record)
                } else {
                    history[historyStart] = record
                    historyStart = (historyStart + 1) % historyCapacity
                }
            }
            for (id, subscriber) in subscribers {
                if case .dropped = subscriber.continuation.yield(record) {
                    subscribers[id] = nil
                    subscriber.subscription.markDropped()
                    droppedNow.append((subscriber.continuation, subscriber.kind))
                }
            }
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
        var droppedNow: [(AsyncStream<LiveRecord>.Continuation, String)] = []
        lock.withLock {
            for (id, subscriber) in subscribers {
                if case .dropped = subscriber.continuation.yield(record) {
                    subscribers[id] = nil
                    subscriber.subscription.markDropped()
                    droppedNow.append((subscriber.continuation, subscriber.kind))
                }
            }
        }
        for (continuation, kind) in droppedNow {
            metrics.clientDropped()
            metrics.clientDisconnected(kind)
            continuation.finish()
        }
    }

    /// Ends the stream: every client's stream finishes after its buffered records.
    public func close() {
        let all = lock.withLock {
            closed = true
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for subscriber in all {
            metrics.clientDisconnected(subscriber.kind)
            subscriber.continuation.finish()
        }
    }

    func unsubscribe(_ id: Int) {
        let removed = lock.withLock { subscribers.removeValue(forKey: id) }
        if let removed {
            metrics.clientDisconnected(removed.kind)
            removed.continuation.finish()
        }
    }
}
