/// A planar Y'CbCr picture as video delivers it (YUV4MPEG2): a full-resolution luma plane and
/// two chroma planes, subsampled by ``Subsampling``, or luma only.
public struct YCbCrImage: Sendable, Hashable {
    /// Chroma subsampling.
    public enum Subsampling: String, Sendable, Hashable {
        /// No chroma: gray.
        case mono
        /// Chroma halved horizontally and vertically.
        case yuv420
        /// Chroma halved horizontally.
        case yuv422
        /// Full-resolution chroma.
        case yuv444

        /// Chroma plane size for a `width` x `height` picture (0 x 0 for mono); odd sizes round up.
        public func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
            switch self {
            case .mono: return (0, 0)
            case .yuv420: return ((width + 1) / 2, (height + 1) / 2)
            case .yuv422: return ((width + 1) / 2, height)
            case .yuv444: return (width, height)
            }
        }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Chroma layout.
    public let subsampling: Subsampling
    /// Luma plane: `width * height` bytes.
    public var luma: [UInt8]
    /// Cb plane (empty for mono).
    public var cb: [UInt8]
    /// Cr plane (empty for mono).
    public var cr: [UInt8]

    /// Creates a picture from its planes.
    /// - Precondition: plane sizes match `width`, `height` and `subsampling`.
    public init(width: Int, height: Int, subsampling: Subsampling, luma: [UInt8], cb: [UInt8] = [], cr: [UInt8] = []) {
        let chroma = subsampling.chromaSize(width: width, height: height)
        precondition(luma.count == width * height, "luma plane size does not match")
        precondition(cb.count == chroma.width * chroma.height && cr.count == cb.count, "chroma plane size does not match")
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }

    /// The luma plane as a gray image.
    public var grayImage: RasterImage { RasterImage(width: width, height: height, format: .gray, pixels: luma) }

    /// Converts to RGB (BT.601, full range as in JPEG/`C420jpeg`; mono gives gray levels).
    public func rgbImage() -> RasterImage {
        if subsampling == .mono { return grayImage.converted(to: .rgb) }
        let chroma = subsampling.chromaSize(width: width, height: height)
        let shiftX = subsampling == .yuv444 ? 0 : 1
        let shiftY = subsampling == .yuv420 ? 1 : 0
        var out = [UInt8](repeating: 0, count: width * height * 3)
        luma.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { u in
                cr.withUnsafeBufferPointer { v in
                    out.withUnsafeMutableBufferPointer { rgb in
                        for row in 0..<height {
                            let chromaRow = (row >> shiftY) * chroma.width
                            for column in 0..<width {
                                let c = chromaRow + (column >> shiftX)
                                let l = Int(y[row * width + column]) << 16
                                let b = Int(u[c]) - 128
                                let r = Int(v[c]) - 128
                                // 1.402, 0.344136, 0.714136, 1.772 in 16.16 fixed point.
                                let red = (l + 91_881 * r + 32768) >> 16
                                let green = (l - 22_554 * b - 46_802 * r + 32768) >> 16
                                let blue = (l + 116_130 * b + 32768) >> 16
                                let o = (row * width + column) * 3
                                rgb[o] = UInt8(clamping: red)
                                rgb[o + 1] = UInt8(clamping: green)
                                rgb[o + 2] = UInt8(clamping: blue)
                            }
                        }
                    }
                }
            }
        }
        return RasterImage(width: width, height: height, format: .rgb, pixels: out)
    }
}
