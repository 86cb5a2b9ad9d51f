import VigilCore
import VigilDevice

/// Turns Vigil's event records into MQTT messages for Home Assistant (pure; no I/O):
/// - every `eventStarted` and final `event` record, as its JSON line, on `<prefix>/<camera>/events`;
/// - per-trigger state topics `<prefix>/<camera>/<trigger>` carrying `ON` while an event of that
///   trigger is open and `OFF` when the last one is final (retained, like Frigate's motion and
///   audio topics);
/// - Home Assistant MQTT discovery configs (retained): one `binary_sensor` per enabled trigger at
///   `<discovery prefix>/binary_sensor/<unique id>/config`, with the trigger's `device_class`, a
///   `unique_id`, the availability topic, and one device entry per camera.
///
/// `eventStarted` and the final `event` record of one event share an `id`; the mapping keeps the
/// ids of open events per trigger, so it is fed every record of one camera in order.
public struct HomeAssistantMQTTMapping: Sendable, Hashable {
    /// The camera's display name (the device file's `name`).
    public let cameraName: String
    /// The camera's topic segment: the name in lower case, runs of other characters than `a-z`,
    /// `0-9` as `_` ("Demo front door camera" -> `demo_front_door_camera`).
    public let cameraID: String
    /// The first topic segment of Vigil's topics (default `vigil`).
    public let topicPrefix: String
    /// Home Assistant's discovery prefix (default `homeassistant`).
    public let discoveryPrefix: String
    /// The triggers that get a binary sensor, in declaration order.
    public let triggers: [EventTriggerType]
    private var openEvents: [EventTriggerType: Set<Int>] = [:]

    /// A mapping for `device`: its name and its enabled triggers.
    public init(device: Device, topicPrefix: String = "vigil", discoveryPrefix: String = "homeassistant") {
        self.init(
            cameraName: device.name, triggers: device.eventTriggers.enabled.sorted(), topicPrefix: topicPrefix,
            discoveryPrefix: discoveryPrefix)
    }

    /// A mapping for a camera named `cameraName` with binary sensors for `triggers`.
    public init(cameraName: String, triggers: [EventTriggerType], topicPrefix: String = "vigil", discoveryPrefix: String = "homeassistant")
    {
        self.cameraName = cameraName
        cameraID = Self.topicSegment(cameraName)
        self.topicPrefix = Self.trimmedPrefix(topicPrefix)
        self.discoveryPrefix = Self.trimmedPrefix(discoveryPrefix)
        self.triggers = Array(Set(triggers)).sorted()
    }

    /// `<prefix>/available`: `online` / `offline`, retained (the publisher's will message).
    public var availabilityTopic: String { "\(topicPrefix)/available" }
    /// `<prefix>/<camera>/events`: the event records as JSON.
    public var eventsTopic: String { "\(topicPrefix)/\(cameraID)/events" }
    /// `<prefix>/<camera>/<trigger>`: `ON` / `OFF`.
    public func stateTopic(_ trigger: EventTriggerType) -> String { "\(topicPrefix)/\(cameraID)/\(trigger.rawValue)" }
    /// The binary sensor's `unique_id`: `vigil_<camera>_<trigger>`.
    public func uniqueID(_ trigger: EventTriggerType) -> String { "vigil_\(cameraID)_\(trigger.rawValue)" }
    /// `<discovery prefix>/binary_sensor/<unique id>/config`.
    public func discoveryTopic(_ trigger: EventTriggerType) -> String { "\(discoveryPrefix)/binary_sensor/\(uniqueID(trigger))/config" }

    /// The discovery config of every trigger's binary sensor (retained).
    public func discoveryMessages() -> [MQTTMessage] {
        triggers.map { trigger in
            let config: JSONValue = .object(
                JSONObject([
                    ("name", .string(Self.displayName(trigger))),
                    ("unique_id", .string(uniqueID(trigger))),
                    ("object_id", .string(uniqueID(trigger))),
                    ("device_class", .string(Self.deviceClass(trigger))),
                    ("state_topic", .string(stateTopic(trigger))),
                    ("payload_on", "ON"),
                    ("payload_off", "OFF"),
                    ("availability_topic", .string(availabilityTopic)),
                    ("payload_available", "online"),
                    ("payload_not_available", "offline"),
                    ("json_attributes_topic", .string(eventsTopic)),
                    (
                        "device",
                        .object(
                            JSONObject([
                                ("identifiers", .array([.string("vigil_\(cameraID)")])),
                                ("name", .string(cameraName)),
                                ("manufacturer", "Vigil"),
                                ("model", "Vigil event detector"),
                            ]))
                    ),
                ]))
            return MQTTMessage(topic: discoveryTopic(trigger), text: config.serialized(.compact), retain: true)
        }
    }

