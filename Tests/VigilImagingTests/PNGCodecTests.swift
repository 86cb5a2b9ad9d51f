import Testing
import VigilImaging

@Suite("PNG codec")
struct PNGCodecTests {
    func pattern(_ format: PixelFormat, width: Int = 13, height: Int = 7) -> RasterImage {
        var image = RasterImage(width: width, height: height, format: format)
        for i in image.pixels.indices { image.pixels[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        return image
    }

    @Test("gray, RGB and RGBA round-trip exactly", arguments: PixelFormat.allCases)
    func roundTrip(format: PixelFormat) throws {
        let image = pattern(format)
        let bytes = try PNGCodec.encode(image)
        #expect(PNGCodec.hasSignature(bytes))
        let decoded = try PNGCodec.decode(bytes)
        #expect(decoded == image)
        let fast = try PNGCodec.decode(try PNGCodec.encode(image, fast: true))
        #expect(fast == image)
    }

    @Test("decoding converts between formats on request")
    func conversion() throws {
        let rgb = pattern(.rgb)
        let gray = try PNGCodec.decode(try PNGCodec.encode(rgb), as: .gray)
        #expect(gray.format == .gray && gray.width == rgb.width && gray.height == rgb.height)
        let grayToRGB = try PNGCodec.decode(try PNGCodec.encode(pattern(.gray)), as: .rgb)
        #expect(grayToRGB.color(x: 3, y: 2).red == grayToRGB.color(x: 3, y: 2).blue)
        #expect(grayToRGB.color(x: 3, y: 2).red == pattern(.gray).pixels[2 * 13 + 3])
    }

    @Test("16-bit gray and RGB input is scaled to 8 bits")
    func sixteenBit() throws {
        // 2 x 2 gray: 0x0000, 0x8080, 0xFFFF, 0x1234.
        let gray16 = RawPNGWriter.png(
            width: 2, height: 2, colorType: 0, bitDepth: 16, samples: [0x00, 0x00, 0x80, 0x80, 0xFF, 0xFF, 0x12, 0x34])
        let gray = try PNGCodec.decode(gray16)
        #expect(gray.format == .gray)
        #expect(gray.pixels == [0x00, 0x80, 0xFF, 0x12])
        // 1 x 1 RGB: (0xFFFF, 0x0000, 0x8080).
        let rgb16 = RawPNGWriter.png(width: 1, height: 1, colorType: 2, bitDepth: 16, samples: [0xFF, 0xFF, 0, 0, 0x80, 0x80])
        let rgb = try PNGCodec.decode(rgb16)
        #expect(rgb.format == .rgb)
        #expect(rgb.pixels == [0xFF, 0x00, 0x80])
    }

    @Test("gray+alpha input decodes to RGBA")
    func grayAlpha() throws {
        let bytes = RawPNGWriter.png(width: 2, height: 1, colorType: 4, bitDepth: 8, samples: [200, 255, 50, 0])
        let image = try PNGCodec.decode(bytes)
        #expect(image.format == .rgba)
        #expect(image.color(x: 0, y: 0) == RGBColor(red: 200, green: 200, blue: 200, alpha: 255))
        #expect(image.color(x: 1, y: 0).alpha == 0)
    }

    @Test("bad input gives an error naming the source")
    func badInput() throws {
        #expect(throws: PNGError.self) { try PNGCodec.decode([], source: "empty.png") }
        do {
            _ = try PNGCodec.decode(Array("hello, not a png".utf8), source: "frames/x.png")
            Issue.record("decoded garbage")
        } catch {
            #expect(error.description.contains("frames/x.png"))
            #expect(error.description.contains("not a PNG"))
        }
        // A valid signature with a truncated body: libpng's reason is passed on.
        let good = try PNGCodec.encode(pattern(.rgb))
        do {
            _ = try PNGCodec.decode(Array(good.prefix(40)), source: "cut.png")
            Issue.record("decoded a truncated file")
        } catch {
            #expect(error.source == "cut.png")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test("size limits are checked before decoding")
    func limits() throws {
        let bytes = try PNGCodec.encode(pattern(.rgb, width: 40, height: 30))
        #expect(throws: PNGError.self) { try PNGCodec.decode(bytes, limits: ImageLimits(maxWidth: 39)) }
        #expect(throws: PNGError.self) { try PNGCodec.decode(bytes, limits: ImageLimits(maxDecodedBytes: 40 * 30 * 3 - 1)) }
        #expect(try PNGCodec.decode(bytes, limits: ImageLimits(maxWidth: 40, maxHeight: 30, maxDecodedBytes: 3600)).width == 40)
        do {
            _ = try PNGCodec.decode(bytes, source: "big.png", limits: ImageLimits(maxHeight: 10))
        } catch {
            #expect(error.description.contains("big.png") && error.description.contains("40x30"))
        }
    }
}
