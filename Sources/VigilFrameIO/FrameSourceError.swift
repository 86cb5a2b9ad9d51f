/// Why frames could not be read: the source (file, directory or "stdin"), an optional frame
/// index, and the reason.
public struct FrameSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad category, for error records.
    public enum Kind: String, Sendable, Hashable {
        /// The source cannot be opened or read.
        case unreadable
        /// The source holds no frames.
        case empty
        /// The header or a frame marker is malformed, or a format is not supported.
        case unsupportedFormat
        /// The stream ends inside a frame.
        case truncated
        /// A frame cannot be decoded (bad PNG, size change, limits).
        case decodeFailed
    }

    /// Category.
    public var kind: Kind
    /// The file, directory or "stdin".
    public var source: String
    /// The 0-based frame index, if the problem concerns one frame.
    public var frame: Int?
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(_ kind: Kind, source: String, frame: Int? = nil, reason: String) {
        self.kind = kind
        self.source = source
        self.frame = frame
        self.reason = reason
    }

    /// "clip.y4m: frame 12: truncated: expected 345600 bytes, got 1000".
    public var description: String {
        var text = source + ": "
        if let frame { text += "frame \(frame): " }
        return text + reason
    }
}
