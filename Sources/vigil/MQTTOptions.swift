import ArgumentParser
import VigilMQTT

/// `--mqtt URL` and its companions, shared by `vigil analyze` and `vigil live` (docs/mqtt.md, "Using it").
struct MQTTOptions: ParsableArguments {
    @Option(help: "Publish events for Home Assistant to the broker mqtt://[USER:PASS@]HOST[:PORT] or mqtts://") var mqtt: String?
    @Option(help: "CA certificate (PEM) of an mqtts:// broker (default: the system's).") var mqttCaFile: String?
    @Option(help: "First segment of the event, state and availability topics (default vigil).") var mqttTopicPrefix: String?
    @Option(help: "Home Assistant's MQTT discovery prefix (default homeassistant).") var mqttDiscoveryPrefix: String?
    @Option(help: "Messages kept while the broker is away (default 1000); beyond, the oldest are dropped.") var mqttQueueLimit: Int?

    /// The MQTT output asked for; nil without --mqtt (``validate()`` reports a problem first).
    var settings: MQTTOutputSettings? { try? parsed() }

    func validate() throws { do { _ = try parsed() } catch { throw ValidationError("\(error)") } }

    private func parsed() throws -> MQTTOutputSettings? {
        try MQTTOutputSettings.parse(
            broker: mqtt, caFile: mqttCaFile, topicPrefix: mqttTopicPrefix, discoveryPrefix: mqttDiscoveryPrefix,
            queueLimit: mqttQueueLimit)
    }
}
