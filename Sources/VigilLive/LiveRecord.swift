import VigilCore

/// One line of the live stream, encoded once and shared by stdout, SSE and WebSocket clients.
public struct LiveRecord: Sendable, Hashable {
    /// Position in the stream: 1, 2, 3, ... (the SSE `id`).
    public var sequence: UInt64
    /// The JSON `type`: `eventStarted`, `event`, `zoneTriggered`, `zoneStopped`, `suppressed`,
    /// `warning`, `deviceChanged` or `end`.
    public var type: String
    /// The trigger of an `event` or `eventStarted` record.
    public var trigger: EventTriggerType?
    /// Media time (seconds) at which the pipeline emitted the record: the end of the block
    /// whose processing produced it.
    public var emittedAt: Double
    /// The detection time of an `event` or `eventStarted` record (media seconds).
    public var detectedAt: Double?
    /// The compact JSON object, one line.
    public var line: String

    /// Creates a record.
    public init(
        sequence: UInt64, type: String, trigger: EventTriggerType? = nil, emittedAt: Double, detectedAt: Double? = nil, line: String
    ) {
        self.sequence = sequence
        self.type = type
        self.trigger = trigger
        self.emittedAt = emittedAt
        self.detectedAt = detectedAt
        self.line = line
    }

    /// Whether this is a keep-alive (``EventHub/heartbeat()``), not a stream record.
    public var isHeartbeat: Bool { sequence == 0 && type == "heartbeat" }

    /// The Server-Sent Events frame: `id`, `event` and `data` lines and a blank line (a
    /// comment line for a heartbeat).
    public var sseFrame: String { isHeartbeat ? ": heartbeat\n\n" : "id: \(sequence)\nevent: \(type)\ndata: \(line)\n\n" }
}
