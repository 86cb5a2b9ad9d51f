import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP server that answers every connection with bytes that are not MQTT, and closes it.
final class GarbageServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else { throw RawHTTPError.failed("listen: \(String(cString: strerror(errno)))") }
        fd = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            let garbage = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }  // the listening socket was closed
                _ = read(client, &buffer, buffer.count)
                _ = write(client, garbage, garbage.count)
                Glibc.close(client)
            }
        }
    }

    /// Ends the accept loop (the descriptor stays open until the process ends, so that the loop never accepts on a reused one).
    deinit { shutdown(fd, Int32(SHUT_RDWR)) }
}

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
