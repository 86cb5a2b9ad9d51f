/// An 8-bit image in memory: `width` x `height` pixels of ``PixelFormat``, interleaved,
/// row-major from the top-left, rows packed (stride = width x channels).
public struct RasterImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Channel layout.
    public let format: PixelFormat
    /// The samples: `width * height * format.channels` bytes.
    public var pixels: [UInt8]

    /// Creates an image filled with `value` in every channel.
    public init(width: Int, height: Int, format: PixelFormat, fill value: UInt8 = 0) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        self.format = format
        self.pixels = [UInt8](repeating: value, count: width * height * format.channels)
    }

    /// Wraps existing samples.
    /// - Precondition: `pixels.count == width * height * format.channels`.
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(pixels.count == width * height * format.channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// Bytes per row.
    public var stride: Int { width * format.channels }

    /// The colour at (x, y) (gray images give equal red, green and blue).
    public func color(x: Int, y: Int) -> RGBColor {
        let base = (y * width + x) * format.channels
        switch format {
        case .gray: return RGBColor(red: pixels[base], green: pixels[base], blue: pixels[base])
        case .rgb: return RGBColor(red: pixels[base], green: pixels[base + 1], blue: pixels[base + 2])
        case .rgba:
            return RGBColor(red: pixels[base], green: pixels[base + 1], blue: pixels[base + 2], alpha: pixels[base + 3])
        }
    }

    /// Sets the pixel at (x, y) to `color` (gray images take its luma; alpha is written only to rgba).
    public mutating func setColor(_ color: RGBColor, x: Int, y: Int) {
        let base = (y * width + x) * format.channels
        switch format {
        case .gray: pixels[base] = color.luma
        case .rgb:
            pixels[base] = color.red
            pixels[base + 1] = color.green
            pixels[base + 2] = color.blue
        case .rgba:
            pixels[base] = color.red
            pixels[base + 1] = color.green
            pixels[base + 2] = color.blue
            pixels[base + 3] = color.alpha
        }
    }

    /// The image in `target` format. Colour to gray uses BT.601 luma (77 R + 150 G + 29 B) / 256
    /// rounded; gray to colour replicates the level; alpha is dropped or set opaque.
    public func converted(to target: PixelFormat) -> RasterImage {
        if target == format { return self }
        let count = width * height
        var out = [UInt8](repeating: 255, count: count * target.channels)
        let inChannels = format.channels
        let outChannels = target.channels
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if target == .gray {
                    for i in 0..<count {
                        let s = i * inChannels
                        dst[i] = RGBColor.luma(red: src[s], green: src[s + 1], blue: src[s + 2])
                    }
                } else if format == .gray {
                    for i in 0..<count {
                        let v = src[i]
                        let d = i * outChannels
                        dst[d] = v
                        dst[d + 1] = v
                        dst[d + 2] = v
                    }
                } else {
                    for i in 0..<count {
                        let s = i * inChannels
                        let d = i * outChannels
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RasterImage(width: width, height: height, format: target, pixels: out)
    }
}
