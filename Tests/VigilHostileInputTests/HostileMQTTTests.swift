import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Hostile MQTT broker through the vigil command")
struct HostileMQTTTests {
    @Test("vigil analyze --mqtt to a port that answers garbage: a warning naming the broker, the analysis goes on, no crash")
    func garbageBroker() throws {
        let server = try GarbageServer()
        let result = try VigilProcess.run(
            [
                "analyze", "Samples/demo-scene.flac", "--device", "Samples/front-door.json", "--format", "jsonl", "--no-progress", "--mqtt",
                "mqtt://127.0.0.1:\(server.port)",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.filter { $0.contains(#""type":"event""#) }.count == 5, "the analysis is complete")
        #expect(result.stderr.contains("warning: mqtt://127.0.0.1:\(server.port): "), "\(result.stderr)")
        #expect(result.stderr.contains("0 messages delivered"), "\(result.stderr)")
    }
}
