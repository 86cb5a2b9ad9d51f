import FuzzSupport
import VigilImaging

/// PNG decoding (libpng's simplified API behind PNGCodec): any bytes decode to an image within
/// the limits or to a PNGError, never a crash; a decoded image survives an encode/decode round trip.
@main
enum FuzzPNG {
    /// Small limits keep each input fast; the limit check itself is exercised by oversized headers.
    static let limits = ImageLimits(maxWidth: 2048, maxHeight: 2048, maxDecodedBytes: 4 << 20)

    static func main() {
        FuzzDriver.run { raw in
            let bytes = [UInt8](raw)
            let image: RasterImage
            do { image = try PNGCodec.decode(bytes, source: "fuzz.png", limits: limits) } catch { _ = String(describing: error); return }
            FuzzDriver.check(image.pixels.count == image.width * image.height * image.format.channels, "pixel count")
            _ = try? PNGCodec.decode(bytes, as: .gray, source: "fuzz.png", limits: limits)
            do {
                let encoded = try PNGCodec.encode(image, fast: true)
                let decoded = try PNGCodec.decode(encoded, as: image.format, limits: limits)
                FuzzDriver.check(decoded == image, "encode/decode round trip changed the image")
            } catch {
                FuzzDriver.check(false, "re-encoding a decoded image failed: \(error)")
            }
        }
    }
}