    /// `OFF` on every trigger's state topic (retained): the state before any event.
    public func initialStateMessages() -> [MQTTMessage] {
        triggers.map { MQTTMessage(topic: stateTopic($0), text: "OFF", retain: true) }
    }

    /// The messages for one record in its JSON form (as written to events.jsonl): for
    /// `eventStarted` the record and `ON` when it opens its trigger's first event; for a final
    /// `event` the record and `OFF` when it closes the last open event of its trigger (`ON` and
    /// `OFF` both when no start was seen). Other record types give no messages.
    public mutating func messages(for record: JSONValue) -> [MQTTMessage] {
        guard let type = record["type"]?.stringValue, type == "eventStarted" || type == "event",
            let trigger = record["trigger"]?.stringValue.flatMap(EventTriggerType.init(rawValue:))
        else { return [] }
        let id = record["id"]?.intValue
        var messages = [MQTTMessage(topic: eventsTopic, text: record.serialized(.compact))]
        var open = openEvents[trigger, default: []]
        if type == "eventStarted" {
            if open.isEmpty { messages.append(MQTTMessage(topic: stateTopic(trigger), text: "ON", retain: true)) }
            if let id { open.insert(id) }
        } else {
            let wasOpen = id.map { open.remove($0) != nil } ?? false
            if !wasOpen && open.isEmpty { messages.append(MQTTMessage(topic: stateTopic(trigger), text: "ON", retain: true)) }
            if open.isEmpty { messages.append(MQTTMessage(topic: stateTopic(trigger), text: "OFF", retain: true)) }
        }
        openEvents[trigger] = open.isEmpty ? nil : open
        return messages
    }

    /// Home Assistant's binary sensor device class for `trigger`: `motion` for motion and the
    /// animal detector, `occupancy` for people, `moving` for vehicles, `presence` for packages,
    /// `sound` for sound, talking and barking, `safety` for glass breaking, `smoke` and
    /// `carbon_monoxide` for the alarms.
    public static func deviceClass(_ trigger: EventTriggerType) -> String {
        switch trigger {
        case .motion, .animalDetected: return "motion"
        case .personDetected: return "occupancy"
        case .vehicleDetected: return "moving"
        case .packageDetected: return "presence"
        case .sound, .personTalking, .dogBark: return "sound"
        case .glassBreak: return "safety"
        case .smokeAlarm: return "smoke"
        case .coAlarm: return "carbon_monoxide"
        }
    }

    /// The sensor's name in Home Assistant ("Motion", "Dog bark", "CO alarm", ...).
    public static func displayName(_ trigger: EventTriggerType) -> String {
        switch trigger {
        case .motion: return "Motion"
        case .personDetected: return "Person"
        case .vehicleDetected: return "Vehicle"
        case .animalDetected: return "Animal"
        case .packageDetected: return "Package"
        case .sound: return "Sound"
        case .personTalking: return "Person talking"
        case .dogBark: return "Dog bark"
        case .glassBreak: return "Glass break"
        case .smokeAlarm: return "Smoke alarm"
        case .coAlarm: return "CO alarm"
        }
    }

    /// `name` as a topic segment (see ``cameraID``); `camera` when nothing is left.
    public static func topicSegment(_ name: String) -> String {
        var segment = ""
        var pendingSeparator = false
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingSeparator && !segment.isEmpty { segment.append("_") }
                pendingSeparator = false
                segment.unicodeScalars.append(scalar)
            } else {
                pendingSeparator = true
            }
        }
        return segment.isEmpty ? "camera" : segment
    }

    private static func trimmedPrefix(_ prefix: String) -> String {
        var text = Substring(prefix)
        while text.hasSuffix("/") { text = text.dropLast() }
        while text.hasPrefix("/") { text = text.dropFirst() }
        return text.isEmpty ? "vigil" : String(text)
    }
}
