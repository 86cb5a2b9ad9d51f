import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the server for requests `TestHTTPClient` will not send:
/// garbage bytes, dripped headers (slowloris), lying Content-Length, huge header blocks.
/// Blocking; use it off the concurrency pool.
final class RawHTTPConnection: @unchecked Sendable {
    private var fd: Int32

    /// Connects to 127.0.0.1:`port`; reads time out after `timeout` seconds.
    init(port: Int, timeout: Double = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.failed("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw RawHTTPError.failed("connect: \(String(cString: strerror(errno)))")
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends `bytes`; false when the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes, `limit` bytes arrived, or the read timeout passes.
    /// Returns the bytes and whether the connection ended (closed or reset).
    func readAll(limit: Int = 1 << 20) -> (text: String, closed: Bool) {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (String(decoding: out, as: UTF8.self), true) }
            if n < 0 { return (String(decoding: out, as: UTF8.self), errno == ECONNRESET) }
            out += chunk[0..<n]
        }
        return (String(decoding: out, as: UTF8.self), false)
    }

    /// Reads one HTTP response head and the body its Content-Length gives; `nil` when the
    /// connection ends first.
    func readResponse() -> (status: Int, body: String)? {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: out, as: UTF8.self)
            if let range = text.range(of: "\r\n\r\n") {
                let head = String(text[..<range.lowerBound])
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let body = text[range.upperBound...]
                if body.utf8.count >= length { return (status, String(body)) }
            }
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            out += chunk[0..<n]
        }
    }
}

enum RawHTTPError: Error {
    case failed(String)
}

/// The resident set size of this process in bytes (Linux /proc), 0 when unknown.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0) * 1024
}
