import VigilAudioIO
import VigilLive

/// An audio file as a live source (any format libsndfile reads, mixed to mono), paced by the
/// media clock; rewinding reopens the file.
final class FileAudioSource: LiveAudioSource {
    let path: String
    let name: String
    private var reader: AudioFileReader

    init(path: String) throws {
        self.path = path
        self.name = path
        reader = try AudioFileReader(path: path)
    }

    var sampleRate: Double { Double(reader.sampleRate) }
    var pacedByArrival: Bool { false }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.readMono(into: buffer) }

    func rewind() throws -> Bool {
        reader = try AudioFileReader(path: path)
        return true
    }
}
