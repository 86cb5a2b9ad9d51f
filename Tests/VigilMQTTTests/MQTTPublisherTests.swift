import Foundation
import Testing
import VigilCore
import VigilDevice
import VigilMQTT
import VigilTestSupport

/// The vigil executable in the same build directory as the running test bundle, if built.
let vigilExecutable: URL? = FileManager.default.isExecutableFile(atPath: CommandRunner.executable.path) ? CommandRunner.executable : nil

/// The demo scene's event records as `vigil analyze` writes them, and the live order of a run:
/// each event's `eventStarted` record at its detection time, its final record at its end.
func demoSceneRecords() throws -> [JSONValue] {
    let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--format", "jsonl"])
    let finals = try result.lines.map { try JSONValue.parse($0) }.filter { $0["type"]?.stringValue == "event" }
    var timed: [(Double, JSONValue)] = []
    for final in finals {
        guard case .object(let object) = final else { continue }
        let started = JSONObject(
            object.members.compactMap { member -> (String, JSONValue)? in
                switch member.key {
                case "end", "clip", "snapshot": return nil
                case "type": return ("type", "eventStarted")
                default: return (member.key, member.value)
                }
            })
        timed.append((final["detectedAt"]?.doubleValue ?? 0, .object(started)))
        timed.append((final["end"]?.doubleValue ?? 0, final))
    }
    return timed.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
}

@Suite(
    "MQTTPublisher with a mosquitto broker", .serialized,
    .enabled(if: mosquittoAvailable, "needs mosquitto and mosquitto-clients (Debian packages)"))
struct MQTTPublisherTests {
    func publisher(
        _ broker: TestBroker, user: String? = nil, password: String? = nil, queueLimit: Int = 1000, availability: String = "vigil/available"
    )
        throws -> MQTTPublisher
    {
        let url = MQTTBrokerURL(host: "127.0.0.1", port: broker.port, username: user, password: password)
        return try MQTTPublisher(
            configuration: MQTTPublisherConfiguration(
                broker: url, clientID: "vigil-\(UUID().uuidString.prefix(8))", availabilityTopic: availability, queueLimit: queueLimit,
                reconnectDelay: (1, 1)))
    }

    @Test(
        "discovery and availability arrive retained; ON/OFF states and the JSON of every event of the demo scene arrive in order",
        .enabled(if: vigilExecutable != nil, "needs the vigil executable (swift build --build-tests)"))
    func demoScene() throws {
        let broker = try TestBroker()
        let subscriber = try TestSubscriber(broker: broker)
        let device = try DeviceFile.load(try Data(contentsOf: packageRoot.appendingPathComponent("Samples/front-door.json")))
        var mapping = HomeAssistantMQTTMapping(device: device)
        let records = try demoSceneRecords()
        #expect(records.count >= 4, "the demo scene has events")

        let publisher = try publisher(broker, availability: mapping.availabilityTopic)
        try publisher.setRetainedMessages(mapping.discoveryMessages())
        try publisher.start()
        try publisher.waitUntilConnected(timeout: 10)
        #expect(wait(seconds: 10) { subscriber.messages.contains { $0.topic == "vigil/available" && $0.payload == "online" } })
        var expected: [MQTTMessage] = mapping.initialStateMessages()
        for record in records { expected += mapping.messages(for: record) }
        for message in expected { try publisher.publish(message) }
        #expect(publisher.flush(timeout: 20))
        #expect(
            wait(seconds: 10) { subscriber.messages.filter { $0.topic.hasPrefix("vigil/demo_front_door_camera/") }.count >= expected.count }
        )

