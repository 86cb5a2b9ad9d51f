import Foundation
import Glibc
import Testing
import VigilCore
import VigilDevice
import VigilMQTT

/// A `vigil` process started in the package root, its standard output and error going to files.
final class VigilProcess {
    let process: Process
    let stdout: URL
    let stderr: URL

    init(_ arguments: [String], logs directory: URL) throws {
        guard let vigil = vigilExecutable else { throw CommandFailed(description: "no vigil executable") }
        let name = UUID().uuidString.prefix(8)
        stdout = directory.appendingPathComponent("vigil-\(name).out")
        stderr = directory.appendingPathComponent("vigil-\(name).err")
        for file in [stdout, stderr] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process = Process()
        process.executableURL = vigil
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var output: String { (try? String(contentsOf: stdout, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }
    /// The complete JSON lines of standard output.
    var records: [JSONValue] { output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) } }
    /// The output lines of `eventStarted` and `event` records, in order.
    var eventLines: [String] {
        output.split(separator: "\n").map(String.init).filter {
            let type = (try? JSONValue.parse($0))?["type"]?.stringValue
            return type == "event" || type == "eventStarted"
        }
    }

    /// Waits for the exit; its status, or nil (then the process is killed) after `seconds`.
    func exitStatus(within seconds: Double) -> Int32? {
        guard wait(seconds: seconds, until: { !process.isRunning }) else {
            killNow(process)
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The HTTP port of `vigil live`, from its "listening on" line.
    var livePort: Int? {
        guard let range = errors.firstRange(of: "listening on http://127.0.0.1:") else { return nil }
        return Int(errors[range.upperBound...].prefix { $0.isNumber })
    }

    /// The `N` of "..., N dropped" in the final MQTT line, or nil before it.
    var reportedDrops: Int? {
        guard let line = errors.split(separator: "\n").first(where: { $0.contains("messages delivered") }),
            let range = line.firstRange(of: "messages delivered, ")
        else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    deinit { killNow(process) }
}

/// `GET path` on 127.0.0.1:`port` (HTTP/1.1, connection closed after the reply): the body.
func httpGet(port: Int, path: String) -> String? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    guard write(fd, request, request.count) == request.count else { return nil }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        response += buffer[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    return text.firstRange(of: "\r\n\r\n").map { String(text[$0.upperBound...]) }
}

/// The demo device's mapping: topics of the camera "Demo front door camera".
func demoMapping() throws -> HomeAssistantMQTTMapping {
    HomeAssistantMQTTMapping(
        device: try DeviceFile.load(try Data(contentsOf: packageRoot.appendingPathComponent("Samples/front-door.json"))))
}

/// A subscriber the broker has seen connect (so its persistent session holds what comes while it
/// or the broker is away).
func connectedSubscriber(_ broker: TestBroker) throws -> TestSubscriber {
    let subscriber = try TestSubscriber(broker: broker)
    guard wait(seconds: 10, until: { broker.hasConnected(subscriber.clientID) }) else {
        throw CommandFailed(description: "mosquitto_sub did not connect")
    }
    return subscriber
}

/// Messages published on the camera's event and state topics, as "topic payload", with a repeat
/// of the message just before removed (QoS 1 resends an unacknowledged message after a reconnect;
/// no two consecutive messages of a run are equal otherwise: an event's JSON lies between its
/// states). Retained copies that mosquitto_sub gets when it subscribes again after a broker
/// restart are left out.
func cameraStream(_ messages: [TestSubscriber.Message], _ mapping: HomeAssistantMQTTMapping) -> [String] {
    var stream: [String] = []
    for message in messages where !message.retained && message.topic.hasPrefix("\(mapping.topicPrefix)/\(mapping.cameraID)/") {
        let line = "\(message.topic) \(message.payload)"
        if stream.last != line { stream.append(line) }
    }
    return stream
}

/// What the run's records give on the camera's topics, in order: `OFF` for every trigger, then
/// each record's messages.
func expectedStream(_ records: [JSONValue], _ mapping: HomeAssistantMQTTMapping) -> [String] {
    var mapping = mapping
    let messages = mapping.initialStateMessages() + records.flatMap { mapping.messages(for: $0) }
    return messages.map { "\($0.topic) \($0.text)" }
}

@Suite(
    "vigil analyze and vigil live --mqtt with a mosquitto broker", .serialized,
    .enabled(if: mosquittoAvailable, "needs mosquitto and mosquitto-clients (Debian packages)"),
    .enabled(if: vigilExecutable != nil, "needs the vigil executable (swift build --build-tests)"))
struct MQTTCommandTests {
    @Test("vigil analyze --mqtt: retained discovery per enabled trigger, ON/OFF and the JSON of every event, online then offline")
    func analyze() throws {
        let broker = try TestBroker()
        let subscriber = try connectedSubscriber(broker)
        let mapping = try demoMapping()
        let run = try VigilProcess(
            [
                "analyze", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--format", "jsonl", "--mqtt",
                "mqtt://127.0.0.1:\(broker.port)",
            ], logs: broker.directory)
        #expect(run.exitStatus(within: 120) == 0, "\(run.errors)")
        #expect(run.reportedDrops == 0, "\(run.errors)")
        let finals = run.eventLines
        #expect(finals.count == 5, "the demo scene's five events")
        #expect(
            wait(seconds: 10) { subscriber.messages.last.map { $0.topic == mapping.availabilityTopic && $0.payload == "offline" } ?? false }
        )

        let received = subscriber.messages
        // The events topic carries each event record exactly as the JSON Lines output has it: same ids, same fields.
        #expect(received.filter { $0.topic == mapping.eventsTopic }.map(\.payload) == finals)
        // Each trigger's state topic turns ON and OFF for each of its events; everything in order.
        let records = run.records
        #expect(cameraStream(received, mapping) == expectedStream(records, mapping))
        for trigger in Set(records.compactMap { $0["type"]?.stringValue == "event" ? $0["trigger"]?.stringValue : nil }) {
            let states = received.filter { $0.topic == "vigil/demo_front_door_camera/\(trigger)" }.map(\.payload)
            #expect(states.contains("ON") && states.last == "OFF", "\(trigger): \(states)")
        }
        let availability = received.filter { $0.topic == mapping.availabilityTopic }.map(\.payload)
        #expect(availability == ["online", "offline"])
        let discovery = Set(received.filter { $0.topic.hasPrefix("homeassistant/binary_sensor/") }.map(\.topic))
        #expect(discovery == Set(mapping.discoveryMessages().map(\.topic)) && discovery.count == mapping.triggers.count)

        // A later subscriber gets the discovery configs, availability and states as retained messages.
        let late = try TestSubscriber(broker: broker)
        #expect(wait(seconds: 10) { late.messages.count >= mapping.triggers.count * 2 + 1 })
        let retained = late.messages
        #expect(retained.allSatisfy { $0.retained })
        #expect(Set(retained.filter { $0.topic.hasPrefix("homeassistant/") }.map(\.topic)) == discovery)
        #expect(retained.contains { $0.topic == mapping.availabilityTopic && $0.payload == "offline" })
        #expect(retained.filter { $0.topic.hasPrefix("vigil/demo_front_door_camera/") }.allSatisfy { $0.payload == "OFF" })
    }

    @Test("vigil live --mqtt across a broker restart in the middle of the run: every event record arrives once, in order, none dropped")
    func liveAcrossBrokerRestart() throws {
        let broker = try TestBroker()
        let subscriber = try connectedSubscriber(broker)
        let mapping = try demoMapping()
        let run = try VigilProcess(
            [
                "live", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--speed", "8", "--listen", "127.0.0.1:0",
                "--mqtt", "mqtt://127.0.0.1:\(broker.port)",
            ], logs: broker.directory)
        #expect(wait(seconds: 30) { subscriber.messages.contains { $0.topic == mapping.eventsTopic } }, "\(run.errors)")
        broker.stop()
        // Records come while the broker is away.
        #expect(wait(seconds: 30) { run.eventLines.count >= 5 }, "\(run.output)")
        try broker.start()
        #expect(run.exitStatus(within: 60) == 0, "\(run.errors)")
        #expect(run.errors.contains("MQTT connection lost"), "the run saw the broker go: \(run.errors)")
        #expect(run.reportedDrops == 0, "\(run.errors)")
        #expect(run.eventLines.count == 10, "five events, each with its eventStarted record")

        #expect(
            wait(seconds: 10) { subscriber.messages.last.map { $0.topic == mapping.availabilityTopic && $0.payload == "offline" } ?? false }
        )
        let received = subscriber.messages
        // Deduplicated by (id, type) as a subscriber would, the events are the run's, each once and in order.
        var seen: Set<String> = []
        let events = received.filter { $0.topic == mapping.eventsTopic }.map(\.payload).filter { payload in
            let record = try? JSONValue.parse(payload)
            return seen.insert("\(record?["id"]?.intValue ?? -1) \(record?["type"]?.stringValue ?? "")").inserted
        }
        #expect(events == run.eventLines)
        #expect(cameraStream(received, mapping) == expectedStream(run.records, mapping))
    }

    @Test(
        "vigil live --mqtt with the broker away from the start and a queue of 3: the run goes on, the newest 3 arrive, the dropped count is exact and in /metrics"
    )
    func liveDropsBeyondTheQueueLimit() throws {
        let broker = try TestBroker()
        let subscriber = try connectedSubscriber(broker)
        let mapping = try demoMapping()
        broker.stop()
        let run = try VigilProcess(
            [
                "live", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--speed", "20", "--listen", "127.0.0.1:0",
                "--linger", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-queue-limit", "3",
            ], logs: broker.directory)
        // The run does not wait for the broker: it warns and streams the whole scene.
        #expect(wait(seconds: 30) { run.records.contains { $0["type"]?.stringValue == "end" } }, "\(run.errors)")
        #expect(run.errors.contains("warning: mqtt://127.0.0.1:\(broker.port): "), "\(run.errors)")
        #expect(run.errors.contains("up to 3 messages wait for the broker"), "\(run.errors)")
        try broker.start()
        #expect(wait(seconds: 30) { run.reportedDrops != nil }, "\(run.errors)")
        let dropped = try #require(run.reportedDrops)

        let expected = expectedStream(run.records, mapping)
        #expect(wait(seconds: 10) { cameraStream(subscriber.messages, mapping).count >= 3 })
        let received = cameraStream(subscriber.messages, mapping)
        // The oldest messages were dropped: what arrives is the newest three, and the count of the others is the one reported.
        #expect(received == Array(expected.suffix(3)))
        #expect(dropped == expected.count - received.count && dropped > 0, "\(run.errors)")

        let port = try #require(run.livePort)
        let metrics = try #require(httpGet(port: port, path: "/metrics"))
        var values: [String: Double] = [:]
        for line in metrics.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 2 { values[String(fields[0])] = Double(fields[1]) }
        }
        let expectedValues: [String: Double] = [
            "vigil_mqtt_dropped_messages_total": Double(dropped), "vigil_mqtt_delivered_messages_total": 3, "vigil_mqtt_queued_messages": 0,
            "vigil_mqtt_connections_total": 1, "vigil_mqtt_connected": 0,
        ]
        for (name, value) in expectedValues { #expect(values[name] == value, "\(name) in \(metrics)") }
        run.process.interrupt()
        #expect(run.exitStatus(within: 20) == 0, "\(run.errors)")
    }

    @Test("a broker that refuses the credentials: a clear error naming it, usage exit status, nothing analyzed, no crash")
    func refusedCredentials() throws {
        let broker = try TestBroker(users: ["vigil": "right horse battery"])
        let url = "mqtt://vigil:wrong@127.0.0.1:\(broker.port)"
        let analyze = try VigilProcess(
            ["analyze", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--format", "jsonl", "--mqtt", url],
            logs: broker.directory)
        #expect(analyze.exitStatus(within: 60) == 2)
        #expect(analyze.output.isEmpty, "nothing analyzed")
        #expect(
            analyze.errors.contains("--mqtt mqtt://vigil:***@127.0.0.1:\(broker.port): the broker refused the connection"),
            "\(analyze.errors)")
        #expect(analyze.errors.contains("not authorised"), "\(analyze.errors)")
        let live = try VigilProcess(
            ["live", "Samples/demo-scene.flac", "--speed", "0", "--listen", "127.0.0.1:0", "--mqtt", url], logs: broker.directory)
        #expect(live.exitStatus(within: 60) == 2)
        #expect(live.errors.contains("vigil live: --mqtt mqtt://vigil:***@127.0.0.1:\(broker.port): the broker refused"), "\(live.errors)")
        for errors in [analyze.errors, live.errors] { #expect(!errors.contains("wrong"), "the password is not shown") }

        // Bad option values are usage errors too, before anything connects.
        for (arguments, message) in [
            (["--mqtt-ca-file", "ca.pem"], "--mqtt-ca-file: goes with --mqtt URL"),
            (["--mqtt", "http://broker"], "--mqtt http://broker: expected mqtt://"),
            (["--mqtt", "mqtt://broker", "--mqtt-topic-prefix", "a/#"], "--mqtt-topic-prefix a/#: contains an MQTT wildcard"),
        ] {
            let bad = try VigilProcess(["analyze", "Samples/demo-scene.flac"] + arguments, logs: broker.directory)
            #expect(bad.exitStatus(within: 30) == 2)
            #expect(bad.errors.contains(message), "\(bad.errors)")
        }
    }
}
