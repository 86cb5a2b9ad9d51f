import VigilCore
import VigilGeometry
import VigilImaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds motion in a stream of luma frames and attributes it to zones.
///
/// Per frame (details and parameters in docs/video.md):
/// 1. the luma plane is box-averaged into working pixels (``ZoneLayout/decimation``);
/// 2. a global gain and offset between frame and background are fitted on the pixels that were
///    still in the previous frame; the frame is mapped back through them when that makes more
///    pixels match the background (exposure drift and flicker cancel);
/// 3. each working pixel's *score* is its match distance to a sample-based background model
///    (``SampleBackgroundModel``, after ViBe: the second-smallest difference to 8 samples of
///    its past and its neighbours'); privacy blocks never score;
/// 4. pixels scoring above the most sensitive threshold in use move; a 3 x 3 majority filter
///    removes specks and fills pinholes;
/// 5. a lighting change (a gain/offset jump), or a large or widespread change that a shift of
///    the whole picture explains (shake), refills the model from the frame and starts a settle
///    period without motion;
/// 6. otherwise moving pixels are grouped into 8-connected blobs; each region (zone or outside)
///    takes the blobs by its anchor rule and counts its moving frame pixels above its own
///    threshold; a region moves when that count reaches its sensitivity's minimum area;
/// 7. the model is updated at random, subsampled pixels (still pixels, and moving ones at a
///    tenth of the rate), with propagation to neighbours.
///
/// Not thread-safe: one detector per stream. Memory is allocated per frame size, not per frame.
public final class MotionDetector {
    /// The configuration (replaced by ``reconfigure(_:)``).
    public private(set) var configuration: MotionConfiguration
    /// The layout for the current frame size (`nil` before the first frame).
    public private(set) var layout: ZoneLayout?
    /// Frames processed.
    public private(set) var frameCount = 0
    /// Also give, per frame, every region's decision and its reason (``FrameMotion/decisions``).
    /// Off by default: the per-frame path then allocates nothing for it.
    public var recordsRegionDecisions = false
    /// Whether the last frame was analysed (so ``writeMotionMask(into:width:height:)`` has pixels).
    private var lastFrameAnalysed = false

    private var workspace: MotionWorkspace?
    private var lastTime: Double?
    private var settleUntil = -Double.infinity
    /// The picture's noise (``MotionParameters/noiseFactor``).
    private var noiseLevel: Float = 2

    /// Creates a detector.
    public init(configuration: MotionConfiguration) {
        self.configuration = configuration
    }

    /// Replaces the configuration from the next frame on (a device change on a live stream: new
    /// zones, sensitivities, privacy zones, anchor): the zone masks are rasterized again for the
    /// current frame size, and the background and noise model carry over, so detection goes on
    /// without a new start-up. A change that alters the working resolution (other parameters)
    /// restarts the model at the next frame.
    public func reconfigure(_ newConfiguration: MotionConfiguration) {
        configuration = newConfiguration
        guard let old = layout, let oldWorkspace = workspace else { return }
        let newLayout = ZoneLayout(
            configuration: newConfiguration, frameWidth: old.mapping.frameWidth, frameHeight: old.mapping.frameHeight)
        guard newLayout.workingWidth == old.workingWidth, newLayout.workingHeight == old.workingHeight else {
            layout = nil
            workspace = nil
            return
        }
        let newWorkspace = MotionWorkspace(layout: newLayout)
        newWorkspace.model = oldWorkspace.model
        layout = newLayout
        workspace = newWorkspace
    }

    /// Analyses a gray (or colour, converted to luma) image at media time `time` (seconds).
    public func process(_ image: RasterImage, time: Double) -> FrameMotion {
        let gray = image.format == .gray ? image : image.converted(to: .gray)
        return gray.pixels.withUnsafeBufferPointer {
            process(luma: $0, width: gray.width, height: gray.height, stride: gray.width, time: time)
        }
    }

