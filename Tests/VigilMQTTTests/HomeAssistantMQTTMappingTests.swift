import Testing
import VigilCore
import VigilDevice
import VigilMQTT

@Suite("HomeAssistantMQTTMapping")
struct HomeAssistantMQTTMappingTests {
    func record(_ type: String, id: Int, trigger: String, start: Double = 1) -> JSONValue {
        .object(
            JSONObject([
                ("v", 1), ("type", .string(type)), ("file", "x"), ("id", .number(Double(id))), ("trigger", .string(trigger)),
                ("start", .number(start)),
            ]))
    }

    @Test("one binary_sensor per enabled trigger with its device class, unique id, availability and one device")
    func discovery() throws {
        let device = try DeviceFile.load(Array("{\"name\": \"Front door / Porch\"}".utf8))
        let mapping = HomeAssistantMQTTMapping(device: device, topicPrefix: "home/vigil/", discoveryPrefix: "ha")
        #expect(mapping.cameraID == "front_door_porch" && mapping.availabilityTopic == "home/vigil/available")
        let messages = mapping.discoveryMessages()
        #expect(messages.count == device.eventTriggers.enabled.count && messages.allSatisfy(\.retain))
        var identifiers: Set<String> = []
        for (message, trigger) in zip(messages, device.eventTriggers.enabled.sorted()) {
            #expect(message.topic == "ha/binary_sensor/vigil_front_door_porch_\(trigger.rawValue)/config")
            let config = try JSONValue.parse(message.text)
            #expect(config["unique_id"]?.stringValue == "vigil_front_door_porch_\(trigger.rawValue)")
            #expect(config["state_topic"]?.stringValue == "home/vigil/front_door_porch/\(trigger.rawValue)")
            #expect(config["availability_topic"]?.stringValue == "home/vigil/available")
            #expect(config["device"]?["name"]?.stringValue == "Front door / Porch")
            identifiers.insert(config["device"]?["identifiers"]?.arrayValue?.first?.stringValue ?? "")
            #expect(config["device_class"]?.stringValue == HomeAssistantMQTTMapping.deviceClass(trigger))
        }
        #expect(identifiers == ["vigil_front_door_porch"])
        let classes = Dictionary(uniqueKeysWithValues: EventTriggerType.allCases.map { ($0, HomeAssistantMQTTMapping.deviceClass($0)) })
        #expect(
            classes[.motion] == "motion" && classes[.sound] == "sound" && classes[.smokeAlarm] == "smoke"
                && classes[.coAlarm] == "carbon_monoxide")
    }

    @Test("ON when the first event of a trigger starts, OFF when the last one is final; a final without a start gives both")
    func states() {
        var mapping = HomeAssistantMQTTMapping(cameraName: "Cam", triggers: [.motion, .sound])
        func states(_ record: JSONValue) -> [String] {
            mapping.messages(for: record).filter { $0.topic != mapping.eventsTopic }.map {
                "\($0.topic.split(separator: "/").last!)=\($0.text)"
            }
        }
        #expect(states(record("eventStarted", id: 1, trigger: "motion")) == ["motion=ON"])
        #expect(states(record("eventStarted", id: 2, trigger: "motion")) == [])
        #expect(states(record("event", id: 1, trigger: "motion")) == [])
        #expect(states(record("event", id: 2, trigger: "motion")) == ["motion=OFF"])
        #expect(states(record("event", id: 3, trigger: "sound")) == ["sound=ON", "sound=OFF"])
        var other = mapping
        #expect(other.messages(for: ["type": "zoneTriggered", "trigger": "motion"]).isEmpty)
        let events = mapping.messages(for: record("eventStarted", id: 4, trigger: "sound"))
        #expect(events.first?.topic == "vigil/cam/events" && events.first?.retain == false)
        #expect(events.first.map { (try? JSONValue.parse($0.text))?["id"]?.intValue } == 4)
    }

    @Test("camera names become topic segments")
    func segments() {
        #expect(HomeAssistantMQTTMapping.topicSegment("Demo front door camera") == "demo_front_door_camera")
        #expect(HomeAssistantMQTTMapping.topicSegment("  Garage #2 ") == "garage_2")
        #expect(HomeAssistantMQTTMapping.topicSegment("###") == "camera")
    }
}

@Suite("MQTTBrokerURL")
struct MQTTBrokerURLTests {
    @Test("mqtt and mqtts URLs with credentials, ports and IPv6 hosts")
    func parsing() throws {
        let plain = try MQTTBrokerURL(parsing: "mqtt://broker.local")
        #expect(plain.host == "broker.local" && plain.port == 1883 && !plain.usesTLS && plain.username == nil)
        let tls = try MQTTBrokerURL(parsing: "mqtts://vigil:p%40ss@[::1]:8884/")
        #expect(tls.host == "::1" && tls.port == 8884 && tls.usesTLS && tls.username == "vigil" && tls.password == "p@ss")
        #expect(tls.description == "mqtts://vigil:***@[::1]:8884")
        for bad in ["http://x", "mqtt://", "mqtt://h:0", "mqtt://h:99999", "mqtt://h/topic", "mqtt://u:%zz@h"] {
            #expect(throws: MQTTError.self, "\(bad)") { try MQTTBrokerURL(parsing: bad) }
        }
        do {
            _ = try MQTTBrokerURL(parsing: "mqtt://u:secret@h:x")
        } catch {
            #expect(error.kind == .invalidURL && !error.description.contains("secret"))
        }
    }
}
