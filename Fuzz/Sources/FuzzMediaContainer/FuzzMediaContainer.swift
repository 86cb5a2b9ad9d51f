import FuzzSupport
import VigilMedia

/// Containers read by libavformat from memory (a custom AVIOContext): any bytes give chunks, a
/// clean end, or a MediaReadError, never a crash; every chunk is well formed.
@main
enum FuzzMediaContainer {
    static func main() {
        FuzzDriver.run { raw in
            do {
                let reader = try MediaContainerReader(
                    bytes: [UInt8](raw), name: "fuzz", options: MediaReaderOptions(audioSampleRate: 16_000))
                var chunks = 0
                var lastFrameTime = -Double.infinity
                while let chunk = try reader.nextChunk() {
                    switch chunk {
                    case .audio(let audio):
                        FuzzDriver.check(audio.sampleRate == 16_000 && !audio.samples.isEmpty, "empty audio chunk or wrong rate")
                    case .video(let frame):
                        FuzzDriver.check(
                            frame.width > 0 && frame.height > 0 && frame.luma.count == frame.width * frame.height,
                            "luma size differs from the frame size")
                        FuzzDriver.check(frame.time.isFinite && frame.time > lastFrameTime - 3600, "frame time not finite")
                        lastFrameTime = frame.time
                    }
                    chunks += 1
                    if chunks >= 64 { break }
                }
            } catch {
                _ = String(describing: error)
            }
        }
    }
}