    /// Analyses a luma plane (`height` rows of `stride` bytes, `width` used) at media time `time`.
    /// A new frame size resets the model (and rasterizes the zones for it).
    public func process(luma: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int, time: Double) -> FrameMotion {
        precondition(width > 0 && height > 0 && stride >= width && luma.count >= stride * (height - 1) + width, "luma plane too small")
        if layout == nil || layout!.mapping.frameWidth != width || layout!.mapping.frameHeight != height {
            let newLayout = ZoneLayout(configuration: configuration, frameWidth: width, frameHeight: height)
            layout = newLayout
            workspace = MotionWorkspace(layout: newLayout)
            lastTime = nil
            settleUntil = -.infinity
            noiseLevel = configuration.parameters.initialNoise
        }
        let layout = self.layout!
        let ws = workspace!
        frameCount += 1
        lastFrameAnalysed = false
        ws.decimate(luma, stride: stride, decimation: layout.decimation)

        guard let previous = lastTime else {
            lastTime = time
            ws.resetBackground()
            var result = FrameMotion(time: time, state: .initialising, movingFraction: 0, gain: 1, offset: 0, blobs: [], zones: [])
            if recordsRegionDecisions { result.decisions = uniformDecisions(layout: layout, outcome: .none, reason: .initialising) }
            return result
        }
        lastTime = time
        let p = configuration.parameters
        let dt = min(max(time - previous, 0.001), 1)
        // ViBe's subsampling: a sample survives N · φ frames on average, which is the
        // background time constant at this frame rate.
        let subsampling = min(max(Int((p.backgroundTimeConstant / (Double(SampleBackgroundModel.sampleCount) * dt)).rounded()), 1), 64)

        // Thresholds: the sensitivity's, but never below the noise floor.
        let noiseFloor = p.noiseFactor * noiseLevel
        let thresholds = layout.regions.map { max(p.threshold(for: $0.zone.sensitivity), noiseFloor) }
        let lowest = thresholds.min() ?? max(p.threshold(for: .medium), noiseFloor)

        // Global compensation, fitted on the pixels that were still in the previous frame and
        // then on those the fit explains (so a large object does not bend it). A fit beyond noise
        // (2 % gain, 2 levels) is applied when it makes more pixels match the model; a fit beyond
        // the tolerances is a lighting change (model refilled) only when it makes at least half
        // of the pixels match, and a fifth more than without it (a mover filling the view can
        // bend the fit, but mapping does not explain it).
        let (gain, offset, residual) = ws.fitGainOffset(radius: lowest)
        if let residual {
            let rate = Float(1 - exp(-dt / max(p.noiseTimeConstant, 0.01)))
            noiseLevel = min(noiseLevel + rate * (residual - noiseLevel), p.maximumNoise)
        }
        let midGrayShift = abs(gain * 128 + offset - 128)
        var lightingChange = false
        var mapped = false
        if abs(gain - 1) > 0.02 || abs(offset) > 2 {
            let matches = ws.compensationMatches(gain: gain, offset: offset, radius: lowest)
            if abs(gain - 1) > p.globalGainTolerance || midGrayShift > p.globalOffsetTolerance {
                lightingChange = matches.mapped * 2 >= matches.points && matches.mapped * 5 >= matches.plain * 6
            }
            mapped = !lightingChange && matches.mapped > matches.plain
        }
        ws.writeCompensated(mapped: mapped)
        ws.computeDistances()
        let moving = ws.threshold(lowest, minimumNeighbours: p.cleanupMinimumNeighbours)
        let movingFraction = layout.analysedCount > 0 ? Double(moving.count) / Double(layout.analysedCount) : 0
        let cellsMoving = moving.cellsMoving(fraction: p.cellMotionFraction)
        // A large or widespread change is a whole-frame change only when a shift of the whole
        // picture explains it (shake); large movers close to the camera stay motion.
        let large = movingFraction > p.globalChangeFraction || cellsMoving > p.globalChangeCellFraction
        let global = lightingChange || (large && ws.isShift(radius: lowest))

        if global {
            ws.resetBackground()
            settleUntil = time + p.settleDuration
            var result = FrameMotion(
                time: time, state: .globalChange, movingFraction: movingFraction, gain: Double(gain), offset: Double(offset),
                blobs: [], zones: [])
            if recordsRegionDecisions {
                result.decisions = uniformDecisions(
                    layout: layout, outcome: .suppressed, reason: lightingChange ? .lightingChange : .wholeFrameChange)
            }
            return result
        }
        if time < settleUntil {
            ws.updateBackground(subsampling: subsampling, movingUpdateChance: p.foregroundRateFactor)
            var result = FrameMotion(
                time: time, state: .settling, movingFraction: movingFraction, gain: Double(gain), offset: Double(offset),
                blobs: [], zones: [])
            if recordsRegionDecisions { result.decisions = uniformDecisions(layout: layout, outcome: .suppressed, reason: .settling) }
            return result
        }

        let frameArea = Double(layout.workingWidth * layout.workingHeight * layout.decimation * layout.decimation)
        let minimumAreas = layout.regions.map { p.minimumAreaFraction(for: $0.zone.sensitivity) * frameArea }
        let smallestArea = minimumAreas.min() ?? p.minimumAreaFraction(for: .medium) * frameArea
        let blobs = ws.extractBlobs(decimation: layout.decimation, minimumArea: smallestArea)
        let (zones, decisions) = attribute(
            blobs: blobs, thresholds: thresholds, minimumAreas: minimumAreas, layout: layout, ws: ws,
            recordsDecisions: recordsRegionDecisions)
        // Privacy zones (only when asked): whether each moved, at the medium sensitivity's
        // threshold and minimum area; nothing else about it leaves the detector.
        var privacyMotion: [UInt16] = []
        for region in layout.privacyRegions {
            guard let id = region.zone.id else { continue }
            let pixels = ws.unmaskedMovingPixels(region: region, above: max(p.threshold(for: .medium), noiseFloor))
            if Double(pixels) >= p.minimumAreaFraction(for: .medium) * frameArea { privacyMotion.append(id) }
        }

        ws.updateBackground(subsampling: subsampling, movingUpdateChance: p.foregroundRateFactor)
        lastFrameAnalysed = true
        var result = FrameMotion(
            time: time, state: .analysed, movingFraction: movingFraction, gain: Double(gain), offset: Double(offset),
            blobs: blobs.map(\.blob), zones: zones, privacyZonesWithMotion: privacyMotion)
        if recordsRegionDecisions {
            result.decisions =
                decisions
                + configuration.privacyZones.map {
                    RegionDecision(zoneID: $0.id, isPrivacy: true, motionPixels: 0, fraction: nil, outcome: .suppressed, reason: .privacy)
                }
        }
        return result
    }

