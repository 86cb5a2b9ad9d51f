import VigilFrameIO
import VigilImaging

/// Video for an analysis run: a ``FrameSource`` (frames in nondecreasing media time) that a
/// live run can pace and rewind. Implementations: ``Y4MVideoSource`` (a y4m file or stdin),
/// ``MediaContainerSource`` (containers, through FFmpeg's libraries) and ``FrameListSource``
/// (frames in memory); a PNG sequence (``PNGSequenceReader``) is a plain ``FrameSource``.
public protocol VideoSource: MediaSource, FrameSource {
    /// Starts again from the first frame (for `--loop`); returns `false` when the source cannot.
    func rewind() throws -> Bool
}

/// A YUV4MPEG2 stream read frame by frame (``Y4MReader``): a file, paced by the frames' media
/// time, or stdin (`-`), processed as frames arrive. Memory: one frame and the read buffer.
public final class Y4MVideoSource: VideoSource {
    /// The path given (`-` for stdin).
    public let path: String
    /// `stdin` for `-`, else the path.
    public let name: String
    /// Size limits for a frame.
    public let limits: ImageLimits
    private var reader: Y4MReader<FileDescriptorReader>

    /// Opens `path` ("-": standard input) and reads the y4m header; records carry `name`
    /// (default: the path, `stdin` for "-").
    /// - Throws: ``FrameSourceError`` naming the source (unreadable, empty, bad header, a frame
    ///   above `limits`).
    public init(path: String, name: String? = nil, limits: ImageLimits = .default) throws {
        self.path = path
        self.limits = limits
        self.name = name ?? (path == "-" ? "stdin" : path)
        reader = try Self.open(path, name: self.name, limits: limits)
    }

    /// The stream header (size, frame rate).
    public var header: Y4MHeader { reader.header }

    /// Stdin streams are processed as they arrive.
    public var pacedByArrival: Bool { path == "-" }

    /// The next frame, or `nil` at a clean end of stream.
    public func nextFrame() throws(FrameSourceError) -> VideoFrame? { try reader.nextFrame() }

    /// Reopens the file (stdin cannot be rewound).
    public func rewind() throws -> Bool {
        guard path != "-" else { return false }
        reader = try Self.open(path, name: name, limits: limits)
        return true
    }

    private static func open(_ path: String, name: String, limits: ImageLimits) throws -> Y4MReader<FileDescriptorReader> {
        // Small reads: a pipe delivers each frame as soon as it is written.
        try Y4MReader(source: try FileDescriptorReader(path: path), name: name, limits: limits, readSize: 64 * 1024)
    }
}

/// Frames held in memory (tests, short clips), paced by their media time.
public final class FrameListSource: VideoSource {
    /// The frames.
    public let frames: [VideoFrame]
    /// The source name.
    public let name: String
    /// Paced by the media clock.
    public var pacedByArrival: Bool { false }
    private var position = 0

    /// Creates a source over `frames`.
    public init(frames: [VideoFrame], name: String = "frames") {
        self.frames = frames
        self.name = name
    }

    /// The next frame.
    public func nextFrame() -> VideoFrame? {
        guard position < frames.count else { return nil }
        defer { position += 1 }
        return frames[position]
    }

    /// Starts again.
    public func rewind() throws -> Bool {
        position = 0
        return true
    }
}

extension VideoSource {
    /// The name used in messages: the source's ``MediaSource/name``.
    public var sourceName: String { name }
}
