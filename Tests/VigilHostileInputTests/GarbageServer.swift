import Foundation
import Glibc

/// A loopback TCP server on a free port that reads what a client sends first, answers with bytes
/// that are neither MQTT nor RTSP, and closes the connection: a broker or camera port gone wrong.
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
                _ = garbage.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Glibc.close(client)
            }
        }
    }

    /// Ends the accept loop (the descriptor stays open until the process ends, so that the loop never accepts on a reused one).
    deinit { shutdown(fd, Int32(SHUT_RDWR)) }
}
