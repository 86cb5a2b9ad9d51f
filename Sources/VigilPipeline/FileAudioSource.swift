import VigilAudioIO
import VigilCore

/// An audio file as a live source (any format libsndfile reads, mixed to mono), paced by the
/// media clock; rewinding reopens the file.
public final class FileAudioSource: AudioSource {
    public let path: String
    public let name: String
    public let limits: InputLimits
    private var reader: AudioFileReader

    public init(path: String, limits: InputLimits = .default) throws {
        self.path = path
        self.name = path
        self.limits = limits
        reader = try AudioFileReader(path: path, limits: limits)
    }

    public var sampleRate: Double { Double(reader.sampleRate) }
    public var pacedByArrival: Bool { false }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.readMono(into: buffer) }

    public func rewind() throws -> Bool {
        reader = try AudioFileReader(path: path, limits: limits)
        return true
    }
}
