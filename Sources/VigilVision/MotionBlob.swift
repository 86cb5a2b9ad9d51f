/// A connected region of moving pixels (8-connected on the working grid), in frame pixels.
public struct MotionBlob: Sendable, Hashable {
    /// Area in frame pixels (working pixels x decimation²).
    public var area: Int
    /// Bounding box in frame pixels, inclusive: `minX...maxX`, `minY...maxY`.
    public var minX: Int
    /// See ``minX``.
    public var minY: Int
    /// See ``minX``.
    public var maxX: Int
    /// See ``minX``.
    public var maxY: Int
    /// Centroid in frame coordinates (pixel centres at integers).
    public var centroidX: Double
    /// See ``centroidX``.
    public var centroidY: Double

    /// Creates a blob.
    public init(area: Int, minX: Int, minY: Int, maxX: Int, maxY: Int, centroidX: Double, centroidY: Double) {
        self.area = area
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.centroidX = centroidX
        self.centroidY = centroidY
    }

    /// The middle of the bounding box's lowest row, in frame coordinates.
    public var bottomCentre: (x: Double, y: Double) { (Double(minX + maxX) / 2, Double(maxY)) }

    /// The anchor point for `anchor` (the centroid for ``BlobAnchor/anyPixel``).
    public func anchorPoint(_ anchor: BlobAnchor) -> (x: Double, y: Double) {
        anchor == .bottomCentre ? bottomCentre : (centroidX, centroidY)
    }
}
