import Testing
import VigilMQTT

@Suite("MQTTOutputSettings: the --mqtt options, checked")
struct MQTTOutputSettingsTests {
    @Test("no --mqtt: no settings; a companion option alone is a problem naming it")
    func companionsNeedTheBroker() throws {
        #expect(try MQTTOutputSettings.parse(broker: nil) == nil)
        for (settings, option) in [
            ({ try MQTTOutputSettings.parse(broker: nil, caFile: "ca.pem") }, "--mqtt-ca-file"),
            ({ try MQTTOutputSettings.parse(broker: nil, topicPrefix: "home") }, "--mqtt-topic-prefix"),
            ({ try MQTTOutputSettings.parse(broker: nil, discoveryPrefix: "ha") }, "--mqtt-discovery-prefix"),
            ({ try MQTTOutputSettings.parse(broker: nil, queueLimit: 5) }, "--mqtt-queue-limit"),
        ] as [(() throws -> MQTTOutputSettings?, String)] {
            #expect {
                _ = try settings()
            } throws: { error in
                "\(error)" == "\(option): goes with --mqtt URL"
            }
        }
    }

    @Test("the URL, TLS file, prefixes and queue bound are taken; defaults otherwise")
    func parses() throws {
        let plain = try #require(try MQTTOutputSettings.parse(broker: "mqtt://vigil:secret@broker.local"))
        #expect(plain.broker == MQTTBrokerURL(host: "broker.local", port: 1883, username: "vigil", password: "secret"))
        #expect(plain.topicPrefix == "vigil" && plain.discoveryPrefix == "homeassistant" && plain.queueLimit == 1000 && plain.caFile == nil)
        let tls = try #require(
            try MQTTOutputSettings.parse(
                broker: "mqtts://broker.local", caFile: "ca.pem", topicPrefix: "home/cams", discoveryPrefix: "ha", queueLimit: 5))
        #expect(tls.broker.usesTLS && tls.broker.port == 8883 && tls.caFile == "ca.pem")
        #expect(tls.topicPrefix == "home/cams" && tls.discoveryPrefix == "ha" && tls.queueLimit == 5)
        let configuration = tls.publisherConfiguration(cameraID: "porch", availabilityTopic: "home/cams/available", processID: 42)
        #expect(configuration.clientID == "vigil-porch-42" && configuration.queueLimit == 5 && configuration.caFile == "ca.pem")
    }

    @Test("bad values are problems naming the option and the reason, without the password")
    func problems() {
        let cases: [(() throws -> MQTTOutputSettings?, String)] = [
            ({ try MQTTOutputSettings.parse(broker: "http://broker") }, "--mqtt http://broker: expected mqtt://"),
            ({ try MQTTOutputSettings.parse(broker: "mqtt://u:hunter2@broker:99999") }, "--mqtt mqtt://u:***@broker:99999: port"),
            ({ try MQTTOutputSettings.parse(broker: "mqtt://broker", caFile: "ca.pem") }, "--mqtt-ca-file ca.pem: goes with an mqtts://"),
            (
                { try MQTTOutputSettings.parse(broker: "mqtt://broker", topicPrefix: "a/+/b") },
                "--mqtt-topic-prefix a/+/b: contains an MQTT wildcard"
            ),
            ({ try MQTTOutputSettings.parse(broker: "mqtt://broker", discoveryPrefix: "ha/#") }, "--mqtt-discovery-prefix ha/#: contains"),
            ({ try MQTTOutputSettings.parse(broker: "mqtt://broker", topicPrefix: "/") }, "--mqtt-topic-prefix /: is empty"),
            ({ try MQTTOutputSettings.parse(broker: "mqtt://broker", queueLimit: 0) }, "--mqtt-queue-limit 0: must be 1...10000000"),
        ]
        for (settings, message) in cases {
            #expect {
                _ = try settings()
            } throws: { error in
                "\(error)".hasPrefix(message) && !"\(error)".contains("hunter2")
            }
        }
    }
}
