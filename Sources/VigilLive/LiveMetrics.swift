import Foundation

/// Counters and gauges of a live session, rendered as Prometheus text for `GET /metrics`.
/// Thread-safe; updating never blocks for long (one lock, no I/O).
public final class LiveMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var eventsByTrigger: [String: Int] = [:]
    private var recordsByType: [String: Int] = [:]
    private var clients: [String: Int] = [:]
    private var clientsTotal: [String: Int] = [:]
    private var dropped = 0
    private var requestsByStatus: [Int: Int] = [:]
    private var blocks = 0
    private var mediaTime = 0.0
    private var lag = 0.0
    private var maxLag = 0.0
    private var deviceChanges = 0
    private var timedOut = 0
    private var refusedStreams = 0

    /// Creates empty metrics.
    public init() {}

    /// Counts a published record.
    public func recordPublished(_ record: LiveRecord) {
        lock.withLock {
            recordsByType[record.type, default: 0] += 1
            if record.type == "event", let trigger = record.trigger { eventsByTrigger[trigger.rawValue, default: 0] += 1 }
            if record.type == "deviceChanged" { deviceChanges += 1 }
        }
    }

    /// Records a processed block: media time after it and its lag (seconds the processing
    /// finished after the block was due by the pacer; ≥ 0).
    public func blockProcessed(mediaTime: Double, lag: Double) {
        lock.withLock {
            blocks += 1
            self.mediaTime = mediaTime
            self.lag = max(0, lag)
            maxLag = max(maxLag, self.lag)
        }
    }

    /// A client of `kind` (`sse`, `websocket`) connected.
    public func clientConnected(_ kind: String) {
        lock.withLock {
            clients[kind, default: 0] += 1
            clientsTotal[kind, default: 0] += 1
        }
    }

    /// A client of `kind` disconnected (after finishing or being dropped).
    public func clientDisconnected(_ kind: String) { lock.withLock { clients[kind, default: 0] -= 1 } }

    /// A client was dropped because its buffer was full.
    public func clientDropped() { lock.withLock { dropped += 1 } }

    /// Counts an HTTP control request by response status.
    public func controlRequest(status: Int) { lock.withLock { requestsByStatus[status, default: 0] += 1 } }

    /// A connection was closed because its request head did not arrive in time (slowloris).
    public func requestTimedOut() { lock.withLock { timedOut += 1 } }

    /// A stream client was refused because the client limit was reached.
    public func streamRefused() { lock.withLock { refusedStreams += 1 } }

    /// Connections closed so far because their request head did not arrive in time.
    public var timedOutConnections: Int { lock.withLock { timedOut } }
    /// Stream clients refused so far (client limit).
    public var refusedStreamClients: Int { lock.withLock { refusedStreams } }

    /// Clients dropped so far.
    public var droppedClients: Int { lock.withLock { dropped } }
    /// Clients connected now.
    public var connectedClients: Int { lock.withLock { clients.values.reduce(0, +) } }
    /// Events published so far, by trigger name.
    public var events: [String: Int] { lock.withLock { eventsByTrigger } }
    /// Media time processed so far.
    public var processedMediaTime: Double { lock.withLock { mediaTime } }
    /// Lag of the last block, seconds.
    public var currentLag: Double { lock.withLock { lag } }

    /// The Prometheus text exposition (version 0.0.4).
    public func prometheusText() -> String {
        lock.withLock {
            var out = ""
            func family(_ name: String, _ type: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" }
            func number(_ x: Double) -> String { x.isFinite ? String(format: "%.6f", x) : "0" }
            family("vigil_live_events_total", "counter", "Events published, by trigger.")
            for (trigger, count) in eventsByTrigger.sorted(by: { $0.key < $1.key }) {
                out += "vigil_live_events_total{trigger=\"\(trigger)\"} \(count)\n"
            }
            family("vigil_live_records_total", "counter", "Records published, by type.")
            for (type, count) in recordsByType.sorted(by: { $0.key < $1.key }) { out += "vigil_live_records_total{type=\"\(type)\"} \(count)\n" }
            family("vigil_live_clients", "gauge", "Connected stream clients, by transport.")
            for kind in ["sse", "websocket"] { out += "vigil_live_clients{transport=\"\(kind)\"} \(clients[kind] ?? 0)\n" }
            family("vigil_live_clients_total", "counter", "Stream clients ever connected, by transport.")
            for kind in ["sse", "websocket"] { out += "vigil_live_clients_total{transport=\"\(kind)\"} \(clientsTotal[kind] ?? 0)\n" }
            family("vigil_live_dropped_clients_total", "counter", "Stream clients dropped because they fell behind (buffer full).")
            out += "vigil_live_dropped_clients_total \(dropped)\n"
            family("vigil_live_blocks_total", "counter", "Audio blocks processed.")
            out += "vigil_live_blocks_total \(blocks)\n"
            family("vigil_live_media_time_seconds", "gauge", "Media time processed so far.")
            out += "vigil_live_media_time_seconds \(number(mediaTime))\n"
            family("vigil_live_media_lag_seconds", "gauge", "How late the last block finished processing after it was due (wall clock).")
            out += "vigil_live_media_lag_seconds \(number(lag))\n"
            family("vigil_live_media_lag_max_seconds", "gauge", "Largest block lag so far.")
            out += "vigil_live_media_lag_max_seconds \(number(maxLag))\n"
            family("vigil_live_device_changes_total", "counter", "Control commands applied to the stream.")
            out += "vigil_live_device_changes_total \(deviceChanges)\n"
            family("vigil_live_request_timeouts_total", "counter", "Connections closed because the request head did not arrive in time.")
            out += "vigil_live_request_timeouts_total \(timedOut)\n"
            family("vigil_live_refused_clients_total", "counter", "Stream clients refused because the client limit was reached.")
            out += "vigil_live_refused_clients_total \(refusedStreams)\n"
            family("vigil_live_control_requests_total", "counter", "Control requests, by HTTP status.")
            for (status, count) in requestsByStatus.sorted(by: { $0.key < $1.key }) {
                out += "vigil_live_control_requests_total{code=\"\(status)\"} \(count)\n"
            }
            return out
        }
    }
}
