#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking Server-Sent Events client over a plain TCP socket (HTTP/1.1, chunked or
/// identity body), for measuring delivery latency and for tests. Use it from a dedicated
/// thread: ``next()`` blocks. Not thread-safe: use one instance from one thread at a time.
public final class SSEClient: @unchecked Sendable {
    /// One received message.
    public struct Message: Sendable, Hashable {
        /// The `id:` field.
        public var id: UInt64?
        /// The `event:` field (`message` when absent).
        public var event: String
        /// The `data:` lines joined with newlines.
        public var data: String
        /// ``LiveClock/now()`` when the message was complete.
        public var receivedAt: Double
    }

    /// The HTTP status of the response (after ``connect()``).
    public private(set) var status = 0
    private let host: String
    private let port: Int
    private let path: String
    private let headers: [(String, String)]
    private let responseTimeout: Double?
    private let streamTimeout: Double?
    private var fd: Int32 = -1
    private var raw: [UInt8] = []
    private var rawStart = 0
    private var chunked = false
    private var chunkRemaining = 0
    private var bodyEnded = false
    private var text: [UInt8] = []
    private var receiveTimeout = 0.0

    /// Creates a client for `http://host:port/path` (IPv4 address or `localhost`).
    ///
    /// `responseTimeout` bounds the wait for the response head in ``connect(receiveBufferSize:)``
    /// (a server that accepts but never answers gives an error instead of a thread blocked
    /// forever); `streamTimeout` bounds each wait for more of the stream in ``next()`` (`nil`:
    /// wait as long as the server keeps the connection open; a live server sends a keep-alive
    /// every 15 s while it streams). Both in seconds.
    public init(
        host: String = "127.0.0.1", port: Int, path: String = "/events", headers: [(String, String)] = [],
        responseTimeout: Double? = 30, streamTimeout: Double? = nil
    ) {
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        self.path = path
        self.headers = headers
        self.responseTimeout = responseTimeout
        self.streamTimeout = streamTimeout
    }

    deinit { close() }

    /// Connects, sends the request and reads the response head. Throws unless the status is 200.
    public func connect(receiveBufferSize: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SSEClientError(operation: "socket", reason: String(cString: strerror(errno))) }
        if var size = receiveBufferSize.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SSEClientError(operation: "address", reason: "not an IPv4 address: \(host)")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw SSEClientError(operation: "connect", reason: String(cString: strerror(errno))) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        setReceiveTimeout(responseTimeout)
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw SSEClientError(operation: "send", reason: String(cString: strerror(errno))) }
            sent += n
        }
        // Response head.
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: raw[rawStart..<end], as: UTF8.self)
                rawStart = end + 4
                let lines = head.split(separator: "\r\n")
                let statusParts = lines.first?.split(separator: " ") ?? []
                status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
                chunked = lines.dropFirst().contains {
                    $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked")
                }
                guard status == 200 else { throw SSEClientError(operation: "response", reason: String(lines.first ?? "")) }
                setReceiveTimeout(streamTimeout)
                return
            }
            guard try fill() else { throw SSEClientError(operation: "response", reason: "connection closed before the response head") }
        }
    }

    /// The next message; `nil` when the stream ends.
    public func next() throws -> Message? {
        while true {
            if let message = takeMessage() { return message }
            if bodyEnded { return nil }
            guard try decodeBody() else {
                bodyEnded = true
                continue
            }
        }
    }

    /// Closes the connection.
    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: Private

    private func find(_ pattern: [UInt8], from: Int? = nil) -> Int? {
        let start = from ?? rawStart
        guard raw.count - start >= pattern.count else { return nil }
        var i = start
        while i <= raw.count - pattern.count {
            if raw[i] == pattern[0] && Array(raw[i..<(i + pattern.count)]) == pattern { return i }
            i += 1
        }
        return nil
    }

    /// Sets how long one `recv` may wait (`SO_RCVTIMEO`; `nil` or 0: forever).
    private func setReceiveTimeout(_ seconds: Double?) {
        let wait = max(seconds ?? 0, 0)
        var value = timeval(tv_sec: Int(wait), tv_usec: Int((wait - wait.rounded(.down)) * 1_000_000))
        if wait > 0 && value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        receiveTimeout = wait
    }

    /// Reads more bytes from the socket; false at end of stream.
    private func fill() throws -> Bool {
        if rawStart > 65536 {
            raw.removeFirst(rawStart)
            rawStart = 0
        }
        var buffer = [UInt8](repeating: 0, count: 16384)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw SSEClientError(operation: "recv", reason: "nothing received within \(receiveTimeout) s")
            }
            throw SSEClientError(operation: "recv", reason: String(cString: strerror(errno)))
        }
        if n == 0 { return false }
        raw += buffer[0..<n]
        return true
    }

    /// Moves body bytes into `text`; false when the body has ended.
    private func decodeBody() throws -> Bool {
        if !chunked {
            if rawStart < raw.count {
                text += raw[rawStart...]
                rawStart = raw.count
                return true
            }
            return try fill()
        }
        while true {
            if chunkRemaining > 0 {
                if rawStart < raw.count {
                    let n = min(chunkRemaining, raw.count - rawStart)
                    text += raw[rawStart..<(rawStart + n)]
                    rawStart += n
                    chunkRemaining -= n
                    if chunkRemaining == 0 { chunkRemaining = -2 }  // CRLF follows
                    return true
                }
            } else if chunkRemaining == -2 {
                if raw.count - rawStart >= 2 {
                    rawStart += 2
                    chunkRemaining = 0
                    continue
                }
            } else if let lineEnd = find([13, 10]) {
                let line = String(decoding: raw[rawStart..<lineEnd], as: UTF8.self)
                rawStart = lineEnd + 2
                let size = Int(line.split(separator: ";").first.map(String.init) ?? "", radix: 16) ?? 0
                if size == 0 { return false }
                chunkRemaining = size
                continue
            }
            guard try fill() else { return false }
        }
    }

    private func takeMessage() -> Message? {
        // A message ends with a blank line.
        var i = 0
        while i + 1 < text.count {
            if text[i] == 10 && text[i + 1] == 10 {
                let block = String(decoding: text[0..<i], as: UTF8.self)
                text.removeFirst(i + 2)
                var id: UInt64?
                var event = "message"
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { continue }
                    if line.hasPrefix("id: ") {
                        id = UInt64(line.dropFirst(4))
                    } else if line.hasPrefix("event: ") {
                        event = String(line.dropFirst(7))
                    } else if line.hasPrefix("data: ") {
                        data.append(String(line.dropFirst(6)))
                    }
                }
                if data.isEmpty && id == nil {
                    i = 0
                    continue  // a comment
                }
                return Message(id: id, event: event, data: data.joined(separator: "\n"), receivedAt: LiveClock.now())
            }
            i += 1
        }
        return nil
    }
}
