/// The per-frame-size buffers and pixel kernels of ``MotionDetector``. Hot loops run on
/// unsafe buffers allocated once per frame size; nothing is allocated per pixel.
final class MotionWorkspace {
    /// A blob with its index in the per-pixel blob map.
    struct LabelledBlob {
        var blob: MotionBlob
    }

    /// Moving-pixel totals of a thresholded frame.
    struct MovingSummary {
        var count: Int
        var cellCounts: [Int]
        var cellSizes: [Int]

        /// Fraction of the (non-empty) coarse cells in which at least `fraction` of pixels move.
        func cellsMoving(fraction: Double) -> Double {
            var moving = 0, total = 0
            for (count, size) in zip(cellCounts, cellSizes) where size > 0 {
                total += 1
                if Double(count) >= fraction * Double(size) && count > 0 { moving += 1 }
            }
            return total > 0 ? Double(moving) / Double(total) : 0
        }
    }

    static let cells = 8

    let width: Int
    let height: Int
    let count: Int
    let frameWidth: Int
    /// The working plane of the current frame (box averages of the luma plane).
    let luma: UnsafeMutableBufferPointer<UInt8>
    /// ``luma`` through the global gain/offset compensation (what the model compares).
    let compensated: UnsafeMutableBufferPointer<UInt8>
    /// Per working pixel: the match distance to the background samples (gray levels).
    let distance: UnsafeMutableBufferPointer<UInt8>
    /// 1 on analysed working pixels, 0 on those touching a privacy zone.
    let analysed: UnsafeMutableBufferPointer<UInt8>
    let raw: UnsafeMutableBufferPointer<UInt8>
    let fg: UnsafeMutableBufferPointer<UInt8>
    let labels: UnsafeMutableBufferPointer<Int32>
    let rowSum: UnsafeMutableBufferPointer<UInt16>
    let columnCount: UnsafeMutableBufferPointer<UInt8>
    /// Coarse (4 x 4 box) planes of the frame and of the background for the shift search.
    let coarseFrame: UnsafeMutableBufferPointer<Float>
    let coarseBackground: UnsafeMutableBufferPointer<Float>
    /// The compensation's lookup table (256 entries).
    let table: UnsafeMutableBufferPointer<UInt8>
    /// The gain fit's accepted frame values per background level (256 entries each).
    let fitLow: UnsafeMutableBufferPointer<Int32>
    let fitHigh: UnsafeMutableBufferPointer<Int32>
    /// Per coarse cell: twice the gain fit's absolute residuals summed, the points, and (sorted)
    /// the cells' means.
    let residualSums: UnsafeMutableBufferPointer<Int>
    let residualCounts: UnsafeMutableBufferPointer<Int>
    let cellMeans: UnsafeMutableBufferPointer<Float>
    let coarseWidth: Int
    let coarseHeight: Int
    let cellOfColumn: [Int]
    /// The first working column of each of the 8 cell columns, and the width.
    let cellStart: [Int]
    let cellOfRow: [Int]
    let cellSizes: [Int]
    let analysedCount: Int
    /// The background model (carried over by ``MotionDetector/reconfigure(_:)``).
    var model: SampleBackgroundModel
    /// Per working row: whether any pixel of the row moves (after clean-up); lets the blob and
    /// attribution passes skip still rows.
    var rowMoving: [Bool]
    /// Union-find parents of the blob labels (at most one label per working pixel).
    let parents: UnsafeMutableBufferPointer<Int32>

