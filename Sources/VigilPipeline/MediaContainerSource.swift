import VigilCore
import VigilFrameIO
import VigilMedia

/// A camera recording in a container (MP4, MKV, MOV, WebM, MPEG-TS, or any audio format libav
/// reads) through FFmpeg's libraries (``MediaContainerReader``), on one media timeline:
///
/// - as a ``FrameSource`` it hands over the luma frames at the analysis frame rate, and passes
///   the audio read on the way to ``onAudio`` (so one pass over the file feeds both analyses);
/// - as an ``AudioSource`` (audio-only files, `--no-video`) it hands over the audio alone.
///
/// The audio handed over is continuous from media time 0: silence fills a gap in the audio
/// timestamps (an audio stream that starts after the video, packets lost) and samples that
/// overlap ones already handed over are dropped, so a sound at media time t lies t seconds into
/// the samples, as with a WAV file cut from the same recording.
public final class MediaContainerSource: VideoSource, AudioSource {
    /// The file or URL as given.
    public let path: String
    /// The options it was opened with.
    public let options: MediaReaderOptions
    /// The reader (stream information, duration, warnings).
    public private(set) var reader: MediaContainerReader
    /// Receives the audio met while frames are read, in order, continuous from media time 0.
    public var onAudio: ((UnsafeBufferPointer<Float>) -> Void)?
    private var timeline = AudioTimeline()
    /// Audio read but not yet handed to ``read(into:)``.
    private var leftover: [Float] = []
    private var leftoverHead = 0

    /// Opens `path` with `options`.
    /// - Throws: ``MediaReadError`` naming the input and the reason.
    public init(path: String, options: MediaReaderOptions) throws(MediaReadError) {
        self.path = path
        self.options = options
        reader = try MediaContainerReader(input: path, options: options)
    }

    /// The name in messages and records.
    public var sourceName: String { path }
    /// The name records carry.
    public var name: String { path }
    /// Read as fast as the run asks (files).
    public var pacedByArrival: Bool { false }
    /// The audio stream's sample rate (0 without audio).
    public var sampleRate: Double { Double(reader.audio?.sampleRate ?? 0) }
    /// Whether a video stream is decoded.
    public var hasVideo: Bool { reader.video != nil }
    /// Whether an audio stream is decoded.
    public var hasAudio: Bool { reader.audio != nil }

    /// The next analysis frame; audio read on the way goes to ``onAudio``.
    public func nextFrame() throws(FrameSourceError) -> VideoFrame? {
        while true {
            let chunk: MediaChunk?
            do {
                chunk = try reader.nextChunk()
            } catch {
                throw FrameSourceError(Self.frameErrorKind(error.kind), source: path, reason: error.reason)
            }
            switch chunk {
            case nil: return nil
            case .video(let frame): return frame.videoFrame
            case .audio(let audio):
                guard let onAudio else { continue }
                timeline.place(audio) { onAudio($0) }
            }
        }
    }

    /// Reads the next audio samples (video is skipped).
    /// - Throws: ``MediaReadError``.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        while leftoverHead == leftover.count {
            leftover.removeAll(keepingCapacity: true)
            leftoverHead = 0
            guard let chunk = try reader.nextChunk() else { return 0 }
            guard case .audio(let audio) = chunk else { continue }
            timeline.place(audio) { leftover.append(contentsOf: $0) }
        }
        let count = min(buffer.count, leftover.count - leftoverHead)
        leftover.withUnsafeBufferPointer { all in
            _ = buffer.initialize(from: all[leftoverHead..<(leftoverHead + count)])
        }
        leftoverHead += count
        return count
    }

    /// Opens the file again from the start.
    public func rewind() throws -> Bool {
        reader = try MediaContainerReader(input: path, options: options)
        timeline = AudioTimeline()
        (leftover, leftoverHead) = ([], 0)
        return true
    }

    private static func frameErrorKind(_ kind: MediaReadError.Kind) -> FrameSourceError.Kind {
        switch kind {
        case .invalidData, .noStreams, .unsupportedCodec, .invalidOptions: .unsupportedFormat
        case .readFailed: .truncated
        case .decodeFailed: .decodeFailed
        case .unreadable, .timedOut, .cancelled: .unreadable
        }
    }
}

/// Places audio chunks on a continuous timeline from media time 0: zeros for a gap, overlapping
/// samples dropped. A jump of less than half a millisecond is taken as timestamp rounding.
struct AudioTimeline {
    /// Samples handed over so far.
    private(set) var samplesHanded = 0
    private var zeros: [Float] = []

    /// Hands `chunk`'s samples, preceded by silence where its time lies after the samples so far
    /// and without the ones that lie before, to `emit` (one or two calls).
    mutating func place(_ chunk: MediaAudioChunk, emit: (UnsafeBufferPointer<Float>) -> Void) {
        let rate = Double(chunk.sampleRate)
        let start = Int((chunk.time * rate).rounded())
        let tolerance = max(1, Int(rate / 2000))
        var skip = 0
        if start > samplesHanded + tolerance {
            var gap = start - samplesHanded
            while gap > 0 {
                let n = min(gap, 65_536)
                if zeros.count < n { zeros = [Float](repeating: 0, count: n) }
                zeros.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                samplesHanded += n
                gap -= n
            }
        } else if start < samplesHanded - tolerance {
            skip = min(samplesHanded - start, chunk.samples.count)
        }
        guard skip < chunk.samples.count else { return }
        chunk.samples.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[skip...])) }
        samplesHanded += chunk.samples.count - skip
    }
}
