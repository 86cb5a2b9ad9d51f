/// Keeps one monotonic media timeline across the segments of a reconnecting stream. Each
/// connection starts its own timestamps (usually near 0); the first chunk of a new segment is
/// placed where the previous segment's media ended (the latest end of audio or video seen), and
/// every later chunk of that segment keeps its distance to it. Audio and video of one segment share
/// one offset, so they stay in step. Pure.
public struct StreamTimeline: Sendable, Hashable {
    /// Seconds added to the current segment's own timestamps.
    public private(set) var offset: Double = 0
    /// The latest end of media (on the output timeline) seen so far.
    public private(set) var end: Double = 0
    /// Segments started (1 after the first chunk).
    public private(set) var segments = 0
    private var awaitingFirstChunk = true
    private var lastAudioEnd: Double?
    private var lastVideoTime: Double?

    /// Creates a timeline that starts at media time 0.
    public init() {}

    /// Marks a reconnect: the next chunk starts a new segment.
    public mutating func beginSegment() { awaitingFirstChunk = true }

    /// The chunk placed on the output timeline. `frameDuration` is the span a video frame stands
    /// for (1 / analysis fps), used only to end a segment that ends in video.
    public mutating func place(_ chunk: MediaChunk, frameDuration: Double) -> MediaChunk {
        if awaitingFirstChunk {
            awaitingFirstChunk = false
            segments += 1
            offset = segments == 1 ? 0 : end - chunk.time
        }
        switch chunk {
        case .audio(var audio):
            audio.time += offset
            if let last = lastAudioEnd, audio.time < last { audio.time = last }
            lastAudioEnd = audio.endTime
            end = max(end, audio.endTime)
            return .audio(audio)
        case .video(var frame):
            frame.time += offset
            if let last = lastVideoTime, frame.time <= last { frame.time = last + frameDuration }
            lastVideoTime = frame.time
            end = max(end, frame.time + frameDuration)
            return .video(frame)
        }
    }
}
