import Testing
import VigilLive

#if canImport(Glibc)
import Glibc
#endif

/// The blocking SSE client gives up on a server that accepts a connection but never answers,
/// instead of blocking its thread forever.
@Suite("SSE client timeouts")
struct SSEClientTests {
    /// A socket listening on a free loopback port that never accepts or answers (the kernel
    /// completes the handshake from its backlog, so connect and send succeed).
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
            try #require(fd >= 0 && bound, "could not open a loopback listener")
        }

        deinit { close(fd) }
    }

    @Test("connect fails after the response timeout when the server never sends a response head")
    func responseHeadTimeout() throws {
        let listener = try SilentListener()
        let client = SSEClient(port: listener.port, responseTimeout: 0.3)
        let started = LiveClock.now()
        do {
            try client.connect()
            Issue.record("connect returned although the server never answered")
        } catch let error as SSEClientError {
            #expect(error.operation == "recv")
            #expect(error.reason.contains("nothing received within 0.3 s"), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let waited = LiveClock.now() - started
        #expect(waited >= 0.25, "gave up after \(waited) s, before the timeout")
    }

    @Test("a refused connection is an error naming the step")
    func refusedConnection() throws {
        let port = try SilentListener().port  // closed again at once: nothing listens there now
        let client = SSEClient(port: port, responseTimeout: 1)
        #expect(throws: SSEClientError.self) { try client.connect() }
    }
}
