import ArgumentParser
import VigilMQTT

/// `--mqtt URL` and its companions, shared by `vigil analyze` and `vigil live` (docs/mqtt.md, "Using it").
struct MQTTOptions: ParsableArguments {
    @Option(help: .init("Publish events to this broker (docs/mqtt.md).", valueName: "mqtt[s]://[USER:PASS@]HOST[:PORT]")) var mqtt: String?
    @Option(help: .init("CA certificate (PEM) of an mqtts:// broker (default: the system's).", valueName: "FILE")) var mqttCaFile: String?
    @Option(help: .init("First segment of the event and state topics (default vigil).", valueName: "PREFIX")) var mqttTopicPrefix: String?
    @Option(help: .init("Home Assistant's discovery prefix (default homeassistant).", valueName: "PREFIX")) var mqttDiscoveryPrefix: String?
    @Option(help: .init("Messages kept while the broker is away (default 1000).", valueName: "N")) var mqttQueueLimit: Int?

    /// The MQTT output asked for; nil without --mqtt (``validate()`` reports a problem first).
    var settings: MQTTOutputSettings? { try? parsed() }
    func validate() throws { do { _ = try parsed() } catch { throw ValidationError("\(error)") } }

    private func parsed() throws -> MQTTOutputSettings? {
        try MQTTOutputSettings.parse(
            broker: mqtt, caFile: mqttCaFile, topicPrefix: mqttTopicPrefix, discoveryPrefix: mqttDiscoveryPrefix,
            queueLimit: mqttQueueLimit)
    }
}
