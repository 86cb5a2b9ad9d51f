/// One MQTT publication: topic, payload bytes and the retain flag (always QoS 1).
public struct MQTTMessage: Sendable, Hashable {
    /// The topic (no wildcards).
    public var topic: String
    /// The payload.
    public var payload: [UInt8]
    /// Whether the broker keeps it as the topic's last known value.
    public var retain: Bool

    /// Creates a message with a byte payload.
    public init(topic: String, payload: [UInt8], retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    /// Creates a message with a UTF-8 text payload.
    public init(topic: String, text: String, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }

    /// The payload as UTF-8 text.
    public var text: String { String(decoding: payload, as: UTF8.self) }

    /// The first problem with the topic or payload for MQTT, or `nil`.
    public var problem: String? {
        if topic.isEmpty { return "empty topic" }
        if topic.utf8.count > 65_535 { return "topic longer than 65535 bytes" }
        if topic.contains("+") || topic.contains("#") || topic.contains("\u{0}") { return "topic \"\(topic)\" contains a wildcard or NUL" }
        if payload.count > 268_435_455 { return "payload larger than MQTT allows" }
        return nil
    }
}
