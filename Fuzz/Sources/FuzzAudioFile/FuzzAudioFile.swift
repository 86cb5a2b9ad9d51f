import CFuzzerDriver
import FuzzSupport
import VigilAudioIO

#if canImport(Glibc)
import Glibc
#endif

/// Audio files through libsndfile (WAV, AIFF, FLAC, ... whatever the bytes claim to be): any
/// bytes open and stream to the end, or give an AudioFileError, never a crash. The input is
/// written to a memory file (memfd) and opened by its /proc path, exactly as a user's file is.
@main
enum FuzzAudioFile {
    static func main() {
        let descriptor = fuzz_memory_file("fuzz-audio")
        guard descriptor >= 0 else { fatalError("memfd_create failed: errno \(errno)") }
        let path = "/proc/self/fd/\(descriptor)"
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)
        FuzzDriver.run { bytes in
            guard ftruncate(descriptor, 0) == 0 else { fatalError("ftruncate failed") }
            if bytes.count > 0 {
                guard pwrite(descriptor, bytes.baseAddress, bytes.count, 0) == bytes.count else { fatalError("pwrite failed") }
            }
            do {
                let reader = try AudioFileReader(path: path, blockFrames: 1024)
                var total = 0
                // Bounded: a header may declare far more frames than the input holds.
                while total < 1 << 16 {
                    let got = try reader.readMono(into: samples)
                    if got == 0 { break }
                    for i in 0..<got { FuzzDriver.check(samples[i].isFinite, "non-finite sample delivered") }
                    total += got
                }
            } catch {
                _ = String(describing: error)
            }
        }
    }
}
