/// Something in a device file that was ignored, such as an unknown key. Never makes a file invalid.
public struct DeviceFileWarning: Sendable, Hashable, CustomStringConvertible {
    /// JSON path of the ignored value.
    public var path: String
    /// Why it was ignored, e.g. "unknown key, ignored".
    public var message: String

    /// Creates a warning.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "path: message".
    public var description: String { "\(path): \(message)" }
}
