import CoreMetrics
import Foundation
import NIOConcurrencyHelpers
import Prometheus
import VigilMedia

/// Counters and gauges of a live session, kept through swift-metrics in a swift-prometheus
/// registry of the session's own and rendered by it as Prometheus text for `GET /metrics`.
/// Thread-safe; updating never blocks for long (one lock, no I/O). The metric names are listed in
/// docs/live.md ("Metrics").
public final class LiveMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// What the lock guards: the values the session and /health read back, and the swift-metrics
    /// handles made once per label value.
    private struct State {
        var eventsByTrigger: [String: Int] = [:]
        var clients: [String: Int] = [:]
        var dropped = 0
        var mediaTime = 0.0
        var lag = 0.0
        var maxLag = 0.0
        var timedOut = 0
        var refusedStreams = 0
        var eventCounters: [String: CoreMetrics.Counter] = [:]
        var recordCounters: [String: CoreMetrics.Counter] = [:]
        var requestCounters: [Int: CoreMetrics.Counter] = [:]
        /// The network stream read, if any, and its metrics (made when it is attached).
        var stream: StreamMetrics?
    }

    /// The metrics of a network stream source: made by ``attach(stream:)``, refreshed from its
    /// monitor whenever they are read.
    private struct StreamMetrics {
        let monitor: LiveStreamMonitor
        let stateGauges: [LiveStreamStatus.State: CoreMetrics.Gauge]
        let reconnectsCounter: CoreMetrics.Counter
        let failuresGauge: CoreMetrics.Gauge
        let lagGauge: CoreMetrics.Gauge
        var countedReconnects = 0
        var lag = 0.0
    }

    private let state = NIOLockedValueBox(State())
    private let refreshers = NIOLockedValueBox<[@Sendable (PrometheusMetricsFactory) -> Void]>([])
    private let clientGauges: [String: CoreMetrics.Gauge]
    private let clientCounters: [String: CoreMetrics.Counter]
    private let droppedCounter: CoreMetrics.Counter
    private let blocksCounter: CoreMetrics.Counter
    private let mediaTimeGauge: CoreMetrics.Gauge
    private let lagGauge: CoreMetrics.Gauge
    private let maxLagGauge: CoreMetrics.Gauge
    private let deviceChangesCounter: CoreMetrics.Counter
    private let timeoutsCounter: CoreMetrics.Counter
    private let refusedCounter: CoreMetrics.Counter

    /// The stream transports counted by `vigil_live_clients{transport}`.
    static let transports = ["sse", "websocket"]

    /// Creates empty metrics (every unlabelled metric and both transports at 0).
    public init() {
        let factory = PrometheusMetricsFactory(registry: registry)
        self.factory = factory
        clientGauges = Dictionary(
            uniqueKeysWithValues: Self.transports.map {
                ($0, Gauge(label: "vigil_live_clients", dimensions: [("transport", $0)], factory: factory))
            })
        clientCounters = Dictionary(
            uniqueKeysWithValues: Self.transports.map {
                ($0, Counter(label: "vigil_live_clients_total", dimensions: [("transport", $0)], factory: factory))
            })
        droppedCounter = Counter(label: "vigil_live_dropped_clients_total", factory: factory)
        blocksCounter = Counter(label: "vigil_live_blocks_total", factory: factory)
        mediaTimeGauge = Gauge(label: "vigil_live_media_time_seconds", factory: factory)
        lagGauge = Gauge(label: "vigil_live_media_lag_seconds", factory: factory)
        maxLagGauge = Gauge(label: "vigil_live_media_lag_max_seconds", factory: factory)
        deviceChangesCounter = Counter(label: "vigil_live_device_changes_total", factory: factory)
        timeoutsCounter = Counter(label: "vigil_live_request_timeouts_total", factory: factory)
        refusedCounter = Counter(label: "vigil_live_refused_clients_total", factory: factory)
        for gauge in clientGauges.values { gauge.record(0) }
        for gauge in [mediaTimeGauge, lagGauge, maxLagGauge] { gauge.record(0) }
    }

    /// Counts a published record.
    public func recordPublished(_ record: LiveRecord) {
        state.withLockedValue { state in
            counter(&state.recordCounters, record.type, "vigil_live_records_total", "type").increment()
            if record.type == "event", let trigger = record.trigger {
                state.eventsByTrigger[trigger.rawValue, default: 0] += 1
                counter(&state.eventCounters, trigger.rawValue, "vigil_live_events_total", "trigger").increment()
            }
            if record.type == "deviceChanged" { deviceChangesCounter.increment() }
        }
    }

    /// Records a processed block: media time after it and its lag (seconds the processing
    /// finished after the block was due by the pacer; ≥ 0).
    public func blockProcessed(mediaTime: Double, lag: Double) {
        state.withLockedValue { state in
            blocksCounter.increment()
            state.mediaTime = mediaTime
            state.lag = max(0, lag)
            state.maxLag = max(state.maxLag, state.lag)
            mediaTimeGauge.record(mediaTime.isFinite ? mediaTime : 0)
            lagGauge.record(state.lag.isFinite ? state.lag : 0)
            maxLagGauge.record(state.maxLag.isFinite ? state.maxLag : 0)
        }
    }

    /// Reports the connection of the network stream `monitor` watches: its state, reconnects and
    /// consecutive failures (read from the monitor whenever the metrics are rendered) and the lag
    /// behind it (``streamLagMeasured(_:)``). Call once, before serving.
    public func attach(stream monitor: LiveStreamMonitor) {
        let states: [LiveStreamStatus.State] = [.connecting, .connected, .reconnecting, .ended, .failed, .stopped]
        let metrics = StreamMetrics(
            monitor: monitor,
            stateGauges: Dictionary(
                uniqueKeysWithValues: states.map {
                    ($0, Gauge(label: "vigil_live_stream_state", dimensions: [("state", $0.rawValue)], factory: factory))
                }),
            reconnectsCounter: Counter(label: "vigil_live_stream_reconnects_total", factory: factory),
            failuresGauge: Gauge(label: "vigil_live_stream_consecutive_failures", factory: factory),
            lagGauge: Gauge(label: "vigil_live_stream_lag_seconds", factory: factory))
        metrics.lagGauge.record(0)
        state.withLockedValue { $0.stream = metrics }
        refreshStream()
    }

    /// Records how far the analysis is behind the live stream (seconds, ≥ 0).
    public func streamLagMeasured(_ lag: Double) {
        state.withLockedValue { state in
            guard state.stream != nil else { return }
            state.stream?.lag = lag.isFinite ? max(0, lag) : 0
            state.stream?.lagGauge.record(state.stream?.lag ?? 0)
        }
    }

    /// The network stream's status and the lag behind it, when a stream is attached.
    public var stream: (status: LiveStreamStatus, lag: Double)? {
        state.withLockedValue { state in state.stream.map { ($0.monitor.status, $0.lag) } }
    }

    /// Copies the stream monitor's status into the stream gauges and the reconnect counter.
    private func refreshStream() {
        state.withLockedValue { state in
            guard var stream = state.stream else { return }
            let status = stream.monitor.status
            for (value, gauge) in stream.stateGauges { gauge.record(value == status.state ? 1 : 0) }
            if status.reconnects > stream.countedReconnects {
                stream.reconnectsCounter.increment(by: Int64(status.reconnects - stream.countedReconnects))
                stream.countedReconnects = status.reconnects
            }
            stream.failuresGauge.record(Double(status.consecutiveFailures))
            state.stream = stream
        }
    }

    /// A client of `kind` (`sse`, `websocket`) connected.
    public func clientConnected(_ kind: String) {
        state.withLockedValue { state in
            state.clients[kind, default: 0] += 1
            clientGauges[kind]?.record(Double(state.clients[kind, default: 0]))
            clientCounters[kind]?.increment()
        }
    }

    /// A client of `kind` disconnected (after finishing or being dropped).
    public func clientDisconnected(_ kind: String) {
        state.withLockedValue { state in
            state.clients[kind, default: 0] -= 1
            clientGauges[kind]?.record(Double(state.clients[kind, default: 0]))
        }
    }

    /// A client was dropped because its buffer was full.
    public func clientDropped() {
        state.withLockedValue { state in
            state.dropped += 1
            droppedCounter.increment()
        }
    }

    /// Counts an HTTP control request by response status.
    public func controlRequest(status: Int) {
        state.withLockedValue { state in
            if state.requestCounters[status] == nil {
                state.requestCounters[status] = Counter(
                    label: "vigil_live_control_requests_total", dimensions: [("code", "\(status)")], factory: factory)
            }
            state.requestCounters[status]?.increment()
        }
    }

    /// A connection was closed because its request head did not arrive in time (slowloris).
    public func requestTimedOut() {
        state.withLockedValue { state in
            state.timedOut += 1
            timeoutsCounter.increment()
        }
    }

    /// A stream client was refused because the client limit was reached.
    public func streamRefused() {
        state.withLockedValue { state in
            state.refusedStreams += 1
            refusedCounter.increment()
        }
    }

    /// Connections closed so far because their request head did not arrive in time.
    public var timedOutConnections: Int { state.withLockedValue { $0.timedOut } }
    /// Stream clients refused so far (client limit).
    public var refusedStreamClients: Int { state.withLockedValue { $0.refusedStreams } }

    /// Clients dropped so far.
    public var droppedClients: Int { state.withLockedValue { $0.dropped } }
    /// Clients connected now.
    public var connectedClients: Int { state.withLockedValue { $0.clients.values.reduce(0, +) } }
    /// Events published so far, by trigger name.
    public var events: [String: Int] { state.withLockedValue { $0.eventsByTrigger } }
    /// Media time processed so far.
    public var processedMediaTime: Double { state.withLockedValue { $0.mediaTime } }
    /// Lag of the last block, seconds.
    public var currentLag: Double { state.withLockedValue { $0.lag } }

    /// Calls `refresh` before each rendering of the Prometheus text: for metrics whose values are
    /// kept elsewhere and read when asked for (the MQTT publisher's counters, ``MQTTEventSink``).
    public func refreshBeforeRendering(_ refresh: @escaping @Sendable (PrometheusMetricsFactory) -> Void) {
        refreshers.withLockedValue { $0.append(refresh) }
    }

    /// The Prometheus text exposition (version 0.0.4), rendered by swift-prometheus.
    public func prometheusText() -> String {
        refreshStream()
        for refresh in refreshers.withLockedValue({ $0 }) { refresh(factory) }
        return registry.emitToString()
    }

    /// The counter of `name{dimension="value"}`, made on first use (call with the lock held).
    private func counter(_ counters: inout [String: CoreMetrics.Counter], _ value: String, _ name: String, _ dimension: String)
        -> CoreMetrics.Counter
    {
        if let existing = counters[value] { return existing }
        let made = Counter(label: name, dimensions: [(dimension, value)], factory: factory)
        counters[value] = made
        return made
    }
}
