import FuzzSupport
import VigilFrameIO
import VigilImaging

/// YUV4MPEG2 streams: any bytes give frames, a clean end, or a FrameSourceError, never a crash.
@main
enum FuzzY4M {
    static let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 1 << 20)

    static func main() {
        FuzzDriver.run { raw in
            do {
                var reader = try Y4MReader(source: MemoryByteReader([UInt8](raw)), name: "fuzz.y4m", limits: limits, readSize: 4096)
                var frames = 0
                while let frame = try reader.nextFrame() {
                    FuzzDriver.check(
                        frame.picture.width == reader.header.width && frame.picture.height == reader.header.height,
                        "frame size differs from the header")
                    _ = frame.picture.luma
                    frames += 1
                    if frames >= 16 { break }
                }
            } catch {
                _ = String(describing: error)
            }
        }
    }
}
