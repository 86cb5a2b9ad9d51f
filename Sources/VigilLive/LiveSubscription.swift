import Foundation
import NIOConcurrencyHelpers

/// A stream client's view of the hub: the records from its subscription on, through a bounded
/// buffer. When the buffer is full the hub drops the client: the stream ends after what is
/// buffered. Cancel it when the client goes away.
public final class LiveSubscription: Sendable {
    /// The records, in order. Ends when the session ends, the client is dropped or cancelled.
    public let records: AsyncStream<LiveRecord>
    let id: Int
    private let hub: EventHub
    private let dropped = NIOLockedValueBox(false)

    init(id: Int, records: AsyncStream<LiveRecord>, hub: EventHub) {
        self.id = id
        self.records = records
        self.hub = hub
    }

    /// Whether the hub dropped this client because it fell behind.
    public var wasDropped: Bool { dropped.withLockedValue { $0 } }

    func markDropped() { dropped.withLockedValue { $0 = true } }

    /// Unsubscribes (idempotent).
    public func cancel() { hub.unsubscribe(id) }
}
