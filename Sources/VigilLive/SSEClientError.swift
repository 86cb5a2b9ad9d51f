/// Why an ``SSEClient`` failed: what it was doing and the system's or server's answer.
public struct SSEClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed, e.g. "connect".
    public var operation: String
    /// Details (errno text or the HTTP status line).
    public var reason: String

    /// Creates an error.
    public init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// "connect: Connection refused".
    public var description: String { "\(operation): \(reason)" }
}
