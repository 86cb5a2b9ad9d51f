/// Motion found in one region (a zone, or outside every zone) in one frame.
public struct ZoneMotion: Sendable, Hashable {
    /// The zone, or `nil` for motion outside every zone.
    public var zoneID: UInt16?
    /// Moving frame pixels attributed to the region.
    public var motionPixels: Int
    /// `motionPixels` over the region's area (at most 1).
    public var fraction: Double
    /// Blobs attributed to the region.
    public var blobCount: Int
    /// Union of the attributed blobs' bounding boxes in grid coordinates: `[minX, minY, maxX, maxY]`.
    public var gridBox: [Double]
    /// Confidence 0.5...1, growing with the moving area relative to the sensitivity's minimum.
    public var confidence: Double

    /// Creates a zone motion record.
    public init(zoneID: UInt16?, motionPixels: Int, fraction: Double, blobCount: Int, gridBox: [Double], confidence: Double) {
        self.zoneID = zoneID
        self.motionPixels = motionPixels
        self.fraction = fraction
        self.blobCount = blobCount
        self.gridBox = gridBox
        self.confidence = confidence
    }
}