        let received = subscriber.messages
        // Every message, in order, on its topic.
        let stream = received.filter { $0.topic.hasPrefix("vigil/demo_front_door_camera/") }.map { "\($0.topic) \($0.payload)" }
        #expect(stream == expected.map { "\($0.topic) \($0.text)" })
        // Each event: its eventStarted and final record with one id, and ON before OFF on its trigger's topic.
        let events = received.filter { $0.topic == "vigil/demo_front_door_camera/events" }.compactMap { try? JSONValue.parse($0.payload) }
        let finals = records.filter { $0["type"]?.stringValue == "event" }
        for final in finals {
            let id = try #require(final["id"]?.intValue), trigger = try #require(final["trigger"]?.stringValue)
            #expect(events.filter { $0["id"]?.intValue == id }.map { $0["type"]?.stringValue } == ["eventStarted", "event"])
            let states = received.filter { $0.topic == "vigil/demo_front_door_camera/\(trigger)" }.map(\.payload)
            #expect(states.contains("ON") && states.last == "OFF", "\(trigger): \(states)")
        }
        let discovery = received.filter { $0.topic.hasPrefix("homeassistant/binary_sensor/") }
        #expect(Set(discovery.map(\.topic)) == Set(mapping.discoveryMessages().map(\.topic)))
        let smoke = try #require(discovery.first { $0.topic.contains("_smokeAlarm/") })
        #expect(try JSONValue.parse(smoke.payload)["device_class"]?.stringValue == "smoke")

