import VigilCore

/// Bounds on decoded images, so that a hostile or broken file cannot exhaust memory. The
/// defaults come from ``InputLimits/default``; ``init(_:)`` takes the image part of any
/// ``InputLimits``.
public struct ImageLimits: Sendable, Hashable {
    /// Largest accepted width in pixels.
    public var maxWidth: Int
    /// Largest accepted height in pixels.
    public var maxHeight: Int
    /// Largest accepted decoded size in bytes (width x height x bytes per pixel).
    public var maxDecodedBytes: Int

    /// Creates limits.
    public init(
        maxWidth: Int = InputLimits.default.maxImageWidth, maxHeight: Int = InputLimits.default.maxImageHeight,
        maxDecodedBytes: Int = InputLimits.default.maxImageBytes
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// The image limits of `limits`.
    public init(_ limits: InputLimits) {
        self.init(maxWidth: limits.maxImageWidth, maxHeight: limits.maxImageHeight, maxDecodedBytes: limits.maxImageBytes)
    }

    /// 16384 x 16384 pixels and 256 MiB decoded.
    public static let `default` = ImageLimits()

    /// The reason `width` x `height` x `channels` (bytes per pixel) exceeds these limits, or
    /// `nil` when it fits. The reason names the limit and the option that raises it.
    public func violation(width: Int, height: Int, channels: Int) -> String? {
        if width <= 0 || height <= 0 { return "image is \(width)x\(height): no pixels" }
        if width > maxWidth || height > maxHeight {
            let limit: InputLimits.Limit = width > maxWidth ? .imageWidth : .imageHeight
            return "image is \(width)x\(height), larger than the \(maxWidth)x\(maxHeight) limit \(limit.raiseHint)"
        }
        let bytes = width.multipliedReportingOverflow(by: height)
        let total = bytes.partialValue.multipliedReportingOverflow(by: channels)
        if bytes.overflow || total.overflow || total.partialValue > maxDecodedBytes {
            return "image is \(width)x\(height) with \(channels) bytes per pixel, more than the "
                + "\(InputLimits.byteText(maxDecodedBytes)) decode limit \(InputLimits.Limit.imageBytes.raiseHint)"
        }
        return nil
    }
}