    init(layout: ZoneLayout) {
        width = layout.workingWidth
        height = layout.workingHeight
        count = width * height
        frameWidth = layout.mapping.frameWidth
        let n = width * height
        func bytes() -> UnsafeMutableBufferPointer<UInt8> {
            let b = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(n, 1))
            b.initialize(repeating: 0)
            return b
        }
        func floats(_ size: Int) -> UnsafeMutableBufferPointer<Float> {
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(size, 1))
            b.initialize(repeating: 0)
            return b
        }
        luma = bytes()
        compensated = bytes()
        distance = bytes()
        raw = bytes()
        fg = bytes()
        analysed = bytes()
        for i in 0..<n { analysed[i] = layout.workingWeight[i] > 0 ? 1 : 0 }
        parents = .allocate(capacity: max(n, 1))
        parents.initialize(repeating: 0)
        labels = .allocate(capacity: max(n, 1))
        labels.initialize(repeating: -1)
        rowSum = .allocate(capacity: max(frameWidth, 1))
        rowSum.initialize(repeating: 0)
        columnCount = .allocate(capacity: max(width, 1))
        columnCount.initialize(repeating: 0)
        table = .allocate(capacity: 256)
        table.initialize(repeating: 0)
        fitLow = .allocate(capacity: 256)
        fitLow.initialize(repeating: 0)
        fitHigh = .allocate(capacity: 256)
        fitHigh.initialize(repeating: 255)
        residualSums = .allocate(capacity: Self.cells * Self.cells)
        residualSums.initialize(repeating: 0)
        residualCounts = .allocate(capacity: Self.cells * Self.cells)
        residualCounts.initialize(repeating: 0)
        cellMeans = .allocate(capacity: Self.cells * Self.cells)
        cellMeans.initialize(repeating: 0)
        coarseWidth = layout.workingWidth / 4
        coarseHeight = layout.workingHeight / 4
        coarseFrame = floats((layout.workingWidth / 4) * (layout.workingHeight / 4))
        coarseBackground = floats((layout.workingWidth / 4) * (layout.workingHeight / 4))
        model = SampleBackgroundModel(width: layout.workingWidth, height: layout.workingHeight)
        let w = layout.workingWidth, h = layout.workingHeight
        cellOfColumn = (0..<w).map { $0 * Self.cells / max(w, 1) }
        cellStart = (0...Self.cells).map { cell in (0..<w).first { $0 * Self.cells / max(w, 1) >= cell } ?? w }
        cellOfRow = (0..<h).map { $0 * Self.cells / max(h, 1) }
        var sizes = [Int](repeating: 0, count: Self.cells * Self.cells)
        for y in 0..<h {
            for x in 0..<w where layout.workingWeight[y * w + x] > 0 { sizes[cellOfRow[y] * Self.cells + cellOfColumn[x]] += 1 }
        }
        cellSizes = sizes
        analysedCount = layout.analysedCount
        rowMoving = [Bool](repeating: false, count: h)
    }

    deinit {
        for buffer in [luma, compensated, distance, analysed, raw, fg, table] { buffer.deallocate() }
        for buffer in [coarseFrame, coarseBackground] { buffer.deallocate() }
        labels.deallocate()
        parents.deallocate()
        fitLow.deallocate()
        fitHigh.deallocate()
        residualSums.deallocate()
        residualCounts.deallocate()
        cellMeans.deallocate()
        rowSum.deallocate()
        columnCount.deallocate()
    }

    // MARK: Decimation

    /// Box-averages (rounded) `decimation` x `decimation` blocks of the luma plane into ``luma``.
    func decimate(_ source: UnsafeBufferPointer<UInt8>, stride: Int, decimation f: Int) {
        let w = width
        let src = source.baseAddress!
        let out = luma.baseAddress!
        if f == 1 {
            for y in 0..<height { (out + y * w).update(from: src + y * stride, count: w) }
            return
        }
        let used = w * f
        let acc = rowSum.baseAddress!
        let area = UInt32(f * f), half = UInt32(f * f / 2)
        for wy in 0..<height {
            let first = src + wy * f * stride
            for x in 0..<used { acc[x] = UInt16(first[x]) }
            for dy in 1..<f {
                let row = src + (wy * f + dy) * stride
                for x in 0..<used { acc[x] &+= UInt16(row[x]) }
            }
            let o = out + wy * w
            switch f {
            case 2:
                for x in 0..<w { o[x] = UInt8(truncatingIfNeeded: (UInt32(acc[2 * x]) &+ UInt32(acc[2 * x + 1]) &+ 2) >> 2) }
            case 4:
                // Four adjacent UInt16 sums at a time: one 64-bit load per output pixel.
                let quads = UnsafeRawPointer(acc)
                for x in 0..<w {
                    let v = quads.loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self)
                    let pairs = (v & 0x0000_FFFF_0000_FFFF) &+ ((v >> 16) & 0x0000_FFFF_0000_FFFF)
                    let sum = UInt32(truncatingIfNeeded: pairs) &+ UInt32(truncatingIfNeeded: pairs >> 32)
                    o[x] = UInt8(truncatingIfNeeded: (sum &+ 8) >> 4)
                }
            default:
                for x in 0..<w {
                    var s: UInt32 = 0
                    for k in 0..<f { s &+= UInt32(acc[x * f + k]) }
                    o[x] = UInt8(truncatingIfNeeded: (s &+ half) / area)
                }
            }
        }
    }

    // MARK: Background

    /// Fills the background model from the current frame and forgets the previous mask.
    func resetBackground() {
        model.initialise(from: UnsafePointer(luma.baseAddress!))
        fg.update(repeating: 0)
    }

    /// Fits `frame ≈ gain · background + offset` (background: the model's first sample plane)
    /// by least squares over a staggered grid of about 4,096 analysed pixels (every fourth pixel
    /// of every second or further row; all of them in pictures under 1,024 pixels) that did not move in the previous frame (all of them when fewer than 5 %
    /// are still), then twice more over those within `radius` of the previous fit, so that
    /// movers and stale samples do not bend it. The refits are orthogonal (total least squares):
    /// frame and samples are equally noisy, and least squares would bias the gain toward 0
    /// where the background has little contrast.
    /// Also returns the picture's noise between frame and background (gray levels; `nil` without
    /// a refit): the lower quartile over the 8 x 8 coarse cells of each cell's mean absolute
    /// residual under the last fit. Sensor noise is the same all over the picture while movers
    /// and swaying plants are local, so the quieter cells measure the noise alone.
    func fitGainOffset(radius: Float) -> (gain: Float, offset: Float, residual: Float?) {
        let c = luma.baseAddress!, s = model.samples.baseAddress!, m = fg.baseAddress!, k = analysed.baseAddress!
        let w = width, h = height
        let low = fitLow.baseAddress!, high = fitHigh.baseAddress!
        // About 4,096 points: every fourth pixel of every second (or further) row, staggered;
        // small pictures are fitted on every pixel.
        let dense = analysedCount < 1_024
        let rowStep = dense ? 1 : max(2, count / (4_096 * 4)), columnStep = dense ? 1 : 4
        let minimumPoints = dense ? 1 : 16
        func fit(stillOnly: Bool, around previous: (gain: Float, offset: Float)?) -> (
            gain: Float, offset: Float, n: Double, residual: Float
        )? {
            // Per background level b, the accepted frame values are low[b]...high[b].
            for b in 0..<256 {
                if let previous {
                    let predicted = previous.gain * Float(b) + previous.offset
                    low[b] = Int32(max(min((predicted - radius).rounded(.up), 1_000), -1_000))
                    high[b] = Int32(max(min((predicted + radius).rounded(.down), 1_000), -1_000))
                } else {
                    low[b] = 0
                    high[b] = 255
                }
            }
            let cellResidual = residualSums.baseAddress!, cellPoints = residualCounts.baseAddress!
            cellResidual.update(repeating: 0, count: residualSums.count)
            cellPoints.update(repeating: 0, count: residualCounts.count)
            var n = 0, sb = 0, sc = 0, sbb = 0, sbc = 0, scc = 0
            // A still pixel when the previous mask is consulted, any pixel otherwise.
            let stillMask: UInt8 = stillOnly ? 0xFF : 0
            for y in Swift.stride(from: 0, to: h, by: rowStep) {
                let phase = dense ? 0 : (y / rowStep) & 3
                let cellRow = cellOfRow[y] * Self.cells
                // Cell by cell along the row, so the sums stay in registers.
                for cx in 0..<Self.cells {
                    let x0 = cellStart[cx], x1 = cellStart[cx + 1]
                    var i = y * w + x0 + ((phase - x0) % columnStep + columnStep) % columnStep
                    let end = y * w + x1
                    var rn = 0, rb = 0, rc = 0, rbb = 0, rbc = 0, rcc = 0, rr = 0
                    while i < end {
                        let b = Int(s[i]), v = Int32(c[i])
                        if k[i] != 0 && m[i] & stillMask == 0 && v >= low[b] && v <= high[b] {
                            let value = Int(v)
                            rn &+= 1
                            rb &+= b
                            rc &+= value
                            rbb &+= b &* b
                            rbc &+= b &* value
                            rcc &+= value &* value
                            rr &+= Int(abs(2 &* v &- low[b] &- high[b]))
                        }
                        i &+= columnStep
                    }
                    n &+= rn
                    sb &+= rb
                    sc &+= rc
                    sbb &+= rbb
                    sbc &+= rbc
                    scc &+= rcc
                    cellResidual[cellRow + cx] &+= rr
                    cellPoints[cellRow + cx] &+= rn
                }
            }
            guard n >= minimumPoints else { return nil }
            let dn = Double(n), db = Double(sb), dc = Double(sc)
            let variance = dn * Double(sbb) - db * db
            let frameVariance = dn * Double(scc) - dc * dc, covariance = dn * Double(sbc) - db * dc
            var gain = 1.0
            if variance < dn * dn * 4 || variance * 16 < db * db {
                // Too little contrast (standard deviation below 2 levels or a quarter of the mean)
                // to tell a gain from an offset: exposure is multiplicative, so the ratio of the means.
                if variance >= dn * dn * 4 && db > 0 {
                    gain = min(max(dc / db, 0.25), 4)
                    return finish(gain: gain, offset: 0)
                }
            } else {
                if previous == nil || covariance == 0 {
                    gain = covariance / variance
                } else {
                    // Orthogonal (total least squares) on the inliers: noise is in both the
                    // frame and the background samples, which biases least squares low.
                    let spread = frameVariance - variance
                    gain = (spread + (spread * spread + 4 * covariance * covariance).squareRoot()) / (2 * covariance)
                }
            }
            gain = min(max(gain, 0.25), 4)
            return finish(gain: gain, offset: (dc - gain * db) / dn)
            func finish(gain: Double, offset: Double) -> (gain: Float, offset: Float, n: Double, residual: Float) {
                // Lower quartile of the cells' mean residuals (cells with at least 8 points).
                let means = cellMeans.baseAddress!
                var used = 0
                for cell in 0..<(Self.cells * Self.cells) where cellPoints[cell] >= 8 {
                    let mean = Float(cellResidual[cell]) / Float(2 * cellPoints[cell])
                    var j = used
                    while j > 0 && means[j - 1] > mean {
                        means[j] = means[j - 1]
                        j -= 1
                    }
                    means[j] = mean
                    used += 1
                }
                let noise = used > 0 ? means[used / 4] : Float(0)
                return (Float(gain), Float(offset), dn, noise)
            }
        }
        guard var result = fit(stillOnly: true, around: nil) else { return (1, 0, nil) }
        var stillOnly = true
        if result.n < 0.05 * Double(analysedCount) / Double(rowStep * columnStep), let all = fit(stillOnly: false, around: nil) {
            result = all
            stillOnly = false
        }
        var refitted = false
        for _ in 0..<2 {
            guard let refit = fit(stillOnly: stillOnly, around: (result.gain, result.offset)) else { break }
            result = refit
            refitted = true
        }
        return (result.gain, result.offset, refitted ? result.residual : nil)
    }

    /// Fills the compensation table (the frame mapped back through `gain` and `offset`) and
    /// counts, on a sparse grid (every fourth pixel of every fourth row), the points whose frame
    /// value matches the model at `radius` as it is (`plain`) and through the table (`mapped`).
    func compensationMatches(gain: Float, offset: Float, radius: Float) -> (plain: Int, mapped: Int, points: Int) {
        let c = luma.baseAddress!, t = table.baseAddress!
        for v in 0..<256 { t[v] = UInt8(clamping: Int(((Float(v) - offset) / gain).rounded())) }
        let limit = UInt8(clamping: Int(radius))
        let s = UnsafePointer(model.samples.baseAddress!), n = count, k = analysed.baseAddress!
        var plain = 0, mapped = 0, points = 0
        var y = 1
        while y < height {
            var i = y * width + 1
            let end = y * width + width
            while i < end {
                if k[i] > 0 {
                    points += 1
                    if SampleBackgroundModel.matchDistance(c[i], samples: s + i, planeSize: n) <= limit { plain += 1 }
                    if SampleBackgroundModel.matchDistance(t[Int(c[i])], samples: s + i, planeSize: n) <= limit { mapped += 1 }
                }
                i += 4
            }
            y += 4
        }
        return (plain, mapped, points)
    }

    /// Writes ``compensated``: the frame through the table of the last
    /// ``compensationMatches(gain:offset:radius:)`` when `mapped`, else the frame as it is.
    func writeCompensated(mapped: Bool) {
        let c = luma.baseAddress!, out = compensated.baseAddress!
        guard mapped else {
            out.update(from: c, count: count)
            return
        }
        let t = table.baseAddress!
        for i in 0..<count { out[i] = t[Int(c[i])] }
    }

    /// Fills ``distance``: the match distance of the compensated frame to the model, the pixel's
    /// score (private pixels are excluded later, by ``analysed``).
    func computeDistances() {
        model.matchDistances(frame: UnsafePointer(compensated.baseAddress!), into: distance.baseAddress!)
    }

    /// A score threshold as the largest distance that does not exceed it (distances are whole
    /// gray levels: `distance > threshold` exactly when `distance > level(threshold)`).
    @inline(__always)
    static func level(_ threshold: Float) -> Int { Int(max(min(threshold, 256), -1).rounded(.down)) }

    /// Frame pixels of `region` (through its coverage) whose match distance exceeds
    /// `threshold`: the same test as ``threshold(_:minimumNeighbours:)``, without the privacy exclusion.
    func unmaskedMovingPixels(region: ZoneLayout.Region, above threshold: Float) -> Int {
        guard let bounds = region.bounds else { return 0 }
        var total = 0
        for y in bounds.minY...bounds.maxY {
            for x in bounds.minX...bounds.maxX {
                let i = y * width + x
                if region.coverage[i] != 0 && Int(distance[i]) > Self.level(threshold) { total += Int(region.coverage[i]) }
            }
        }
        return total
    }

    /// Whether the change from the background is a shift of the whole picture (camera shake):
    /// the best translation of the coarse (4 x 4 box) background onto the coarse frame, searched
    /// within an eighth of the coarse size (differences over every other coarse pixel of every
    /// other row), must be non-zero and halve the mean absolute difference; then, on a sparse grid of working pixels, the background shifted by it (±2
    /// pixels) must be within `radius` of the frame at 60 % of the points and at least twice as
    /// many points as without the shift.
    func isShift(radius: Float) -> Bool {
        let cw = coarseWidth, ch = coarseHeight
        // Too small a picture to tell a shift from a mover: taken for a whole-frame change.
        guard cw >= 8 && ch >= 8 else { return true }
        let c = luma.baseAddress!, b = model.samples.baseAddress!
        let cf = coarseFrame.baseAddress!, cb = coarseBackground.baseAddress!
        for cy in 0..<ch {
            for cx in 0..<cw {
                var sf = 0, sb = 0
                for dy in 0..<4 {
                    let row = (cy * 4 + dy) * width + cx * 4
                    for dx in 0..<4 {
                        sf += Int(c[row + dx])
                        sb += Int(b[row + dx])
                    }
                }
                cf[cy * cw + cx] = Float(sf) / 16
                cb[cy * cw + cx] = Float(sb) / 16
            }
        }
        let reach = max(2, min(cw, ch) / 8)
        func cost(_ sx: Int, _ sy: Int) -> Float {
            var total: Float = 0
            var used = 0
            for y in Swift.stride(from: max(0, sy), to: min(ch, ch + sy), by: 2) {
                let f = cf + y * cw, g = cb + (y - sy) * cw
                for x in Swift.stride(from: max(0, sx), to: min(cw, cw + sx), by: 2) {
                    total += abs(f[x] - g[x - sx])
                    used += 1
                }
            }
            return used > 0 ? total / Float(used) : .infinity
        }
        let still = cost(0, 0)
        var best = (x: 0, y: 0, cost: still)
        for sy in -reach...reach {
            for sx in -reach...reach where sx != 0 || sy != 0 {
                let value = cost(sx, sy)
                if value < best.cost { best = (sx, sy, value) }
            }
        }
        guard best.x != 0 || best.y != 0, best.cost < 0.5 * still else { return false }
        let limit = Int(radius)
        func matches(_ sx: Int, _ sy: Int) -> Int {
            var hits = 0
            var y = 2 + max(0, sy)
            while y < min(height, height + sy) {
                let row = c + y * width, back = b + (y - sy) * width
                var x = 2 + max(0, sx)
                while x < min(width, width + sx) {
                    if abs(Int(row[x]) - Int(back[x - sx])) <= limit { hits += 1 }
                    x += 4
                }
                y += 4
            }
            return hits
        }
        let points = ((height + 1) / 4) * ((width + 1) / 4)
        let unshifted = matches(0, 0)
        var shifted = 0
        for dy in -2...2 {
            for dx in -2...2 { shifted = max(shifted, matches(best.x * 4 + dx, best.y * 4 + dy)) }
        }
        return shifted * 10 >= points * 6 && shifted >= 2 * unshifted
    }

    /// Thresholds ``distance`` at `threshold` into `raw`, cleans it into `fg` (3 x 3 neighbour
    /// count of at least `minimumNeighbours`, private pixels excluded) and counts moving pixels.
    /// SIMD over 16 bytes: the compare, the vertical and the horizontal sums.
    func threshold(_ threshold: Float, minimumNeighbours: Int) -> MovingSummary {
        typealias V = SIMD16<UInt8>
        let w = width, h = height
        let d = distance.baseAddress!, r = raw.baseAddress!, out = fg.baseAddress!, allowed = analysed.baseAddress!
        let level = Self.level(threshold)
        if level < 0 {
            r.update(repeating: 1, count: count)
        } else if level >= 255 {
            r.update(repeating: 0, count: count)
        } else {
            let limit = V(repeating: UInt8(level)), one = V(repeating: 1)
            var i = 0
            while i + 16 <= count {
                let v = UnsafeRawPointer(d + i).loadUnaligned(as: V.self)
                UnsafeMutableRawPointer(r + i).storeBytes(of: V().replacing(with: one, where: v .> limit), as: V.self)
                i += 16
            }
            while i < count {
                r[i] = Int(d[i]) > level ? 1 : 0
                i += 1
            }
        }
        let column = columnCount.baseAddress!
        let need = UInt8(clamping: max(1, minimumNeighbours))
        let needV = V(repeating: need), one = V(repeating: 1)
        var total = 0
        var cellCounts = [Int](repeating: 0, count: Self.cells * Self.cells)
        for y in 0..<h {
            let here = r + y * w
            let above = y > 0 ? r + (y - 1) * w : nil
            let below = y < h - 1 ? r + (y + 1) * w : nil
            var x = 0
            while x + 16 <= w {
                var sum = UnsafeRawPointer(here + x).loadUnaligned(as: V.self)
                if let above { sum &+= UnsafeRawPointer(above + x).loadUnaligned(as: V.self) }
                if let below { sum &+= UnsafeRawPointer(below + x).loadUnaligned(as: V.self) }
                UnsafeMutableRawPointer(column + x).storeBytes(of: sum, as: V.self)
                x += 16
            }
            while x < w {
                column[x] = here[x] &+ (above?[x] ?? 0) &+ (below?[x] ?? 0)
                x += 1
            }
            let o = out + y * w
            let permitted = allowed + y * w
            var rowTotal = 0
            @inline(__always) func scalar(_ x: Int) {
                var sum = column[x]
                if x > 0 { sum &+= column[x - 1] }
                if x < w - 1 { sum &+= column[x + 1] }
                let on: UInt8 = sum >= need && permitted[x] != 0 ? 1 : 0
                o[x] = on
                rowTotal &+= Int(on)
            }
            scalar(0)
            x = 1
            while x + 17 <= w {
                let sum =
                    UnsafeRawPointer(column + x - 1).loadUnaligned(as: V.self)
                    &+ UnsafeRawPointer(column + x).loadUnaligned(as: V.self)
                    &+ UnsafeRawPointer(column + x + 1).loadUnaligned(as: V.self)
                let on = V().replacing(with: one, where: sum .>= needV) & UnsafeRawPointer(permitted + x).loadUnaligned(as: V.self)
                UnsafeMutableRawPointer(o + x).storeBytes(of: on, as: V.self)
                rowTotal &+= Int(on.wrappedSum())
                x += 16
            }
            while x < w {
                scalar(x)
                x += 1
            }
            rowMoving[y] = rowTotal > 0
            if rowTotal > 0 {
                total += rowTotal
                let cellRow = cellOfRow[y] * Self.cells
                for x in 0..<w where o[x] != 0 { cellCounts[cellRow + cellOfColumn[x]] += 1 }
            }
        }
        return MovingSummary(count: total, cellCounts: cellCounts, cellSizes: cellSizes)
    }

    /// Updates the background model with the frame (``SampleBackgroundModel/update(frame:moving:subsampling:movingUpdateChance:)``),
    /// the moving pixels taken from `fg`.
    func updateBackground(subsampling: Int, movingUpdateChance: Double) {
        model.update(
            frame: UnsafePointer(luma.baseAddress!), moving: UnsafePointer(fg.baseAddress!), subsampling: subsampling,
            movingUpdateChance: movingUpdateChance)
    }

    // MARK: Mask

    /// Writes 255 into the `decimation` x `decimation` frame block of every moving working
    /// pixel that belongs to a kept blob (call after ``extractBlobs(decimation:minimumArea:)``);
    /// other pixels are left as they are.
    func writeMask(into mask: UnsafeMutableBufferPointer<UInt8>, frameWidth: Int, decimation f: Int) {
        let m = fg.baseAddress!, l = labels.baseAddress!, out = mask.baseAddress!
        for y in 0..<height where rowMoving[y] {
            for x in 0..<width {
                let i = y * width + x
                guard m[i] != 0 && l[i] >= 0 else { continue }
                for dy in 0..<f {
                    let row = out + (y * f + dy) * frameWidth + x * f
                    for dx in 0..<f { row[dx] = 255 }
                }
            }
        }
    }

    // MARK: Blobs

    @inline(__always)
    private static func find(_ label: Int32, _ parent: UnsafeMutablePointer<Int32>) -> Int32 {
        var root = label
        while parent[Int(root)] != root { root = parent[Int(root)] }
        var node = label
        while parent[Int(node)] != root {
            let next = parent[Int(node)]
            parent[Int(node)] = root
            node = next
        }
        return root
    }

    @inline(__always)
    private static func union(_ a: Int32, _ b: Int32, _ parent: UnsafeMutablePointer<Int32>) {
        let ra = find(a, parent), rb = find(b, parent)
        if ra < rb { parent[Int(rb)] = ra } else if rb < ra { parent[Int(ra)] = rb }
    }

    /// The first moving pixel of row `row` at or after `x` (or `w`): skips still pixels eight
    /// at a time.
    @inline(__always)
    private static func nextMoving(_ row: UnsafeMutablePointer<UInt8>, from x: Int, width w: Int) -> Int {
        var x = x
        while x + 8 <= w && UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self) == 0 { x += 8 }
        while x < w && row[x] == 0 { x += 1 }
        return x
    }

    /// 8-connected components of `fg`. Afterwards `fg` keeps only the pixels of blobs of at least
    /// `minimumArea` frame pixels (the others are cleared), and for those `labels[i]` is the index
    /// of the pixel's blob in the returned list; labels of other pixels are undefined.
    func extractBlobs(decimation f: Int, minimumArea: Double) -> [LabelledBlob] {
        let w = width, h = height
        let m = fg.baseAddress!, l = labels.baseAddress!, parent = parents.baseAddress!
        /// The end of the run of moving pixels that starts at `x`.
        @inline(__always) func runEnd(_ row: UnsafeMutablePointer<UInt8>, _ x: Int) -> Int {
            var end = x + 1
            while end < w && row[end] != 0 { end += 1 }
            return end
        }
        // Pass 1, run by run: a run takes the labels of the moving pixels above it (8-connected:
        // one column beyond each end), merging them.
        var labelCount = 0
        for y in 0..<h where rowMoving[y] {
            let row = m + y * w, rowLabels = l + y * w
            let upMoving = y > 0 && rowMoving[y - 1]
            var x = Self.nextMoving(row, from: 0, width: w)
            while x < w {
                let end = runEnd(row, x)
                var label: Int32 = -1
                if upMoving {
                    let up = row - w, upLabels = rowLabels - w
                    for ux in max(x - 1, 0)...min(end, w - 1) where up[ux] != 0 {
                        let neighbour = upLabels[ux]
                        if label < 0 { label = neighbour } else if neighbour != label { Self.union(label, neighbour, parent) }
                    }
                }
                if label < 0 {
                    label = Int32(labelCount)
                    parent[labelCount] = label
                    labelCount += 1
                }
                (rowLabels + x).update(repeating: label, count: end - x)
                x = Self.nextMoving(row, from: end, width: w)
            }
        }
        guard labelCount > 0 else { return [] }
        // Statistics per root, run by run (a run is one component).
        var area = [Int](repeating: 0, count: labelCount)
        var minX = [Int](repeating: Int.max, count: labelCount), minY = minX
        var maxX = [Int](repeating: -1, count: labelCount), maxY = maxX
        var sumX = [Int](repeating: 0, count: labelCount), sumY = sumX
        for i in 0..<labelCount { parent[i] = Self.find(Int32(i), parent) }
        for y in 0..<h where rowMoving[y] {
            let row = m + y * w, rowLabels = l + y * w
            var x = Self.nextMoving(row, from: 0, width: w)
            while x < w {
                let end = runEnd(row, x), length = end - x
                let root = Int(parent[Int(rowLabels[x])])
                (rowLabels + x).update(repeating: Int32(root), count: length)
                area[root] += length
                minX[root] = min(minX[root], x)
                maxX[root] = max(maxX[root], end - 1)
                minY[root] = min(minY[root], y)
                maxY[root] = max(maxY[root], y)
                sumX[root] += (x + end - 1) * length / 2
                sumY[root] += y * length
                x = Self.nextMoving(row, from: end, width: w)
            }
        }
        var blobIndex = [Int32](repeating: -1, count: labelCount)
        var blobs: [LabelledBlob] = []
        let f2 = f * f
        let half = Double(f - 1) / 2
        for root in 0..<labelCount where area[root] > 0 && Double(area[root] * f2) >= minimumArea {
            blobIndex[root] = Int32(blobs.count)
            let a = Double(area[root])
            blobs.append(
                LabelledBlob(
                    blob: MotionBlob(
                        area: area[root] * f2, minX: minX[root] * f, minY: minY[root] * f, maxX: maxX[root] * f + f - 1,
                        maxY: maxY[root] * f + f - 1, centroidX: Double(sumX[root]) / a * Double(f) + half,
                        centroidY: Double(sumY[root]) / a * Double(f) + half)))
        }
        for y in 0..<h where rowMoving[y] {
            let row = m + y * w, rowLabels = l + y * w
            var x = Self.nextMoving(row, from: 0, width: w)
            while x < w {
                let end = runEnd(row, x)
                let index = blobIndex[Int(rowLabels[x])]
                (rowLabels + x).update(repeating: index, count: end - x)
                if index < 0 { (row + x).update(repeating: 0, count: end - x) }
                x = Self.nextMoving(row, from: end, width: w)
            }
        }
        return blobs
    }

    /// Per blob: frame pixels inside `region` (coverage-weighted) of its working pixels whose
    /// distance exceeds `threshold`.
    func regionBlobCounts(region: ZoneLayout.Region, above threshold: Float, blobCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: blobCount)
        guard let bounds = region.bounds else { return counts }
        let w = width
        let l = labels.baseAddress!, d = distance.baseAddress!, m = fg.baseAddress!
        let level = Self.level(threshold)
        region.coverage.withUnsafeBufferPointer { coverage in
            for y in bounds.minY...bounds.maxY where rowMoving[y] {
                let row = m + y * w
                var x = Self.nextMoving(row, from: bounds.minX, width: bounds.maxX + 1)
                while x <= bounds.maxX {
                    let i = y * w + x
                    let blob = l[i]
                    if blob >= 0 && coverage[i] != 0 && Int(d[i]) > level { counts[Int(blob)] += Int(coverage[i]) }
                    x = Self.nextMoving(row, from: x + 1, width: bounds.maxX + 1)
                }
            }
        }
        return counts
    }

    /// Per blob: working pixels whose distance exceeds `threshold`.
    func blobCounts(above threshold: Float, blobCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: blobCount)
        let l = labels.baseAddress!, d = distance.baseAddress!, m = fg.baseAddress!
        let level = Self.level(threshold)
        for y in 0..<height where rowMoving[y] {
            let row = m + y * width
            var x = Self.nextMoving(row, from: 0, width: width)
            while x < width {
                let i = y * width + x
                let blob = l[i]
                if blob >= 0 && Int(d[i]) > level { counts[Int(blob)] += 1 }
                x = Self.nextMoving(row, from: x + 1, width: width)
            }
        }
        return counts
    }
}