    /// Writes what the detector saw in the last frame into `mask` (`height` rows of `width`
    /// bytes, the frame's size): 255 on the frame pixels of the working pixels that moved and
    /// belong to a blob of at least the smallest minimum area in use (before zone attribution),
    /// 0 elsewhere. Privacy pixels are always 0 (their blocks never move), as are the unanalysed
    /// last columns and rows, and every pixel of a frame that was not analysed (the first frame,
    /// a lighting or whole-frame change, the settle period).
    /// - Returns: `false` (mask untouched) when `width` x `height` is not the last frame's size.
    @discardableResult
    public func writeMotionMask(into mask: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) -> Bool {
        guard let layout, let workspace, layout.mapping.frameWidth == width, layout.mapping.frameHeight == height,
            mask.count >= width * height
        else { return false }
        mask.update(repeating: 0)
        guard lastFrameAnalysed else { return true }
        workspace.writeMask(into: mask, frameWidth: width, decimation: layout.decimation)
        return true
    }

    /// The same decision for every region (frames that were not analysed).
    private func uniformDecisions(layout: ZoneLayout, outcome: RegionDecision.Outcome, reason: RegionDecision.Reason) -> [RegionDecision] {
        layout.regions.map { RegionDecision(zoneID: $0.zone.id, motionPixels: 0, fraction: 0, outcome: outcome, reason: reason) }
            + configuration.privacyZones.map {
                RegionDecision(zoneID: $0.id, isPrivacy: true, motionPixels: 0, fraction: nil, outcome: .suppressed, reason: .privacy)
            }
    }

