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
/// The audio handed over is continuous from media time 0 (``AudioTimeline``): comfort noise fills
/// a gap in the audio timestamps (an audio stream that starts after the video, packets lost) and
/// samples that overlap ones already handed over are dropped, so a sound at media time t lies t
/// seconds into the samples, as with a WAV file cut from the same recording.
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

/// Places audio chunks on a continuous timeline from media time 0, for the sound detectors: a gap
/// in the timestamps (audio that starts after the video, lost packets, a stream's reconnect) is
/// filled with noise at the background level, and samples that lie before those already handed
/// over are dropped. A jump of less than half a millisecond is taken as timestamp rounding.
///
/// The filler is comfort noise, not digital silence: silence pulls the sound detector's noise
/// floor down, and the room's background would then count as one sound for many seconds. Its
/// level is the RMS of the quietest 10 ms block of the last whole second handed over (of the
/// audio so far before the first second is complete; of the chunk after the gap before any audio);
/// its samples come from a fixed seed, so runs repeat exactly.
package struct AudioTimeline {
    /// Samples handed over so far.
    package private(set) var samplesHanded = 0
    private var generator = SplitMix64(seed: 0x5649_4749_4C)
    private var noise: [Float] = []
    /// The background level (the last whole second's quietest block RMS), and the quietest block
    /// RMS and length of the current second.
    private var backgroundRMS: Float?
    private var windowQuietest = Float.infinity
    private var windowSamples = 0

    /// A timeline starting at media time 0.
    package init() {}

    /// Hands `chunk`'s samples, preceded by comfort noise where its time lies after the samples
    /// so far and without the ones that lie before, to `emit` (one call, or more for a gap).
    package mutating func place(_ chunk: MediaAudioChunk, emit: (UnsafeBufferPointer<Float>) -> Void) {
        let rate = Double(chunk.sampleRate)
        let start = Int((chunk.time * rate).rounded())
        let tolerance = max(1, Int(rate / 2000))
        let block = max(1, Int(rate / 100))
        var skip = 0
        if start > samplesHanded + tolerance {
            let level =
                backgroundRMS ?? (windowQuietest.isFinite ? windowQuietest : Self.quietestBlockRMS(chunk.samples[...], block: block))
            var gap = start - samplesHanded
            while gap > 0 {
                let n = min(gap, 65_536)
                if noise.count < n { noise = [Float](repeating: 0, count: n) }
                for i in 0..<n { noise[i] = Float(generator.nextGaussian()) * level }
                noise.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                samplesHanded += n
                gap -= n
            }
        } else if start < samplesHanded - tolerance {
            skip = min(samplesHanded - start, chunk.samples.count)
        }
        guard skip < chunk.samples.count else { return }
        let kept = chunk.samples[skip...]
        kept.withUnsafeBufferPointer { emit($0) }
        samplesHanded += kept.count
        track(kept, block: block, windowLength: Int(rate))
    }

    /// Updates the background level with samples just handed over.
    private mutating func track(_ samples: ArraySlice<Float>, block: Int, windowLength: Int) {
        windowQuietest = min(windowQuietest, Self.quietestBlockRMS(samples, block: block))
        windowSamples += samples.count
        if windowSamples >= windowLength { (backgroundRMS, windowQuietest, windowSamples) = (windowQuietest, .infinity, 0) }
    }

    /// The RMS of the quietest whole block of `samples` (of all of them, when shorter than a block).
    package static func quietestBlockRMS(_ samples: ArraySlice<Float>, block: Int) -> Float {
        func rms(_ part: ArraySlice<Float>) -> Float {
            part.isEmpty ? 0 : (part.reduce(0) { $0 + $1 * $1 } / Float(part.count)).squareRoot()
        }
        guard samples.count > block else { return rms(samples) }
        var quietest = Float.infinity
        var i = samples.startIndex
        while i + block <= samples.endIndex {
            quietest = min(quietest, rms(samples[i..<(i + block)]))
            i += block
        }
        return quietest
    }
}
