import VigilFrameIO
import VigilImaging

/// Mono Float32 PCM from the audio stream, starting at ``time`` on the media timeline.
public struct MediaAudioChunk: Sendable, Hashable {
    /// Seconds from the start of the media to the first sample.
    public var time: Double
    /// Samples per second.
    public var sampleRate: Int
    /// Mono samples, nominally in -1...1.
    public var samples: [Float]

    /// Creates a chunk.
    public init(time: Double, sampleRate: Int, samples: [Float]) {
        self.time = time
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// Seconds covered by the samples.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
    /// The media time just after the last sample.
    public var endTime: Double { time + duration }
}

/// The luma plane (Y of Y'CbCr, 8 bits, as coded) of one video frame at an analysis time.
public struct MediaLumaFrame: Sendable, Hashable {
    /// 0-based count of frames handed over (analysis frames, not source frames).
    public var index: Int
    /// Seconds from the start of the media, from the frame's own timestamp.
    public var time: Double
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height` luma samples, row by row.
    public var luma: [UInt8]

    /// Creates a frame.
    public init(index: Int, time: Double, width: Int, height: Int, luma: [UInt8]) {
        self.index = index
        self.time = time
        self.width = width
        self.height = height
        self.luma = luma
    }

    /// The frame as the frame readers' type: a gray raster picture.
    public var videoFrame: VideoFrame {
        VideoFrame(index: index, time: time, picture: .raster(RasterImage(width: width, height: height, format: .gray, pixels: luma)))
    }
}

/// One item of a media timeline: audio samples or a video frame.
public enum MediaChunk: Sendable, Hashable {
    /// PCM samples.
    case audio(MediaAudioChunk)
    /// A luma frame.
    case video(MediaLumaFrame)

    /// The item's start on the media timeline.
    public var time: Double {
        switch self {
        case .audio(let chunk): return chunk.time
        case .video(let frame): return frame.time
        }
    }
}

/// A pull-based source of media chunks (a container reader, a reconnecting stream reader).
public protocol MediaChunkSource: AnyObject {
    /// The input name used in messages.
    var inputName: String { get }
    /// The next chunk in read order, or `nil` at the end of the input.
    func nextChunk() throws(MediaReadError) -> MediaChunk?
}
