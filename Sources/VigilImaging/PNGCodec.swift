import CPNG

/// PNG encoding and decoding in memory through libpng's simplified `png_image` API (which
/// handles libpng errors without setjmp/longjmp in the caller). Any PNG libpng reads is
/// accepted: gray, gray+alpha, palette, RGB, RGBA, 1 to 16 bits; 16-bit samples are
/// scaled to 8 bits (taken as sRGB-encoded when the file has no gamma information).
public enum PNGCodec {
    /// The PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with the PNG signature.
    public static func hasSignature(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    /// The natural format of a PNG: gray for gray files, rgba when the file has alpha
    /// (or a transparency chunk), rgb otherwise.
    static func naturalFormat(_ pngFormat: UInt32) -> PixelFormat {
        if pngFormat & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 { return .rgba }
        if pngFormat & UInt32(PNG_FORMAT_FLAG_COLOR) != 0 { return .rgb }
        return .gray
    }

    /// Decodes PNG `bytes` into `format` (or the file's natural format when `nil`).
    /// - Parameters:
    ///   - source: a name for error messages (the file name).
    ///   - limits: size limits checked before any pixel is decoded.
    /// - Throws: ``PNGError`` naming `source`, for bad data or exceeded limits.
    public static func decode(
        _ bytes: [UInt8], as format: PixelFormat? = nil, source: String = "<memory>", limits: ImageLimits = .default
    ) throws(PNGError) -> RasterImage {
        guard hasSignature(bytes) else {
            throw PNGError(.decode, source: source, reason: bytes.isEmpty ? "empty file" : "not a PNG file (bad signature)")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw PNGError(.decode, source: source, reason: reason)
        }
        let target = format ?? naturalFormat(image.format)
        let width = Int(image.width)
        let height = Int(image.height)
        if let violation = limits.violation(width: width, height: height, channels: target.channels) {
            png_image_free(&image)
            throw PNGError(.decode, source: source, reason: violation)
        }
        switch target {
        case .gray: image.format = UInt32(PNG_FORMAT_GRAY)
        case .rgb: image.format = UInt32(PNG_FORMAT_RGB)
        case .rgba: image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        }
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        var pixels = [UInt8](repeating: 0, count: width * height * target.channels)
        var background = png_color(red: 0, green: 0, blue: 0)
        let finished = pixels.withUnsafeMutableBytes { raw in
            // Alpha is composed over black only for gray/rgb targets; rgba keeps it.
            png_image_finish_read(&image, &background, raw.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw PNGError(.decode, source: source, reason: reason)
        }
        png_image_free(&image)
        return RasterImage(width: width, height: height, format: target, pixels: pixels)
    }

    /// Encodes `image` as a PNG (8 bits per channel, default compression).
    /// - Parameter fast: favour speed over size (libpng's PNG_IMAGE_FLAG_FAST).
    /// - Throws: ``PNGError`` if libpng fails.
    public static func encode(_ image: RasterImage, fast: Bool = false, destination: String = "<memory>") throws(PNGError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw PNGError(.encode, source: destination, reason: "image is \(image.width)x\(image.height): no pixels")
        }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        switch image.format {
        case .gray: png.format = UInt32(PNG_FORMAT_GRAY)
        case .rgb: png.format = UInt32(PNG_FORMAT_RGB)
        case .rgba: png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        }
        if fast { png.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        var size = 0
        let sized = image.pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&png, nil, &size, 0, raw.baseAddress, 0, nil)
        }
        guard sized != 0, size > 0 else {
            let reason = message(of: png)
            png_image_free(&png)
            throw PNGError(.encode, source: destination, reason: reason)
        }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { memory in
            image.pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&png, memory.baseAddress, &size, 0, raw.baseAddress, 0, nil)
            }
        }
        guard written != 0 else {
            let reason = message(of: png)
            png_image_free(&png)
            throw PNGError(.encode, source: destination, reason: reason)
        }
        png_image_free(&png)
        if size < out.count { out.removeLast(out.count - size) }
        return out
    }

    /// libpng's message for the last failure.
    private static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw -> String in
            let bytes = raw.prefix(while: { $0 != 0 })
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? "libpng failed without a message" : text
    }
}
