/// Counters and state of an ``MQTTPublisher``, for `/health` and `/metrics`.
public struct MQTTPublisherStatus: Sendable, Hashable {
    /// Whether the broker accepted the connection and it has not dropped since.
    public var connected: Bool
    /// Successful connections (the first one and every reconnect).
    public var connections: Int
    /// Messages waiting in the bounded queue.
    public var queued: Int
    /// Queued messages handed to libmosquitto and not yet acknowledged.
    public var inFlight: Int
    /// Queued messages the broker acknowledged (QoS 1 PUBACK).
    public var delivered: Int
    /// Messages dropped because the queue was full (the oldest waiting message goes first).
    public var dropped: Int
    /// The last connection failure, if any.
    public var lastError: MQTTError?

    /// Creates a status.
    public init(
        connected: Bool = false, connections: Int = 0, queued: Int = 0, inFlight: Int = 0, delivered: Int = 0, dropped: Int = 0,
        lastError: MQTTError? = nil
    ) {
        self.connected = connected
        self.connections = connections
        self.queued = queued
        self.inFlight = inFlight
        self.delivered = delivered
        self.dropped = dropped
        self.lastError = lastError
    }
}
