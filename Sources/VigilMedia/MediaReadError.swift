/// Why a media container or stream could not be opened or read: the input (its URL with any
/// password removed), the kind of failure and the reason (libav's own text where it has one).
public struct MediaReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad category, for error records and for deciding whether a reconnect can help.
    public enum Kind: String, Sendable, Hashable {
        /// The input cannot be opened: missing file, refused connection, unknown protocol.
        case unreadable
        /// The bytes are not a container libavformat recognises, or its header is damaged.
        case invalidData
        /// The input has no audio or video stream that was asked for.
        case noStreams
        /// A stream's codec has no decoder in this build of libavcodec.
        case unsupportedCodec
        /// A packet could not be read (truncated file, broken stream).
        case readFailed
        /// A packet or frame could not be decoded or converted.
        case decodeFailed
        /// Opening or reading took longer than the configured timeout.
        case timedOut
        /// The read was cancelled by ``MediaContainerReader/cancel()``.
        case cancelled
        /// The options are out of range.
        case invalidOptions
    }

    /// Category.
    public var kind: Kind
    /// The input as given, with a URL password replaced by `***`.
    public var input: String
    /// What went wrong.
    public var reason: String
    /// libav's error code (negative `AVERROR`), when the failure came from libav.
    public var code: Int32?

    /// Creates an error.
    public init(_ kind: Kind, input: String, reason: String, code: Int32? = nil) {
        self.kind = kind
        self.input = input
        self.reason = reason
        self.code = code
    }

    /// Whether reconnecting to the same input can help (network and read failures, timeouts),
    /// as opposed to input that will stay wrong (no streams, unsupported codec, bad options).
    public var isTransient: Bool {
        switch kind {
        case .unreadable, .readFailed, .timedOut, .invalidData, .decodeFailed: return true
        case .noStreams, .unsupportedCodec, .invalidOptions, .cancelled: return false
        }
    }

    /// "clip.mp4: cannot read a packet: Invalid data found when processing input".
    public var description: String { "\(input): \(reason)" }
}
