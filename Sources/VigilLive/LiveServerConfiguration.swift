/// Where and how the live HTTP server listens.
public struct LiveServerConfiguration: Sendable, Hashable {
    /// The default port.
    public static let defaultPort = 8787
    /// The default body limit (64 KiB).
    public static let defaultMaxBodySize = 64 * 1024

    /// Host name or address to bind (default loopback).
    public var host: String
    /// Port (0: any free port).
    public var port: Int
    /// The bearer token mutating endpoints require, when set. Required on non-loopback addresses.
    public var token: String?
    /// Largest accepted request body, in bytes (larger: 413).
    public var maxBodySize: Int

    /// Creates a configuration.
    public init(host: String = "127.0.0.1", port: Int = LiveServerConfiguration.defaultPort, token: String? = nil, maxBodySize: Int = LiveServerConfiguration.defaultMaxBodySize) {
        self.host = host
        self.port = port
        self.token = token
        self.maxBodySize = maxBodySize
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` names a loopback address.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.")
    }

    /// Parses `HOST:PORT`, `:PORT`, `PORT` or `[V6]:PORT`; `nil` when malformed.
    public static func parseListen(_ text: String) -> (host: String, port: Int)? {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = String(rest.dropFirst())
        } else if let colon = text.lastIndex(of: ":") {
            let h = String(text[..<colon])
            if !h.isEmpty { host = h }
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else { return nil }
        return (host, port)
    }

    /// Whether `header` (an `Authorization` value) carries the configured token, compared in
    /// constant time. Always true when no token is configured.
    public func authorizes(_ header: String?) -> Bool {
        guard let token else { return true }
        guard let header, header.hasPrefix("Bearer ") else { return false }
        return Self.constantTimeEqual(Array(header.utf8.dropFirst(7)), Array(token.utf8))
    }

    /// Compares two byte strings in time that depends only on their lengths.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference: UInt8 = a.count == b.count ? 0 : 1
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
