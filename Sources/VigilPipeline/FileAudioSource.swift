import VigilAudioIO
import VigilCore

/// An audio file (any format libsndfile reads, mixed to mono), read block by block: by
/// ``RecordingAnalyzer`` as fast as it can, by a live run paced by the media clock. Rewinding
/// reopens the file.
public final class FileAudioSource: AudioSource {
    /// The file.
    public let path: String
    /// The name records carry: the path.
    public let name: String
    /// Limits on the file (duration, channels).
    public let limits: InputLimits
    /// The decoder (its declared duration, format and count of replaced non-finite samples).
    public private(set) var reader: AudioFileReader

    /// Opens `path`.
    /// - Throws: ``AudioFileError`` naming the file and the reason.
    public init(path: String, limits: InputLimits = .default) throws {
        self.path = path
        self.name = path
        self.limits = limits
        reader = try AudioFileReader(path: path, limits: limits)
    }

    /// The file's sample rate.
    public var sampleRate: Double { Double(reader.sampleRate) }
    /// Paced by the media clock in a live run.
    public var pacedByArrival: Bool { false }

    /// Reads the next samples, mixed to mono.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.readMono(into: buffer) }

    /// Reopens the file.
    public func rewind() throws -> Bool {
        reader = try AudioFileReader(path: path, limits: limits)
        return true
    }
}
