import Foundation
import NIOConcurrencyHelpers
import Testing
import VigilCore
import VigilLive
import VigilMQTT
import VigilPipeline

@Suite("MQTTEventSink without a broker")
struct MQTTEventSinkTests {
    /// A loopback port nothing listens on (bound a moment ago, then closed).
    func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("an unreachable broker: a warning and the run goes on; the queue bound holds, drops are counted in /metrics and reported")
    func unreachableBroker() throws {
        let port = closedPort()
        var settings = MQTTOutputSettings(broker: MQTTBrokerURL(host: "127.0.0.1", port: port))
        (settings.queueLimit, settings.finishTimeout) = (4, 0.2)
        let lines = NIOLockedValueBox<[String]>([])
        let metrics = LiveMetrics()
        let device = try LiveTestSupport.frontDoor(enabled: [.sound, .smokeAlarm])
        let sink = try MQTTEventSink(settings: settings, device: device, metrics: metrics) { line in
            lines.withLockedValue { $0.append(line) }
        }
        #expect(
            lines.withLockedValue { $0 }.first?.hasPrefix("warning: mqtt://127.0.0.1:\(port): ") == true, "\(lines.withLockedValue { $0 })")

        // Two OFF states at start, then per final record (no start seen): the record, ON, OFF.
        let records = (1...5).map { id in
            OutputRecord(JSONValue.object(JSONObject([("type", "event"), ("id", .number(Double(id))), ("trigger", "sound")])))
        }
        sink.receive(records)
        sink.receive([OutputRecord(JSONValue.object(JSONObject([("type", "zone"), ("id", 1)])))])  // not published
        let text = metrics.prometheusText()
        for (line, expected) in [
            ("vigil_mqtt_queued_messages", 4.0), ("vigil_mqtt_dropped_messages_total", Double(2 + 15 - 4)),
            ("vigil_mqtt_delivered_messages_total", 0), ("vigil_mqtt_connected", 0), ("vigil_mqtt_connections_total", 0),
        ] {
            let value = text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
            #expect(value == expected, "\(line) in \(text)")
        }
        sink.finish()
        #expect(
            lines.withLockedValue { $0 }.last
                == "warning: mqtt mqtt://127.0.0.1:\(port): 0 messages delivered, 13 dropped (queue limit 4 while the broker was unreachable), "
                + "4 not delivered within 0.2 s at the end (no connection to the broker)")
    }
}
