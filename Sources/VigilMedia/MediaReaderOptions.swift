/// What a ``MediaContainerReader`` decodes and how.
public struct MediaReaderOptions: Sendable, Hashable {
    /// Decode the best audio stream (mono Float32 PCM).
    public var readsAudio: Bool
    /// Decode the best video stream (luma plane).
    public var readsVideo: Bool
    /// The audio sample rate handed over; `nil` keeps the stream's own rate.
    public var audioSampleRate: Int?
    /// Video frames handed over per second of media time; `nil` hands over every decoded frame.
    public var analysisFPS: Double?
    /// Let the decoder skip frames that no other frame references (`AVDISCARD_NONREF`, typically
    /// B-frames) when the stream's frame rate is at least twice ``analysisFPS``: faster, but a
    /// skipped frame that falls on an analysis time is replaced by the next decoded one (as many
    /// source frames later as there are non-reference frames in a row, always with its own
    /// timestamp). Off by default: frames then come exactly at the analysis times.
    public var skipsNonReferenceFrames: Bool
    /// Decoder threads per stream (1: one core; 0: libavcodec chooses).
    public var decoderThreads: Int
    /// Seconds that opening a network input may take before it fails with ``MediaReadError/Kind/timedOut``.
    public var openTimeout: Double
    /// Seconds that one packet read from a network input may take before it fails.
    public var readTimeout: Double
    /// Extra libavformat options (`rtsp_transport=tcp`, ...), passed as given.
    public var formatOptions: [String: String]

    /// Creates options.
    public init(
        readsAudio: Bool = true, readsVideo: Bool = true, audioSampleRate: Int? = nil, analysisFPS: Double? = 5,
        skipsNonReferenceFrames: Bool = false, decoderThreads: Int = 1, openTimeout: Double = 10, readTimeout: Double = 10,
        formatOptions: [String: String] = [:]
    ) {
        self.readsAudio = readsAudio
        self.readsVideo = readsVideo
        self.audioSampleRate = audioSampleRate
        self.analysisFPS = analysisFPS
        self.skipsNonReferenceFrames = skipsNonReferenceFrames
        self.decoderThreads = decoderThreads
        self.openTimeout = openTimeout
        self.readTimeout = readTimeout
        self.formatOptions = formatOptions
    }

    /// The first problem with these options, or `nil`.
    public var problem: String? {
        if !readsAudio && !readsVideo { return "neither audio nor video is to be read" }
        if let rate = audioSampleRate, !(1...768_000).contains(rate) { return "audio sample rate \(rate) Hz is out of range 1...768000" }
        if let fps = analysisFPS, !(fps.isFinite && fps > 0 && fps <= 1000) {
            return "analysis frame rate \(fps) is out of range (0, 1000]"
        }
        if decoderThreads < 0 || decoderThreads > 64 { return "decoder threads \(decoderThreads) is out of range 0...64" }
        if !(openTimeout.isFinite && openTimeout > 0) || !(readTimeout.isFinite && readTimeout > 0) { return "timeouts must be positive" }
        return nil
    }
}
