import VigilPipeline

/// The live stream's clients (SSE and WebSocket, through an ``EventHub``) as an event sink:
/// publishes each record of a live run, and closes the hub when the run finishes.
public final class EventHubSink: EventSink {
    /// The hub published to.
    public let hub: EventHub

    /// A sink publishing to `hub`.
    public init(hub: EventHub) { self.hub = hub }

    /// Publishes the records that carry a stream stamp (all of a live run's).
    public func receive(_ records: [OutputRecord]) {
        for record in records {
            if let live = LiveRecord(record) { hub.publish(live) }
        }
    }

    /// Closes the hub: clients get the end of the stream.
    public func finish() { hub.close() }
}

extension LiveRecord {
    /// The live record of a stamped output record; nil for a record without a stream stamp.
    public init?(_ record: OutputRecord) {
        guard let stamp = record.stamp else { return nil }
        self.init(
            sequence: stamp.sequence, type: stamp.type, trigger: stamp.trigger, emittedAt: stamp.emittedAt, detectedAt: stamp.detectedAt,
            line: record.line)
    }
}
