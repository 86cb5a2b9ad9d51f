import VigilImaging

/// One decoded video frame with its media time.
public struct VideoFrame: Sendable {
    /// 0-based position in the source.
    public var index: Int
    /// Media time in seconds.
    public var time: Double
    /// The picture.
    public var picture: FramePicture

    /// Creates a frame.
    public init(index: Int, time: Double, picture: FramePicture) {
        self.index = index
        self.time = time
        self.picture = picture
    }
}