        // A subscriber that comes later gets the retained discovery configs, availability and states.
        let late = try TestSubscriber(broker: broker)
        #expect(wait(seconds: 10) { late.messages.count >= discovery.count + 1 + mapping.triggers.count })
        let retained = late.messages
        #expect(retained.allSatisfy { $0.retained })
        #expect(Set(retained.filter { $0.topic.hasPrefix("homeassistant/") }.map(\.topic)) == Set(discovery.map(\.topic)))
        #expect(retained.contains { $0.topic == "vigil/available" && $0.payload == "online" })
        #expect(
            retained.filter { $0.topic.hasPrefix("vigil/demo_front_door_camera/") && !$0.topic.hasSuffix("/events") }.allSatisfy {
                $0.payload == "OFF"
            })

        publisher.stop()
        #expect(wait(seconds: 10) { subscriber.messages.last.map { $0.topic == "vigil/available" && $0.payload == "offline" } ?? false })
        #expect(publisher.status.dropped == 0 && publisher.status.delivered == expected.count)
    }

    @Test("a broker that refuses the credentials is a clear error; the right ones connect")
    func credentials() throws {
        let broker = try TestBroker(users: ["vigil": "right horse battery"])
        let wrong = try publisher(broker, user: "vigil", password: "wrong")
        try wrong.start()
        do {
            try wrong.waitUntilConnected(timeout: 10)
            Issue.record("connected with a wrong password")
        } catch {
            #expect(error.kind == .notAuthorized, "\(error)")
            #expect(
                error.description.hasPrefix("mqtt://vigil:***@127.0.0.1:\(broker.port): ") && !error.description.contains("wrong"),
                "\(error)")
        }
        wrong.stop(timeout: 1)
        let anonymous = try publisher(broker)
        try anonymous.start()
        #expect(throws: MQTTError.self) { try anonymous.waitUntilConnected(timeout: 10) }
        anonymous.stop(timeout: 1)
        let right = try publisher(broker, user: "vigil", password: "right horse battery")
        try right.start()
        try right.waitUntilConnected(timeout: 10)
        right.stop()
    }

    @Test(
        "mqtts:// with the broker's CA file connects and delivers; without it the handshake fails",
        .enabled(if: opensslAvailable, "needs openssl"))
    func tls() throws {
        let broker = try TestBroker(tls: true)
        let url = try MQTTBrokerURL(parsing: "mqtts://127.0.0.1:\(broker.port)")
        let trusted = try MQTTPublisher(
            configuration: MQTTPublisherConfiguration(broker: url, clientID: "vigil-tls", caFile: broker.caFile.path))
        try trusted.start()
        try trusted.waitUntilConnected(timeout: 10)
        try trusted.publish(MQTTMessage(topic: "vigil/cam/events", text: #"{"id":1}"#))
        #expect(trusted.flush(timeout: 10) && trusted.status.delivered == 1)
        trusted.stop()

        let untrusted = try MQTTPublisher(configuration: MQTTPublisherConfiguration(broker: url, clientID: "vigil-untrusted"))
        try untrusted.start()
        #expect(throws: MQTTError.self) { try untrusted.waitUntilConnected(timeout: 3) }
        untrusted.stop(timeout: 0.5)

        #expect {
            try MQTTPublisher(
                configuration: MQTTPublisherConfiguration(broker: url, caFile: broker.directory.appendingPathComponent("missing.crt").path))
        } throws: { error in
            (error as? MQTTError)?.kind == .tls && "\(error)".contains("missing.crt")
        }
    }

    @Test("an unreachable broker is an error naming it after the timeout")
    func unreachable() throws {
        let port = freeLoopbackPort()
        let publisher = try MQTTPublisher(configuration: MQTTPublisherConfiguration(broker: MQTTBrokerURL(host: "127.0.0.1", port: port)))
        try publisher.start()
        do {
            try publisher.waitUntilConnected(timeout: 1.5)
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.kind == .unreachable && error.description.hasPrefix("mqtt://127.0.0.1:\(port): "), "\(error)")
        }
        publisher.stop(timeout: 0.5)
    }

    @Test("a broker that is down when the publisher starts is connected when it comes up, and the queued messages arrive")
    func brokerStartedLater() throws {
        let broker = try TestBroker()
        let subscriber = try TestSubscriber(broker: broker, topics: ["vigil/#"])
        #expect(wait(seconds: 10) { broker.hasConnected(subscriber.clientID) })
        broker.stop()
        let publisher = try publisher(broker)
        try publisher.start()
        #expect(throws: MQTTError.self) { try publisher.waitUntilConnected(timeout: 0.5) }
        for id in 0..<2 { try publisher.publish(MQTTMessage(topic: "vigil/cam/events", text: #"{"id":\#(id)}"#)) }
        try broker.start()
        // libmosquitto alone never retries a first attempt that failed at once (connection refused).
        try publisher.waitUntilConnected(timeout: 20)
        #expect(publisher.flush(timeout: 10))
        #expect(wait(seconds: 10) { subscriber.messages.filter { $0.topic == "vigil/cam/events" }.count == 2 })
        #expect(publisher.status.delivered == 2 && publisher.status.connections == 1)
        publisher.stop()
    }

    @Test("across a broker restart every queued record arrives once and in order; beyond the bound the dropped count is exact")
    func brokerRestart() throws {
        let broker = try TestBroker()
        let subscriber = try TestSubscriber(broker: broker, topics: ["vigil/#"])
        let publisher = try publisher(broker, queueLimit: 5)
        try publisher.start()
        try publisher.waitUntilConnected(timeout: 10)
        #expect(wait(seconds: 10) { subscriber.messages.contains { $0.topic == "vigil/available" } })
        func record(_ id: Int) -> MQTTMessage {
            MQTTMessage(topic: "vigil/cam/events", text: #"{"v":1,"type":"event","id":\#(id),"trigger":"sound"}"#)
        }
        for id in 0..<3 { try publisher.publish(record(id)) }
        #expect(publisher.flush(timeout: 10))

        broker.stop()
        #expect(wait(seconds: 10) { !publisher.status.connected })
        for id in 3..<11 { try publisher.publish(record(id)) }
        let during = publisher.status
        #expect(during.dropped == 3 && during.queued == 5, "\(during)")

        try broker.start()
        #expect(wait(seconds: 20) { publisher.status.connected && publisher.status.queued == 0 && publisher.status.inFlight == 0 })
        #expect(wait(seconds: 20) { Set(subscriber.messages.compactMap { try? JSONValue.parse($0.payload)["id"]?.intValue }).count == 8 })
        // QoS 1 may repeat a message: deduplicate by id, keeping the first arrival.
        var seen: Set<Int> = []
        let ids = subscriber.messages.filter { $0.topic == "vigil/cam/events" }.compactMap {
            try? JSONValue.parse($0.payload)["id"]?.intValue
        }
        .filter { seen.insert($0).inserted }
        #expect(ids == [0, 1, 2, 6, 7, 8, 9, 10], "the oldest waiting records (3, 4, 5) are the dropped ones")
        let status = publisher.status
        #expect(status.dropped == 3 && status.delivered == 8 && status.connections == 2, "\(status)")
        publisher.stop()
    }
}
