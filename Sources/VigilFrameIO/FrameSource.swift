/// A sequence of frames read one at a time (bounded memory: one frame at a time).
public protocol FrameSource {
    /// The name used in messages (file, directory or "stdin").
    var sourceName: String { get }
    /// The next frame, or `nil` at the end.
    mutating func nextFrame() throws(FrameSourceError) -> VideoFrame?
}
