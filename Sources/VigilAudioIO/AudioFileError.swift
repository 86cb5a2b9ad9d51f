/// Why an audio file could not be (fully) read. Always names the file.
public struct AudioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in categories a caller can act on.
    public enum Kind: String, Sendable, Hashable {
        /// The file does not exist or cannot be opened.
        case unreadable
        /// The file is empty (zero bytes).
        case empty
        /// The content is not an audio format libsndfile recognises.
        case unsupportedFormat
        /// The sample rate is outside 8...192 kHz.
        case unsupportedSampleRate
        /// The channel count is 0 or above the limit.
        case unsupportedChannelCount
        /// The recording is longer than ``InputLimits/maxAudioDuration``.
        case tooLong
        /// The file ends before the length its header declares.
        case truncated
        /// A decoding error in the middle of the stream.
        case decodeFailed
    }

    /// The file's path as given.
    public let path: String
    /// The category.
    public let kind: Kind
    /// A human-readable reason.
    public let reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
