import VigilImaging

/// A frame's picture as the source delivered it: an 8-bit raster (PNG) or planar Y'CbCr (y4m).
public enum FramePicture: Sendable {
    /// Gray, RGB or RGBA pixels.
    case raster(RasterImage)
    /// Planar Y'CbCr.
    case ycbcr(YCbCrImage)

    /// Width in pixels.
    public var width: Int {
        switch self {
        case .raster(let image): return image.width
        case .ycbcr(let image): return image.width
        }
    }

    /// Height in pixels.
    public var height: Int {
        switch self {
        case .raster(let image): return image.height
        case .ycbcr(let image): return image.height
        }
    }

    /// The luma plane as a gray image (free for y4m and gray PNGs; BT.601 for colour PNGs).
    public var luma: RasterImage {
        switch self {
        case .raster(let image): return image.format == .gray ? image : image.converted(to: .gray)
        case .ycbcr(let image): return image.grayImage
        }
    }

    /// The picture as RGB (for snapshots and overlays).
    public func rgbImage() -> RasterImage {
        switch self {
        case .raster(let image): return image.converted(to: .rgb)
        case .ycbcr(let image): return image.rgbImage()
        }
    }
}
