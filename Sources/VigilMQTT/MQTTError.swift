/// Why an MQTT connection or publication failed: the broker (URL without password), the kind of
/// failure and the reason (libmosquitto's text where it has one).
public struct MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad category.
    public enum Kind: String, Sendable, Hashable {
        /// The broker URL does not parse.
        case invalidURL
        /// A TLS file (CA certificate) cannot be used.
        case tls
        /// The broker cannot be reached (refused, unresolvable host, timeout).
        case unreachable
        /// The broker refused the user name or password, or the client is not authorised.
        case notAuthorized
        /// The broker refused the connection for another reason (protocol version, identifier).
        case refused
        /// A topic or payload is not valid MQTT.
        case invalidMessage
        /// libmosquitto failed otherwise.
        case library
    }

    /// Category.
    public var kind: Kind
    /// The broker as named in messages (password removed).
    public var broker: String
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(_ kind: Kind, broker: String, reason: String) {
        self.kind = kind
        self.broker = broker
        self.reason = reason
    }

    /// "mqtt://vigil:***@127.0.0.1:1883: the broker refused the user name or password".
    public var description: String { "\(broker): \(reason)" }
}
