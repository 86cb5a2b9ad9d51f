import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking WebSocket client for tests: handshake, then read text messages
/// (server frames are unmasked) until a close frame or the end of the connection.
final class WebSocketTestClient: @unchecked Sendable {
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    init(port: Int, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw CocoaError(.fileReadUnknown) }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        // Response head.
        while true {
            if let end = find([13, 10, 13, 10]) {
                status = String(decoding: buffer[0..<end], as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
                buffer.removeFirst(end + 4)
                return
            }
            guard fill() else { throw CocoaError(.fileReadCorruptFile) }
        }
    }

    private(set) var status = ""

    deinit { if fd >= 0 { close(fd) } }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for i in 0...(buffer.count - pattern.count) where Array(buffer[i..<(i + pattern.count)]) == pattern { return i }
        return nil
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    private func need(_ count: Int) -> Bool {
        while buffer.count < count { if !fill() { return false } }
        return true
    }

    /// The next text message; nil on close or end of connection.
    func nextText() -> String? {
        while true {
            guard need(2) else { return nil }
            let opcode = buffer[0] & 0x0F
            var length = Int(buffer[1] & 0x7F)
            var header = 2
            if length == 126 {
                guard need(4) else { return nil }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                header = 4
            } else if length == 127 {
                guard need(10) else { return nil }
                length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
                header = 10
            }
            guard need(header + length) else { return nil }
            let payload = Array(buffer[header..<(header + length)])
            buffer.removeFirst(header + length)
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8: return nil
            default: continue  // ping, pong, binary: skip
            }
        }
    }
}
