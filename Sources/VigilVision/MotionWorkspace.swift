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
    let score: UnsafeMutableBufferPointer<Float>
    let weight: UnsafeMutableBufferPointer<Float>
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
    let coarseWidth: Int
    let coarseHeight: Int
    let cellOfColumn: [Int]
    let cellOfRow: [Int]
    let cellSizes: [Int]
    let analysedCount: Int
    /// The background model (carried over by ``MotionDetector/reconfigure(_:)``).
    var model: SampleBackgroundModel
    /// Per working row: whether any pixel of the row moves (after clean-up); lets the blob and
    /// attribution passes skip still rows.
    var rowMoving: [Bool]
    var parent: [Int32] = []

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
        score = floats(n)
        weight = floats(n)
        for i in 0..<n { weight[i] = layout.workingWeight[i] }
        labels = .allocate(capacity: max(n, 1))
        labels.initialize(repeating: -1)
        rowSum = .allocate(capacity: max(frameWidth, 1))
        rowSum.initialize(repeating: 0)
        columnCount = .allocate(capacity: max(width, 1))
        columnCount.initialize(repeating: 0)
        table = .allocate(capacity: 256)
        table.initialize(repeating: 0)
        coarseWidth = layout.workingWidth / 4
        coarseHeight = layout.workingHeight / 4
        coarseFrame = floats((layout.workingWidth / 4) * (layout.workingHeight / 4))
        coarseBackground = floats((layout.workingWidth / 4) * (layout.workingHeight / 4))
        model = SampleBackgroundModel(width: layout.workingWidth, height: layout.workingHeight)
        let w = layout.workingWidth, h = layout.workingHeight
        cellOfColumn = (0..<w).map { $0 * Self.cells / max(w, 1) }
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
        for buffer in [luma, compensated, distance, raw, fg, table] { buffer.deallocate() }
        for buffer in [score, weight, coarseFrame, coarseBackground] { buffer.deallocate() }
        labels.deallocate()
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
    /// by least squares over every other analysed pixel of every other row (a quincunx of a
    /// quarter of the pixels) that did not move in the previous frame
    /// (all of them when fewer than 5 % are still), then twice more over the pixels within
    /// `radius` of the previous fit, so that movers and stale samples do not bend it.
    func fitGainOffset(radius: Float) -> (gain: Float, offset: Float) {
        let c = luma.baseAddress!, s = model.samples.baseAddress!, m = fg.baseAddress!, k = weight.baseAddress!
        let w = width, h = height
        func fit(stillOnly: Bool, around previous: (gain: Float, offset: Float)?) -> (gain: Float, offset: Float, n: Double)? {
            var n = 0.0, sb = 0.0, sc = 0.0, sbb = 0.0, sbc = 0.0
            let g = previous?.gain ?? 1, o = previous?.offset ?? 0
            for y in Swift.stride(from: 0, to: h, by: 2) {
                var rn = 0, rb = 0, rc = 0, rbb = 0, rbc = 0
                var i = y * w + ((y >> 1) & 1)
                let end = y * w + w
                while i < end {
                    defer { i += 2 }
                    guard k[i] > 0 && (!stillOnly || m[i] == 0) else { continue }
                    let b = Int(s[i]), v = Int(c[i])
                    if previous != nil && abs(Float(v) - (g * Float(b) + o)) > radius { continue }
                    rn += 1
                    rb += b
                    rc += v
                    rbb += b * b
                    rbc += b * v
                }
                n += Double(rn)
                sb += Double(rb)
                sc += Double(rc)
                sbb += Double(rbb)
                sbc += Double(rbc)
            }
            guard n >= 16 else { return nil }
            let variance = n * sbb - sb * sb
            var gain = 1.0
            if variance > n * n * 4 { gain = (n * sbc - sb * sc) / variance }  // background standard deviation above 2 levels
            gain = min(max(gain, 0.25), 4)
            return (Float(gain), Float((sc - gain * sb) / n), n)
        }
        guard var result = fit(stillOnly: true, around: nil) else { return (1, 0) }
        var stillOnly = true
        if result.n < 0.05 * Double(analysedCount) / 4, let all = fit(stillOnly: false, around: nil) {
            result = all
            stillOnly = false
        }
        for _ in 0..<2 {
            guard let refit = fit(stillOnly: stillOnly, around: (result.gain, result.offset)) else { break }
            result = refit
        }
        return (result.gain, result.offset)
    }

    /// Fills the compensation table (the frame mapped back through `gain` and `offset`) and
    /// counts, on a sparse grid (every third pixel of every third row), the points whose frame
    /// value matches the model at `radius` as it is (`plain`) and through the table (`mapped`).
    func compensationMatches(gain: Float, offset: Float, radius: Float) -> (plain: Int, mapped: Int, points: Int) {
        let c = luma.baseAddress!, t = table.baseAddress!
        for v in 0..<256 { t[v] = UInt8(clamping: Int(((Float(v) - offset) / gain).rounded())) }
        let limit = UInt8(clamping: Int(radius))
        let s = UnsafePointer(model.samples.baseAddress!), n = count, k = weight.baseAddress!
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
                i += 3
            }
            y += 3
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

    /// Fills ``distance`` (match distance of the compensated frame to the model) and `score`
    /// (the distance in gray levels, `-inf` on private pixels).
    func computeScores() {
        model.matchDistances(frame: UnsafePointer(compensated.baseAddress!), into: distance.baseAddress!)
        let d = distance.baseAddress!, s = score.baseAddress!, k = weight.baseAddress!
        for i in 0..<count { s[i] = k[i] > 0 ? Float(d[i]) : -Float.infinity }
    }

    /// Frame pixels of `region` (through its coverage) whose match distance exceeds
    /// `threshold`: the same test as ``computeScores()``, without the privacy exclusion.
    func unmaskedMovingPixels(region: ZoneLayout.Region, above threshold: Float) -> Int {
        guard let bounds = region.bounds else { return 0 }
        var total = 0
        for y in bounds.minY...bounds.maxY {
            for x in bounds.minX...bounds.maxX {
                let i = y * width + x
                if region.coverage[i] != 0 && Float(distance[i]) > threshold { total += Int(region.coverage[i]) }
            }
        }
        return total
    }

    /// Whether the change from the background is a shift of the whole picture (camera shake):
    /// the best translation of the coarse (4 x 4 box) background onto the coarse frame, searched
    /// within an eighth of the coarse size, must be non-zero and halve the mean absolute
    /// difference; then, on a sparse grid of working pixels, the background shifted by it (±2
    /// pixels) must be within `radius` of the frame at 60 % of the points and at least twice as
    /// many points as without the shift.
    func isShift(radius: Float) -> Bool {
        let cw = coarseWidth, ch = coarseHeight
        guard cw >= 8 && ch >= 8 else { return false }
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
            for y in max(0, sy)..<min(ch, ch + sy) {
                let f = cf + y * cw, g = cb + (y - sy) * cw
                for x in max(0, sx)..<min(cw, cw + sx) { total += abs(f[x] - g[x - sx]) }
                used += min(cw, cw + sx) - max(0, sx)
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

    /// Thresholds `score` at `threshold` into `raw`, cleans it into `fg` (3 x 3 neighbour count
    /// of at least `minimumNeighbours`, private pixels excluded) and counts moving pixels.
    func threshold(_ threshold: Float, minimumNeighbours: Int) -> MovingSummary {
        let w = width, h = height
        let s = score.baseAddress!, r = raw.baseAddress!, out = fg.baseAddress!, k = weight.baseAddress!
        for i in 0..<count { r[i] = s[i] > threshold ? 1 : 0 }
        let column = columnCount.baseAddress!
        let need = UInt8(clamping: max(1, minimumNeighbours))
        var total = 0
        var cellCounts = [Int](repeating: 0, count: Self.cells * Self.cells)
        for y in 0..<h {
            let above = r + max(y - 1, 0) * w
            let here = r + y * w
            let below = r + min(y + 1, h - 1) * w
            let top: UInt8 = y > 0 ? 1 : 0, bottom: UInt8 = y < h - 1 ? 1 : 0
            for x in 0..<w { column[x] = above[x] &* top &+ here[x] &+ below[x] &* bottom }
            let o = out + y * w
            let weights = k + y * w
            var rowTotal = 0
            for x in 0..<w {
                var sum = column[x]
                if x > 0 { sum &+= column[x - 1] }
                if x < w - 1 { sum &+= column[x + 1] }
                let on: UInt8 = sum >= need && weights[x] > 0 ? 1 : 0
                o[x] = on
                rowTotal &+= Int(on)
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

    private func find(_ label: Int32) -> Int32 {
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

    private func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra < rb { parent[Int(rb)] = ra } else if rb < ra { parent[Int(ra)] = rb }
    }

    /// 8-connected components of `fg`. Afterwards `fg` keeps only the pixels of blobs of at least
    /// `minimumArea` frame pixels (the others are cleared), and for those `labels[i]` is the index
    /// of the pixel's blob in the returned list; labels of other pixels are undefined.
    func extractBlobs(decimation f: Int, minimumArea: Double) -> [LabelledBlob] {
        let w = width, h = height
        let m = fg.baseAddress!, l = labels.baseAddress!
        parent.removeAll(keepingCapacity: true)
        for y in 0..<h {
            guard rowMoving[y] else { continue }
            for x in 0..<w {
                let i = y * w + x
                guard m[i] != 0 else { continue }
                var label: Int32 = -1
                if x > 0 && m[i - 1] != 0 { label = l[i - 1] }
                if y > 0 && rowMoving[y - 1] {
                    let up = i - w
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0 && nx < w && m[up + dx] != 0 else { continue }
                        let neighbour = l[up + dx]
                        if label < 0 { label = neighbour } else if neighbour != label { union(label, neighbour) }
                    }
                }
                if label < 0 {
                    label = Int32(parent.count)
                    parent.append(label)
                }
                l[i] = label
            }
        }
        guard !parent.isEmpty else { return [] }
        // Statistics per root.
        var area = [Int](repeating: 0, count: parent.count)
        var minX = [Int](repeating: Int.max, count: parent.count), minY = minX
        var maxX = [Int](repeating: -1, count: parent.count), maxY = maxX
        var sumX = [Int](repeating: 0, count: parent.count), sumY = sumX
        for i in 0..<parent.count { parent[i] = find(Int32(i)) }
        for y in 0..<h {
            guard rowMoving[y] else { continue }
            for x in 0..<w {
                let i = y * w + x
                guard m[i] != 0 else { continue }
                let label = l[i]
                let root = Int(parent[Int(label)])
                l[i] = Int32(root)
                area[root] += 1
                minX[root] = min(minX[root], x)
                maxX[root] = max(maxX[root], x)
                minY[root] = min(minY[root], y)
                maxY[root] = max(maxY[root], y)
                sumX[root] += x
                sumY[root] += y
            }
        }
        var blobIndex = [Int32](repeating: -1, count: parent.count)
        var blobs: [LabelledBlob] = []
        let f2 = f * f
        let half = Double(f - 1) / 2
        for root in 0..<parent.count where area[root] > 0 && Double(area[root] * f2) >= minimumArea {
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
            for i in (y * w)..<(y * w + w) where m[i] != 0 {
                let index = blobIndex[Int(l[i])]
                l[i] = index
                if index < 0 { m[i] = 0 }
            }
        }
        return blobs
    }

    /// Per blob: frame pixels inside `region` (coverage-weighted) of its working pixels scoring
    /// above `threshold`.
    func regionBlobCounts(region: ZoneLayout.Region, above threshold: Float, blobCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: blobCount)
        guard let bounds = region.bounds else { return counts }
        let w = width
        let l = labels.baseAddress!, s = score.baseAddress!, m = fg.baseAddress!
        region.coverage.withUnsafeBufferPointer { coverage in
            for y in bounds.minY...bounds.maxY where rowMoving[y] {
                for x in bounds.minX...bounds.maxX {
                    let i = y * w + x
                    guard m[i] != 0 else { continue }
                    let blob = l[i]
                    if blob >= 0 && coverage[i] != 0 && s[i] > threshold { counts[Int(blob)] += Int(coverage[i]) }
                }
            }
        }
        return counts
    }

    /// Per blob: working pixels scoring above `threshold`.
    func blobCounts(above threshold: Float, blobCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: blobCount)
        let l = labels.baseAddress!, s = score.baseAddress!, m = fg.baseAddress!
        for y in 0..<height where rowMoving[y] {
            for i in (y * width)..<(y * width + width) where m[i] != 0 {
                let blob = l[i]
                if blob >= 0 && s[i] > threshold { counts[Int(blob)] += 1 }
            }
        }
        return counts
    }
}
