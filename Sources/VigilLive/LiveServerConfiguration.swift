import Foundation
import VigilControl

/// Where and how the live HTTP server listens, and the limits it enforces on clients.
/// Defaults and the `vigil live` options that set them are listed in docs/RELIABILITY.md.
public struct LiveServerConfiguration: Sendable, Hashable {
    /// The default port.
    public static let defaultPort = 8787
    /// The default body limit (64 KiB).
    public static let defaultMaxBodySize = 64 * 1024
    /// The default nesting limit of a control body.
    public static let defaultMaxBodyDepth = ControlRequestDecoder.defaultMaxDepth
    /// The default time a client has to send a request head, and a control body (30 s).
    public static let defaultRequestTimeout: Duration = .seconds(30)
    /// The default time a keep-alive connection may sit idle between requests (60 s).
    public static let defaultIdleTimeout: Duration = .seconds(60)
    /// The default number of concurrent event-stream clients (SSE and WebSocket).
    public static let defaultMaxStreamClients = 256

    /// Host name or address to bind (default loopback).
    public var host: String
    /// Port (0: any free port).
    public var port: Int
    /// The bearer token mutating endpoints require, when set. Required on non-loopback addresses.
    public var token: String?
    /// Largest accepted request body, in bytes (larger: 413).
    public var maxBodySize: Int
    /// Deepest accepted nesting of a control body's JSON (deeper: 400).
    public var maxBodyDepth: Int
    /// A connection whose first request head is not complete within this time is closed
    /// (slowloris); a control body not complete within it gets 408.
    public var requestTimeout: Duration
    /// A connection with no request in progress for this long is closed (event streams in
    /// progress are not idle).
    public var idleTimeout: Duration
    /// Most concurrent event-stream clients; more get 503.
    public var maxStreamClients: Int

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = LiveServerConfiguration.defaultPort, token: String? = nil,
        maxBodySize: Int = LiveServerConfiguration.defaultMaxBodySize, maxBodyDepth: Int = LiveServerConfiguration.defaultMaxBodyDepth,
        requestTimeout: Duration = LiveServerConfiguration.defaultRequestTimeout,
        idleTimeout: Duration = LiveServerConfiguration.defaultIdleTimeout,
        maxStreamClients: Int = LiveServerConfiguration.defaultMaxStreamClients
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.maxBodySize = maxBodySize
        self.maxBodyDepth = maxBodyDepth
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxStreamClients = maxStreamClients
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

    /// A token file that cannot be used: names the file and the reason.
    public struct TokenFileError: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// Why it cannot be used.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The bearer token in the file at `path` (surrounding whitespace removed).
    /// - Throws: ``TokenFileError`` when the file cannot be read or holds no token.
    public static func token(fromFile path: String) throws(TokenFileError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenFileError(path: path, reason: "cannot read file") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw TokenFileError(path: path, reason: "the file is empty") }
        return text
    }
}
