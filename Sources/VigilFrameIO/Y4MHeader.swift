import VigilImaging

/// The stream header of a YUV4MPEG2 (`.y4m`) file: `YUV4MPEG2 W<w> H<h> F<n>:<d> I<i> A<a:b>
/// C<colour> X<comment>`. Interlacing, aspect and comments are read and ignored.
public struct Y4MHeader: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Frame rate numerator (default 25 when the header has no F).
    public var frameRateNumerator: Int
    /// Frame rate denominator.
    public var frameRateDenominator: Int
    /// Chroma layout.
    public var subsampling: YCbCrImage.Subsampling
    /// Bits per sample (8, or 9...16 stored in two little-endian bytes).
    public var bitDepth: Int
    /// Whether a fourth (alpha) plane follows (C444alpha); it is skipped.
    public var hasAlpha: Bool
    /// The colour tag as written (e.g. "420jpeg"), "420jpeg" when absent.
    public var colourTag: String

    /// Largest width or height a header may state, whatever the image limits (2^20).
    public static let maxDimension = 1 << 20

    /// Frames per second.
    public var framesPerSecond: Double { Double(frameRateNumerator) / Double(frameRateDenominator) }

    /// Bytes of one frame's planes (without the FRAME line).
    public var frameByteCount: Int {
        let chroma = subsampling.chromaSize(width: width, height: height)
        let samples = width * height * (hasAlpha ? 2 : 1) + 2 * chroma.width * chroma.height
        return samples * (bitDepth > 8 ? 2 : 1)
    }

    /// Parses the header line (without the newline).
    /// - Throws: ``FrameSourceError`` (unsupportedFormat) naming `source`.
    public static func parse(_ line: String, source: String) throws(FrameSourceError) -> Y4MHeader {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.first == "YUV4MPEG2" else {
            throw FrameSourceError(
                .unsupportedFormat, source: source, reason: "not a YUV4MPEG2 stream (header starts with \"\(line.prefix(12))\")")
        }
        var width: Int?, height: Int?
        var numerator = 25, denominator = 1
        var tag = "420jpeg"
        for field in fields.dropFirst() {
            let key = field.first!
            let value = String(field.dropFirst())
            switch key {
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n > 0, d > 0 else {
                    throw FrameSourceError(.unsupportedFormat, source: source, reason: "bad frame rate F\(value)")
                }
                numerator = n
                denominator = d
            case "C": tag = value
            case "I", "A", "X": break  // interlacing, pixel aspect and comments do not matter here
            default: break
            }
        }
        guard let w = width, let h = height, w > 0, h > 0 else {
            throw FrameSourceError(.unsupportedFormat, source: source, reason: "header lacks a positive width (W) and height (H)")
        }
        // Far beyond any image limit; keeps frameByteCount free of overflow whatever the limits.
        guard w <= maxDimension, h <= maxDimension else {
            throw FrameSourceError(
                .unsupportedFormat, source: source, reason: "absurd frame size W\(w) H\(h) (more than \(maxDimension) pixels on a side)")
        }
        let (subsampling, depth, alpha) = try colour(tag, source: source)
        return Y4MHeader(
            width: w, height: h, frameRateNumerator: numerator, frameRateDenominator: denominator, subsampling: subsampling,
            bitDepth: depth, hasAlpha: alpha, colourTag: tag)
    }

    /// Chroma layout and depth of a colour tag: 420jpeg, 420paldv, 420mpeg2, 420, 422, 444,
    /// 444alpha, mono, and high-depth forms such as 420p10, 422p12, 444p16, mono16.
    static func colour(_ tag: String, source: String) throws(FrameSourceError) -> (YCbCrImage.Subsampling, Int, Bool) {
        switch tag {
        case "420jpeg", "420paldv", "420mpeg2", "420": return (.yuv420, 8, false)
        case "422": return (.yuv422, 8, false)
        case "444": return (.yuv444, 8, false)
        case "444alpha": return (.yuv444, 8, true)
        case "mono": return (.mono, 8, false)
        default: break
        }
        if tag.hasPrefix("mono"), let depth = Int(tag.dropFirst(4)), (9...16).contains(depth) { return (.mono, depth, false) }
        for (prefix, layout) in [("420p", YCbCrImage.Subsampling.yuv420), ("422p", .yuv422), ("444p", .yuv444)] where tag.hasPrefix(prefix)
        {
            if let depth = Int(tag.dropFirst(4)), (9...16).contains(depth) { return (layout, depth, false) }
        }
        throw FrameSourceError(.unsupportedFormat, source: source, reason: "unsupported colour space C\(tag)")
    }
}
