import VigilAudioIO
import VigilCore
import VigilLive

/// An audio file as a live source (any format libsndfile reads, mixed to mono), paced by the
/// media clock; rewinding reopens the file.
final class FileAudioSource: LiveAudioSource {
    let path: String
    let name: String
    let limits: InputLimits
    private var reader: AudioFileReader

    init(path: String, limits: InputLimits = .default) throws {
        self.path = path
        self.name = path
        self.limits = limits
        reader = try AudioFileReader(path: path, limits: limits)
    }

    var sampleRate: Double { Double(reader.sampleRate) }
    var pacedByArrival: Bool { false }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.readMono(into: buffer) }

    func rewind() throws -> Bool {
        reader = try AudioFileReader(path: path, limits: limits)
        return true
    }
}
