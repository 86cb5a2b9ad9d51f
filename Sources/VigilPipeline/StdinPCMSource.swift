import VigilCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw signed 16-bit little-endian PCM on stdin (interleaved `channels`), mixed to mono and
/// processed as it arrives.
public final class StdinPCMSource: AudioSource {
    /// Samples per second.
    public let sampleRate: Double
    /// Interleaved channels, mixed to mono.
    public let channels: Int
    /// The name records carry.
    public let name = "stdin"
    /// Processed as it arrives.
    public var pacedByArrival: Bool { true }
    /// Most frames accepted (``InputLimits/maxAudioDuration``); more is an error.
    public let maxFrames: Int64
    private var framesRead: Int64 = 0
    private var leftover: [UInt8] = []
    private var checkedHeader = false

    /// The file descriptor read: standard input unless a test or an embedding gives another.
    public let descriptor: Int32

    /// A source of `channels` interleaved channels at `sampleRate` on `descriptor` (default: stdin).
    public init(sampleRate: Int, channels: Int, maxDuration: Double = InputLimits.default.maxAudioDuration, descriptor: Int32 = 0) {
        self.descriptor = descriptor
        self.sampleRate = Double(sampleRate)
        self.channels = channels
        let frames = (maxDuration * Double(sampleRate)).rounded(.down)
        self.maxFrames = !(frames < 9.0e18) ? Int64.max : Int64(max(frames, 0))
    }

    /// Blocks until at least one frame arrived (or stdin ended), then returns what is there.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let frameBytes = 2 * channels
        var chunk = [UInt8](repeating: 0, count: buffer.count * frameBytes)
        while leftover.count < frameBytes {
            let want = max(frameBytes, chunk.count - leftover.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min(want, $0.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SourceReadError(reason: "cannot read stdin: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return 0 }
            leftover += chunk[0..<n]
        }
        if !checkedHeader {
            checkedHeader = true
            if leftover.starts(with: Array("YUV4MPEG2".utf8)) {
                throw SourceReadError(
                    reason: "stdin carries y4m video, not raw PCM: leave out --rate (and --channels) to stream it as video")
            }
        }
        let frames = min(buffer.count, leftover.count / frameBytes)
        let scale = 1 / (32768 * Float(channels))
        for f in 0..<frames {
            var sum: Float = 0
            for c in 0..<channels {
                let i = (f * channels + c) * 2
                sum += Float(Int16(bitPattern: UInt16(leftover[i]) | UInt16(leftover[i + 1]) << 8))
            }
            buffer[f] = sum * scale
        }
        leftover.removeFirst(frames * frameBytes)
        framesRead += Int64(frames)
        if framesRead > maxFrames {
            throw SourceReadError(
                reason: "stdin: more than the \(maxFrames / Int64(sampleRate)) s audio duration limit "
                    + InputLimits.Limit.audioDuration.raiseHint + "; inf means no limit")
        }
        return frames
    }

    /// Standard input cannot start again.
    public func rewind() throws -> Bool { false }
}

/// A live source that failed while reading.
public struct SourceReadError: Error, CustomStringConvertible {
    /// What failed, naming the source.
    public var reason: String
    /// The reason.
    public var description: String { reason }

    /// An error for `reason`.
    public init(reason: String) { self.reason = reason }
}
