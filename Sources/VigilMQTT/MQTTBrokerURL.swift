/// Where an ``MQTTPublisher`` connects: `mqtt://[user:password@]host[:port]` (plain TCP, port
/// 1883) or `mqtts://...` (TLS, port 8883).
public struct MQTTBrokerURL: Sendable, Hashable, CustomStringConvertible {
    /// Host name or address (IPv6 without brackets).
    public var host: String
    /// TCP port.
    public var port: Int
    /// Whether the connection uses TLS (`mqtts://`).
    public var usesTLS: Bool
    /// User name, if any.
    public var username: String?
    /// Password, if any.
    public var password: String?

    /// Creates a broker address.
    public init(host: String, port: Int, usesTLS: Bool = false, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.username = username
        self.password = password
    }

    /// Parses `text`; user and password may be percent-encoded.
    public init(parsing text: String) throws(MQTTError) {
        func bad(_ reason: String) -> MQTTError { MQTTError(.invalidURL, broker: Self.redacted(text), reason: reason) }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("mqtt://") {
            usesTLS = false
            rest = text.dropFirst(7)
        } else if lower.hasPrefix("mqtts://") {
            usesTLS = true
            rest = text.dropFirst(8)
        } else {
            throw bad("expected mqtt://[user:password@]host[:port] or mqtts://...")
        }
        var authority = rest
        if let slash = authority.firstIndex(of: "/") {
            guard authority[slash...].allSatisfy({ $0 == "/" }) else { throw bad("a broker URL has no path") }
            authority = authority[..<slash]
        }
        username = nil
        password = nil
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                username = try Self.percentDecoded(userInfo[..<colon], bad)
                password = try Self.percentDecoded(userInfo[userInfo.index(after: colon)...], bad)
            } else {
                username = try Self.percentDecoded(userInfo, bad)
            }
            if username?.isEmpty == true { throw bad("empty user name") }
        }
        var hostPart = authority
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw bad("unclosed [ in the host") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw bad("unexpected text after the host") }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw bad("no host") }
        host = String(hostPart)
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { throw bad("port \"\(portText)\" is not in 1...65535") }
            port = value
        } else {
            port = usesTLS ? 8883 : 1883
        }
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var text = usesTLS ? "mqtts://" : "mqtt://"
        if let username {
            text += username
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        return text + ":\(port)"
    }

    /// `text` with a URL password replaced by `***` (for messages about URLs that did not parse).
    public static func redacted(_ text: String) -> String {
        guard let separator = text.firstRange(of: "://"), let at = text[separator.upperBound...].lastIndex(of: "@") else { return text }
        let userInfo = text[separator.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }

    private static func percentDecoded(_ text: Substring, _ bad: (String) -> MQTTError) throws(MQTTError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { throw bad("bad percent escape in the user information") }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