    /// Per-region motion: pixel counts above the region's threshold, the anchor rule, the
    /// minimum area and the minimum zone fraction.
    private func attribute(
        blobs: [MotionWorkspace.LabelledBlob], thresholds: [Float], minimumAreas: [Double], layout: ZoneLayout, ws: MotionWorkspace,
        recordsDecisions: Bool
    ) -> ([ZoneMotion], [RegionDecision]) {
        var decisions: [RegionDecision] = []
        guard !blobs.isEmpty else {
            if recordsDecisions {
                decisions = layout.regions.map {
                    RegionDecision(zoneID: $0.zone.id, motionPixels: 0, fraction: 0, outcome: .none, reason: nil)
                }
            }
            return ([], decisions)
        }
        let anchor = configuration.anchor
        let f2 = layout.decimation * layout.decimation
        let mapping = layout.mapping
        // Anchor points of every blob in grid coordinates, tested against each polygon in SIMD batches.
        var anchorsX = [Float](repeating: 0, count: blobs.count)
        var anchorsY = [Float](repeating: 0, count: blobs.count)
        for (index, blob) in blobs.enumerated() {
            let point = blob.blob.anchorPoint(anchor)
            let grid = mapping.gridPoint(x: point.x, y: point.y)
            anchorsX[index] = mapping.membershipX(grid.x)
            anchorsY[index] = mapping.membershipY(grid.y)
        }
        func inside(_ polygon: PreparedPolygon) -> [Bool] { PolygonPointTester(polygon).contains(xs: anchorsX, ys: anchorsY) }
        var insideAnyZone: [Bool] = []
        if anchor != .anyPixel && layout.regions.contains(where: { $0.zone.id == nil }) {
            insideAnyZone = [Bool](repeating: false, count: blobs.count)
            for polygon in layout.zonePolygons + layout.privacyPolygons {
                for (i, hit) in inside(polygon).enumerated() where hit { insideAnyZone[i] = true }
            }
        }
        // Per distinct threshold: each blob's pixel count above it (anchor modes count whole blobs).
        var wholeCounts: [Float: [Int]] = [:]
        if anchor != .anyPixel {
            for t in Set(thresholds) { wholeCounts[t] = ws.blobCounts(above: t, blobCount: blobs.count) }
        }

        var result: [ZoneMotion] = []
        for (r, region) in layout.regions.enumerated() {
            guard region.area > 0 else {
                if recordsDecisions {
                    decisions.append(RegionDecision(zoneID: region.zone.id, motionPixels: 0, fraction: 0, outcome: .none, reason: nil))
                }
                continue
            }
            let threshold = thresholds[r]
            var perBlob: [Int]
            var accepted: [Bool]
            if anchor == .anyPixel {
                perBlob = ws.regionBlobCounts(region: region, above: threshold, blobCount: blobs.count)
                accepted = perBlob.map { $0 > 0 }
            } else {
                perBlob = wholeCounts[threshold]!.map { $0 * f2 }
                let hits = region.zone.id == nil ? insideAnyZone.map { !$0 } : inside(region.polygon)
                accepted = zip(hits, perBlob).map { $0 && $1 > 0 }
            }
            var pixels = 0
            var count = 0
            var box = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
            for i in blobs.indices where accepted[i] {
                pixels += perBlob[i]
                count += 1
                let b = blobs[i].blob
                box = (min(box.minX, b.minX), min(box.minY, b.minY), max(box.maxX, b.maxX), max(box.maxY, b.maxY))
            }
            let fraction = min(1, Double(pixels) / Double(region.area))
            let moves = count > 0 && Double(pixels) >= minimumAreas[r] && fraction >= configuration.minimumZoneFraction
            if recordsDecisions {
                let outcome: RegionDecision.Outcome = moves ? .motion : pixels > 0 ? .suppressed : .none
                decisions.append(
                    RegionDecision(
                        zoneID: region.zone.id, motionPixels: pixels, fraction: fraction, outcome: outcome,
                        reason: outcome == .suppressed ? .tooSmall : nil))
            }
            guard moves else { continue }
            // Grid box: map the four frame corners (rotation may swap axes).
            var gx: [Float] = [], gy: [Float] = []
            for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
                let g = mapping.gridPoint(px: x, py: y)
                gx.append(g.x)
                gy.append(g.y)
            }
            let ratio = Double(pixels) / max(minimumAreas[r], 1)
            let confidence = min(1, 0.5 + 0.5 * (ratio - 1) / 3)
            result.append(
                ZoneMotion(
                    zoneID: region.zone.id, motionPixels: pixels, fraction: fraction, blobCount: count,
                    gridBox: [Double(gx.min()!), Double(gy.min()!), Double(gx.max()!), Double(gy.max()!)], confidence: confidence))
        }
        return (result, decisions)
    }
}
