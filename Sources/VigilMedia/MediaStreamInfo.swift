/// The audio stream a reader decodes.
public struct MediaAudioStreamInfo: Sendable, Hashable {
    /// The stream's index in the container.
    public var streamIndex: Int
    /// libavcodec's codec name ("aac", "opus", "flac", ...).
    public var codecName: String
    /// The stream's own sample rate.
    public var sourceSampleRate: Int
    /// The stream's channel count (mixed down to mono).
    public var sourceChannels: Int
    /// The sample rate of the chunks handed over.
    public var sampleRate: Int
}

/// The video stream a reader decodes.
public struct MediaVideoStreamInfo: Sendable, Hashable {
    /// The stream's index in the container.
    public var streamIndex: Int
    /// libavcodec's codec name ("h264", "hevc", "vp9", ...).
    public var codecName: String
    /// Coded width in pixels.
    public var width: Int
    /// Coded height in pixels.
    public var height: Int
    /// The container's average frame rate, when it states one.
    public var frameRate: Double?
}

/// Something the reader noticed but could work around (a stream it cannot decode while another
/// one is usable).
public struct MediaReaderWarning: Sendable, Hashable, CustomStringConvertible {
    /// The input.
    public var input: String
    /// What was skipped and why.
    public var message: String
    /// "cam.mkv: video stream 0 skipped: no decoder for codec none".
    public var description: String { "\(input): \(message)" }
}
