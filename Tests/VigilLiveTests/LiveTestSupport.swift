import Foundation
import Hummingbird
import VigilControl
import VigilCore
import VigilDetectors
import VigilDevice
import VigilLive
import VigilServerTesting
import VigilSynth
import VigilTestSupport

/// Shared fixtures for the live tests.
enum LiveTestSupport {
    /// How long the tests' SSE clients wait for the response head. `SSEClient`'s own default
    /// (30 s) is for users. Under ThreadSanitizer the parallel CPU-heavy suites can hold Swift's
    /// cooperative pool for minutes, and a handler then answers late: a test should not fail on
    /// that, so it waits up to 10 minutes. A server that never answers still ends the test.
    static let sseResponseTimeout: Double = 600

    /// The package root (for Samples/).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func samplePath(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

    /// The front-door sample device (every recording mode available) with `mode` selected and,
    /// if given, only `enabled` triggers enabled (so a test sees only the events it is about).
    static func frontDoor(mode: Int = 0, enabled: Set<EventTriggerType>? = nil) throws -> Device {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Samples/front-door.json"))
        var device = try DeviceFile.load(data)
        try device.recordingModes.select(mode)
        if let enabled {
            device.eventTriggers = try EventDetectionTriggers(supported: device.eventTriggers.supported, enabled: enabled)
        }
        return device
    }

    static func scenario(_ name: String) throws -> Scenario {
        try Scenario.decode(Data(contentsOf: packageRoot.appendingPathComponent("Samples/scenarios/\(name)")))
    }

    struct Stack {
        var controller: DeviceController
        var metrics: LiveMetrics
        var hub: EventHub
        var session: LiveSession
        var server: LiveServer
    }

    static func stack(
        device: Device, sampleRate: Double = 16_000, token: String? = nil, clientBuffer: Int = 512, name: String = "test",
        settings: DetectorSettings = DetectorSettings()
    ) -> Stack {
        let controller = DeviceController(device: device)
        let metrics = LiveMetrics()
        let hub = EventHub(clientBufferCapacity: clientBuffer, historyCapacity: 4096, metrics: metrics)
        let session = LiveSession(
            sampleRate: sampleRate, sourceName: name, device: controller, settings: settings, hub: hub, metrics: metrics)
        // Under a sanitizer a test's client may wait behind the CPU-heavy suites for minutes between two
        // requests: the server's timeouts stretch as the tests' own limits do.
        let configuration = LiveServerConfiguration(
            host: "127.0.0.1", port: 0, token: token, requestTimeout: .seconds(30 * SanitizerAllowance.factor),
            idleTimeout: .seconds(60 * SanitizerAllowance.factor))
        let server = LiveServer(session: session, configuration: configuration)
        return Stack(controller: controller, metrics: metrics, hub: hub, session: session, server: server)
    }

    /// Runs a blocking `body` on a dedicated thread.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.start()
        }
    }

    /// Parses an SSE body into (event, data JSON) pairs.
    static func sseMessages(_ text: String) -> [(event: String, json: JSONValue)] {
        var result: [(String, JSONValue)] = []
        for block in text.components(separatedBy: "\n\n") {
            var event = "message"
            var data: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            if let data, let json = try? JSONValue.parse(data) { result.append((event, json)) }
        }
        return result
    }

    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func json(_ response: TestHTTPResponse) -> JSONValue {
        (try? JSONValue.parse(String(buffer: response.body))) ?? .null
    }
}
