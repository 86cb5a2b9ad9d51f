import CoreMetrics
import Foundation
import NIOConcurrencyHelpers
import Prometheus
import VigilDevice
import VigilMQTT
import VigilPipeline

/// Publishes a run's event records to an MQTT broker for Home Assistant (docs/mqtt.md): each
/// `eventStarted` and final `event` record as JSON on `<prefix>/<camera>/events`, `ON`/`OFF` on the
/// trigger's state topic, the retained discovery configs and availability, through an
/// ``MQTTPublisher`` (QoS 1, bounded in-order queue) and a ``HomeAssistantMQTTMapping``. Used by
/// `vigil live` (records as they happen) and `vigil analyze` (an offline run's records, with their
/// media-time stamps).
///
/// At start it waits up to ``MQTTOutputSettings/connectTimeout`` for the broker: a refusal
/// (credentials, authorisation) is an error; a broker not reached is a warning, and the records
/// wait in the queue (within its bound) until it is. ``finish()`` waits up to
/// ``MQTTOutputSettings/finishTimeout`` for the queue to drain, publishes `offline`, disconnects,
/// and reports the delivered, dropped and undelivered counts.
public final class MQTTEventSink: EventSink {
    /// The settings.
    public let settings: MQTTOutputSettings
    /// The connection (its ``MQTTPublisher/status`` has the counters).
    public let publisher: MQTTPublisher
    private var mapping: HomeAssistantMQTTMapping
    private let report: @Sendable (String) -> Void
    private var finished = false

    /// Connects to the broker for the camera of `device` (its `name` and enabled triggers),
    /// publishing the discovery configs and `OFF` on every state topic. With `metrics`, the
    /// publisher's counters appear in `/metrics` (`vigil_mqtt_*`). Warnings and the final counts
    /// go to `report` (standard error by default).
    /// - Throws: ``MQTTError`` when the broker refuses the connection (credentials) or a TLS file
    ///   cannot be used; the error names the broker and the reason.
    public init(
        settings: MQTTOutputSettings, device: Device, metrics: LiveMetrics? = nil,
        report: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) throws(MQTTError) {
        self.settings = settings
        self.report = report
        mapping = settings.mapping(for: device)
        publisher = try MQTTPublisher(
            configuration: settings.publisherConfiguration(
                cameraID: mapping.cameraID, availabilityTopic: mapping.availabilityTopic, processID: getpid()))
        try publisher.setRetainedMessages(mapping.discoveryMessages())
        try publisher.start()
        if let unreachable = try Self.waitForConnection(publisher, timeout: settings.connectTimeout) {
            let reason = "\(unreachable)".hasSuffix(".") ? String("\(unreachable)".dropLast()) : "\(unreachable)"
            report(
                "warning: \(reason); the run goes on, and up to \(settings.queueLimit) messages wait for the broker "
                    + "(beyond that the oldest are dropped and counted)")
        }
        for message in mapping.initialStateMessages() { try publisher.publish(message) }
        if let metrics { Self.export(publisher, to: metrics) }
    }

    /// The sink of `settings` for `vigil analyze` (none when nil), connected: a refused
    /// connection is an ``OfflineAnalysisFailure`` naming `--mqtt`, the broker and the reason, so
    /// that nothing is analyzed and the exit status is the usage one.
    public static func sinks(_ settings: MQTTOutputSettings?, device: Device) throws(OfflineAnalysisFailure) -> [any EventSink] {
        guard let settings else { return [] }
        do { return [try MQTTEventSink(settings: settings, device: device)] } catch {
            throw OfflineAnalysisFailure("error: --mqtt \(error)")
        }
    }

    /// Publishes the messages of each event record (other record types give none).
    public func receive(_ records: [OutputRecord]) {
        for record in records {
            for message in mapping.messages(for: record.json) {
                // Topics are made of checked prefixes and the camera's segment; payloads are records: nothing MQTT refuses.
                try? publisher.publish(message)
            }
        }
    }

    /// Waits for the queue to drain (at most ``MQTTOutputSettings/finishTimeout``), publishes
    /// `offline`, disconnects, and reports the counts: a warning when messages were dropped or
    /// could not be delivered before the end. Never throws: losses on the way to the broker do not
    /// fail the analysis.
    public func finish() {
        guard !finished else { return }
        finished = true
        publisher.flush(timeout: settings.finishTimeout)
        publisher.stop(timeout: 2)
        report(Self.summary(publisher.status, settings: settings))
    }

    /// Waits until `publisher` is connected (nil), its first attempt failed or `timeout` seconds
    /// passed without a connection (the ``MQTTError/Kind/unreachable`` error to warn about).
    /// - Throws: a refusal by the broker (credentials, authorisation) or a TLS failure.
    private static func waitForConnection(_ publisher: MQTTPublisher, timeout: Double) throws(MQTTError) -> MQTTError? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let status = publisher.status
            if status.connected { return nil }
            if let error = status.lastError {
                guard error.kind == .unreachable else {
                    publisher.stop(timeout: 0.5)
                    throw error
                }
                return error
            }
            if Date() >= deadline {
                let broker = publisher.configuration.broker.description
                return MQTTError(.unreachable, broker: broker, reason: "no connection within \(timeout) s")
            }
            usleep(10_000)
        }
    }

    /// The line reporting `status` at the end of a run.
    static func summary(_ status: MQTTPublisherStatus, settings: MQTTOutputSettings) -> String {
        let undelivered = status.queued + status.inFlight
        var line = "mqtt \(settings.broker): \(status.delivered) messages delivered, \(status.dropped) dropped"
        if status.dropped > 0 { line += " (queue limit \(settings.queueLimit) while the broker was unreachable)" }
        if undelivered > 0 {
            line += ", \(undelivered) not delivered within \(settings.finishTimeout) s at the end (no connection to the broker)"
        }
        return status.dropped > 0 || undelivered > 0 ? "warning: " + line : line
    }

    /// Exposes the publisher's counters in `metrics`, read on each rendering of `/metrics`.
    private static func export(_ publisher: MQTTPublisher, to metrics: LiveMetrics) {
        let reported = NIOLockedValueBox((delivered: 0, dropped: 0, connections: 0))
        metrics.refreshBeforeRendering { factory in
            let status = publisher.status
            Gauge(label: "vigil_mqtt_connected", factory: factory).record(status.connected ? 1 : 0)
            Gauge(label: "vigil_mqtt_queued_messages", factory: factory).record(status.queued + status.inFlight)
            reported.withLockedValue { last in
                Counter(label: "vigil_mqtt_delivered_messages_total", factory: factory).increment(by: status.delivered - last.delivered)
                Counter(label: "vigil_mqtt_dropped_messages_total", factory: factory).increment(by: status.dropped - last.dropped)
                Counter(label: "vigil_mqtt_connections_total", factory: factory).increment(by: status.connections - last.connections)
                last = (status.delivered, status.dropped, status.connections)
            }
        }
    }
}
