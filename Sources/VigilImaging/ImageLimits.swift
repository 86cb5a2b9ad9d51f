/// Bounds on decoded images, so that a hostile or broken file cannot exhaust memory.
public struct ImageLimits: Sendable, Hashable {
    /// Largest accepted width in pixels.
    public var maxWidth: Int
    /// Largest accepted height in pixels.
    public var maxHeight: Int
    /// Largest accepted decoded size in bytes (width x height x channels).
    public var maxDecodedBytes: Int

    /// Creates limits.
    public init(maxWidth: Int = 16_384, maxHeight: Int = 16_384, maxDecodedBytes: Int = 256 << 20) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// 16384 x 16384 pixels and 256 MiB decoded.
    public static let `default` = ImageLimits()

    /// The reason `width` x `height` x `channels` exceeds these limits, or `nil` when it fits.
    public func violation(width: Int, height: Int, channels: Int) -> String? {
        if width <= 0 || height <= 0 { return "image is \(width)x\(height): no pixels" }
        if width > maxWidth || height > maxHeight {
            return "image is \(width)x\(height), larger than the \(maxWidth)x\(maxHeight) limit"
        }
        let bytes = width.multipliedReportingOverflow(by: height)
        let total = bytes.partialValue.multipliedReportingOverflow(by: channels)
        if bytes.overflow || total.overflow || total.partialValue > maxDecodedBytes {
            return "image is \(width)x\(height) with \(channels) channels, more than the \(maxDecodedBytes)-byte decode limit"
        }
        return nil
    }
}
