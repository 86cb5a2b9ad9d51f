/// Why a PNG could not be decoded or encoded: the source (a file name, or "<memory>") and the
/// reason (libpng's message or a limit that was exceeded).
public struct PNGError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Operation: String, Sendable, Hashable {
        /// Reading a PNG.
        case decode
        /// Writing a PNG.
        case encode
    }

    /// What failed.
    public var operation: Operation
    /// The file (or "<memory>") the bytes came from or go to.
    public var source: String
    /// The reason.
    public var reason: String

    /// Creates an error.
    public init(_ operation: Operation, source: String, reason: String) {
        self.operation = operation
        self.source = source
        self.reason = reason
    }

    /// "frames/0001.png: cannot decode PNG: Not a PNG file".
    public var description: String { "\(source): cannot \(operation.rawValue) PNG: \(reason)" }
}
