/// The channel layout of a ``RasterImage``: 8 bits per channel, interleaved, rows top to bottom.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// One channel: luma (gray level).
    case gray
    /// Three channels: red, green, blue.
    case rgb
    /// Four channels: red, green, blue, alpha (not premultiplied).
    case rgba

    /// Bytes per pixel.
    public var channels: Int {
        switch self {
        case .gray: return 1
        case .rgb: return 3
        case .rgba: return 4
        }
    }
}
