import VigilGeometry

/// The zones of a ``MotionConfiguration`` rasterized for one frame size: computed once per
/// size and cached by the detector.
///
/// Motion is analysed on a grid of working pixels, each the box average of a
/// `decimation` x `decimation` block of frame pixels (the last `width % decimation` columns and
/// `height % decimation` rows are not analysed). Every zone is rasterized at full frame
/// resolution (``ZoneRasterizer``) and reduced to a per-working-pixel *coverage*: how many frame
/// pixels of the block lie in the zone. Zone areas and motion areas are counted in frame pixels
/// through these coverages, so results map back exactly to the frame.
public struct ZoneLayout: Sendable {
    /// One region whose motion is reported: a motion zone, or everything outside every zone.
    public struct Region: Sendable {
        /// The zone (`id == nil` for the outside region).
        public let zone: ActivityZone
        /// The polygon prepared in grid coordinates (empty for the outside region).
        public let polygon: PreparedPolygon
        /// Frame pixels of each working pixel's block inside the region (0 ... decimation²).
        public let coverage: [UInt8]
        /// Frame pixels of the analysed area inside the region.
        public let area: Int
        /// Working-pixel bounds `(minX, minY, maxX, maxY)` of non-zero coverage, or `nil` if empty.
        public let bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
    }

    /// Frame-to-grid mapping.
    public let mapping: GridMapping
    /// Box size of a working pixel.
    public let decimation: Int
    /// Working grid width.
    public let workingWidth: Int
    /// Working grid height.
    public let workingHeight: Int
    /// Reported regions: the motion zones in configuration order, then the outside region if
    /// motion outside every zone is reportable.
    public let regions: [Region]
    /// Motion-zone polygons (grid), for the outside region's anchor test.
    public let zonePolygons: [PreparedPolygon]
    /// Privacy polygons (grid).
    public let privacyPolygons: [PreparedPolygon]
    /// Full-resolution privacy mask (1 = privacy), `frameWidth * frameHeight`; empty when the
    /// configuration has no privacy zones.
    public let privacyMask: [UInt8]
    /// Working-resolution analysis weight: 0 where any frame pixel of the block is private,
    /// else 1. Private blocks never move.
    public let workingWeight: [Float]
    /// Number of working pixels with weight 1.
    public let analysedCount: Int
    /// Each privacy zone with its own coverage (private blocks kept), when the configuration
    /// ``MotionConfiguration/reportsPrivacyMotion``; empty otherwise.
    public let privacyRegions: [Region]

    /// Rasterizes `configuration`'s zones for a `frameWidth` x `frameHeight` frame.
    public init(configuration: MotionConfiguration, frameWidth: Int, frameHeight: Int) {
        let mapping = configuration.mapping(frameWidth: frameWidth, frameHeight: frameHeight)
        let f = configuration.parameters.decimation(forWidth: frameWidth, height: frameHeight)
        let w = frameWidth / f, h = frameHeight / f
        self.mapping = mapping
        self.decimation = f
        self.workingWidth = w
        self.workingHeight = h
        let n = w * h

        privacyPolygons = configuration.privacyZones.map { PreparedPolygon($0.polygon) }
        var privacy = [UInt8]()
        var privacyRegions: [Region] = []
        if !privacyPolygons.isEmpty {
            privacy = [UInt8](repeating: 0, count: frameWidth * frameHeight)
            let none = [UInt8](repeating: 0, count: n)
            for (zone, polygon) in zip(configuration.privacyZones, privacyPolygons) {
                let mask = ZoneRasterizer.mask(of: polygon, mapping: mapping)
                for i in mask.indices where mask[i] != 0 { privacy[i] = 1 }
                if configuration.reportsPrivacyMotion {
                    privacyRegions.append(Self.region(zone, polygon, Self.coverage(mask, frameWidth, f, w, h), none, w, h))
                }
            }
        }
        self.privacyRegions = privacyRegions
        privacyMask = privacy
        let privacyCoverage = privacy.isEmpty ? [UInt8](repeating: 0, count: n) : Self.coverage(privacy, frameWidth, f, w, h)
        workingWeight = privacyCoverage.map { $0 == 0 ? 1 : 0 }
        analysedCount = privacyCoverage.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }

        zonePolygons = configuration.zones.map { PreparedPolygon($0.polygon) }
        var regions: [Region] = []
        var union = [UInt8](repeating: 0, count: frameWidth * frameHeight)
        for (zone, polygon) in zip(configuration.zones, zonePolygons) {
            let mask = ZoneRasterizer.mask(of: polygon, mapping: mapping)
            for i in mask.indices where mask[i] != 0 { union[i] = 1 }
            regions.append(Self.region(zone, polygon, Self.coverage(mask, frameWidth, f, w, h), privacyCoverage, w, h))
        }
        if let outside = configuration.outsideSensitivity {
            var outsideMask = union
            for i in outsideMask.indices { outsideMask[i] = union[i] == 0 ? 1 : 0 }
            let zone = ActivityZone(id: nil, name: "outside zones", polygon: GridPolygon([GridPoint]()), sensitivity: outside)
            regions.append(
                Self.region(zone, PreparedPolygon(vertices: []), Self.coverage(outsideMask, frameWidth, f, w, h), privacyCoverage, w, h))
        }
        self.regions = regions
    }

    /// Per-block counts of set mask pixels.
    static func coverage(_ mask: [UInt8], _ frameWidth: Int, _ f: Int, _ w: Int, _ h: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: w * h)
        for wy in 0..<h {
            for wx in 0..<w {
                var count = 0
                for dy in 0..<f {
                    let row = (wy * f + dy) * frameWidth + wx * f
                    for dx in 0..<f { count += Int(mask[row + dx]) }
                }
                out[wy * w + wx] = UInt8(count)
            }
        }
        return out
    }

    /// A region with private blocks removed from its coverage.
    static func region(
        _ zone: ActivityZone, _ polygon: PreparedPolygon, _ coverage: [UInt8], _ privacyCoverage: [UInt8], _ w: Int, _ h: Int
    ) -> Region {
        var coverage = coverage
        var area = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if privacyCoverage[i] != 0 { coverage[i] = 0 }
                if coverage[i] != 0 {
                    area += Int(coverage[i])
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        return Region(
            zone: zone, polygon: polygon, coverage: coverage, area: area,
            bounds: maxX >= 0 ? (minX, minY, maxX, maxY) : nil)
    }
}
