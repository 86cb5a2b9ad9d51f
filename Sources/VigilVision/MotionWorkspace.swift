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
    let cur: UnsafeMutableBufferPointer<Float>
    let bg: UnsafeMutableBufferPointer<Float>
    let noise: UnsafeMutableBufferPointer<Float>
    let pred: UnsafeMutableBufferPointer<Float>
    let diff: UnsafeMutableBufferPointer<Float>
    let score: UnsafeMutableBufferPointer<Float>
    let weight: UnsafeMutableBufferPointer<Float>
    let raw: UnsafeMutableBufferPointer<UInt8>
    let fg: UnsafeMutableBufferPointer<UInt8>
    let labels: UnsafeMutableBufferPointer<Int32>
    let rowSum: UnsafeMutableBufferPointer<UInt16>
    let columnCount: UnsafeMutableBufferPointer<UInt8>
    let cellOfColumn: [Int]
    let cellOfRow: [Int]
    let cellSizes: [Int]
    let analysedCount: Int
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
        func floats() -> UnsafeMutableBufferPointer<Float> {
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(n, 1))
            b.initialize(repeating: 0)
            return b
        }
        cur = floats()
        bg = floats()
        noise = floats()
        pred = floats()
        diff = floats()
        score = floats()
        weight = floats()
        for i in 0..<count { weight[i] = layout.workingWeight[i] }
        raw = .allocate(capacity: max(count, 1))
        raw.initialize(repeating: 0)
        fg = .allocate(capacity: max(count, 1))
        fg.initialize(repeating: 0)
        labels = .allocate(capacity: max(count, 1))
        labels.initialize(repeating: -1)
        rowSum = .allocate(capacity: max(frameWidth, 1))
        rowSum.initialize(repeating: 0)
        columnCount = .allocate(capacity: max(width, 1))
        columnCount.initialize(repeating: 0)
        let w = width, h = height
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
        for buffer in [cur, bg, noise, pred, diff, score, weight] { buffer.deallocate() }
        raw.deallocate()
        fg.deallocate()
        labels.deallocate()
        rowSum.deallocate()
        columnCount.deallocate()
    }

    // MARK: Decimation

    /// Box-averages `decimation` x `decimation` blocks of the luma plane into `cur`.
    func decimate(_ luma: UnsafeBufferPointer<UInt8>, stride: Int, decimation f: Int) {
        let w = width
        let src = luma.baseAddress!
        let out = cur.baseAddress!
        if f == 1 {
            for y in 0..<height {
                let row = src + y * stride
                let o = out + y * w
                for x in 0..<w { o[x] = Float(row[x]) }
            }
            return
        }
        let used = w * f
        let acc = rowSum.baseAddress!
        let scale = 1 / Float(f * f)
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
                for x in 0..<w { o[x] = Float(UInt32(acc[2 * x]) &+ UInt32(acc[2 * x + 1])) * scale }
            case 4:
                // Four adjacent UInt16 sums at a time: one 64-bit load per output pixel.
                let quads = UnsafeRawPointer(acc)
                for x in 0..<w {
                    let v = quads.loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self)
                    let pairs = (v & 0x0000_FFFF_0000_FFFF) &+ ((v >> 16) & 0x0000_FFFF_0000_FFFF)
                    o[x] = Float(UInt32(truncatingIfNeeded: pairs) &+ UInt32(truncatingIfNeeded: pairs >> 32)) * scale
                }
            default:
                for x in 0..<w {
                    var s: UInt32 = 0
                    for k in 0..<f { s &+= UInt32(acc[x * f + k]) }
                    o[x] = Float(s) * scale
                }
            }
        }
    }

    // MARK: Background

    /// Sets the background to the current frame; also the noise estimate when given.
    func resetBackground(initialNoise: Float?) {
        for i in 0..<count { bg[i] = cur[i] }
        if let initialNoise { for i in 0..<count { noise[i] = initialNoise } }
    }

    /// Least-squares fit `cur ≈ gain * bg + offset` over analysed pixels; with `stillBelow`,
    /// only over pixels whose residual under the given fit is within threshold + noise term.
    /// Returns the fit and the fraction of analysed pixels it used.
    func fitGainOffset(stillBelow: (gain: Float, offset: Float, threshold: Float)?, noiseFactor: Float) -> (Float, Float, Double) {
        var n = 0.0, sb = 0.0, sc = 0.0, sbb = 0.0, sbc = 0.0
        let w = width
        let total = Double(analysedCount)
        typealias V = SIMD8<Float>
        let bgp = UnsafeRawPointer(bg.baseAddress!), curp = UnsafeRawPointer(cur.baseAddress!)
        let wp = UnsafeRawPointer(weight.baseAddress!), np = UnsafeRawPointer(noise.baseAddress!)
        let stride = MemoryLayout<Float>.stride
        for y in 0..<height {
            // Eight lanes of partial sums per row (the compiler cannot reassociate scalar float sums).
            var vn = V(), vb = V(), vc = V(), vbb = V(), vbc = V()
            let base = y * w
            var x = 0
            if let still = stillBelow {
                let g = V(repeating: still.gain), o = V(repeating: still.offset)
                let limit = V(repeating: still.threshold), factor = V(repeating: noiseFactor)
                while x + 8 <= w {
                    let offset = (base + x) * stride
                    let b = bgp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let c = curp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let k = wp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let nz = np.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let d = c - (g * b + o)
                    let residual = d.replacing(with: -d, where: d .< 0)
                    let keep = k.replacing(with: 0, where: residual .> limit + factor * nz)
                    vn += keep
                    vb += keep * b
                    vc += keep * c
                    vbb += keep * b * b
                    vbc += keep * b * c
                    x += 8
                }
                while x < w {
                    let i = base + x
                    let b = bg[i], c = cur[i]
                    let residual = abs(c - (still.gain * b + still.offset))
                    let keep: Float = residual <= still.threshold + noiseFactor * noise[i] ? weight[i] : 0
                    vn[0] += keep
                    vb[0] += keep * b
                    vc[0] += keep * c
                    vbb[0] += keep * b * b
                    vbc[0] += keep * b * c
                    x += 1
                }
            } else {
                while x + 8 <= w {
                    let offset = (base + x) * stride
                    let b = bgp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let c = curp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    let k = wp.loadUnaligned(fromByteOffset: offset, as: V.self)
                    vn += k
                    vb += k * b
                    vc += k * c
                    vbb += k * b * b
                    vbc += k * b * c
                    x += 8
                }
                while x < w {
                    let i = base + x
                    let b = bg[i], c = cur[i], k = weight[i]
                    vn[0] += k
                    vb[0] += k * b
                    vc[0] += k * c
                    vbb[0] += k * b * b
                    vbc[0] += k * b * c
                    x += 1
                }
            }
            n += Double(vn.sum())
            sb += Double(vb.sum())
            sc += Double(vc.sum())
            sbb += Double(vbb.sum())
            sbc += Double(vbc.sum())
        }
        let used = total > 0 ? n / total : 0
        guard n >= 16 else { return stillBelow.map { ($0.gain, $0.offset, used) } ?? (1, 0, used) }
        let variance = n * sbb - sb * sb
        var gain = 1.0
        if variance > n * n * 4 {  // background standard deviation above 2 gray levels
            gain = (n * sbc - sb * sc) / variance
        }
        gain = min(max(gain, 0.25), 4)
        let offset = (sc - gain * sb) / n
        return (Float(gain), Float(offset), used)
    }

    /// Fills `diff` (difference to the compensated background, minimised over the
    /// neighbourhood) and `score` (`diff - noiseFactor * noise`, `-inf` on private pixels).
    func score(gain: Float, offset: Float, noiseFactor: Float, shakeRadius: Int) {
        let w = width, h = height
        for i in 0..<count { pred[i] = gain * bg[i] + offset }
        let c = cur.baseAddress!, p = pred.baseAddress!, d = diff.baseAddress!
        typealias V = SIMD8<Float>
        @inline(__always) func load(_ pointer: UnsafeMutablePointer<Float>) -> V { UnsafeRawPointer(pointer).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ value: V, _ pointer: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: V.self)
        }
        @inline(__always) func absolute(_ v: V) -> V { v.replacing(with: -v, where: v .< V()) }
        @inline(__always) func smaller(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }
        for y in 0..<h {
            let row = c + y * w, out = d + y * w, here = p + y * w
            var x = 0
            while x + 8 <= w {
                store(absolute(load(row + x) - load(here + x)), out + x)
                x += 8
            }
            while x < w {
                out[x] = abs(row[x] - here[x])
                x += 1
            }
            guard shakeRadius > 0 && w >= 3 && h >= 3 else { continue }
            for dy in -1...1 {
                let yy = y + dy
                if yy < 0 || yy >= h { continue }
                let prow = p + yy * w
                // Interior columns in SIMD; the tail and the two edge columns use the neighbours they have.
                x = 1
                while x + 8 <= w - 1 {
                    let v = load(row + x)
                    let m = smaller(
                        absolute(v - load(prow + x - 1)), smaller(absolute(v - load(prow + x)), absolute(v - load(prow + x + 1))))
                    store(smaller(load(out + x), m), out + x)
                    x += 8
                }
                while x < w - 1 {
                    let v = row[x]
                    let m = Swift.min(abs(v - prow[x - 1]), Swift.min(abs(v - prow[x]), abs(v - prow[x + 1])))
                    out[x] = Swift.min(out[x], m)
                    x += 1
                }
                out[0] = Swift.min(out[0], Swift.min(abs(row[0] - prow[0]), abs(row[0] - prow[1])))
                out[w - 1] = Swift.min(out[w - 1], Swift.min(abs(row[w - 1] - prow[w - 1]), abs(row[w - 1] - prow[w - 2])))
            }
        }
        let s = score.baseAddress!, nz = noise.baseAddress!, k = weight.baseAddress!
        for i in 0..<count {
            let value = d[i] - noiseFactor * nz[i]
            s[i] = k[i] > 0 ? value : -Float.infinity
        }
    }

    /// Frame pixels of `region` (through its coverage) whose difference to the compensated
    /// background, minus `noiseFactor` times the noise estimate, exceeds `threshold`: the same
    /// test as ``score(gain:offset:noiseFactor:shakeRadius:)``, without the privacy exclusion.
    /// Call after `score`.
    func unmaskedMovingPixels(region: ZoneLayout.Region, above threshold: Float, noiseFactor: Float) -> Int {
        guard let bounds = region.bounds else { return 0 }
        var total = 0
        for y in bounds.minY...bounds.maxY {
            for x in bounds.minX...bounds.maxX {
                let i = y * width + x
                if region.coverage[i] != 0 && diff[i] - noiseFactor * noise[i] > threshold { total += Int(region.coverage[i]) }
            }
        }
        return total
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

    /// Updates the background toward the frame (`foregroundAlpha` under motion) and the noise
    /// estimate on still pixels (`beta`), clamped to `noise`.
    func updateBackground(alpha: Float, foregroundAlpha: Float, beta: Float, noise bounds: (Float, Float)) {
        let b = bg.baseAddress!, c = cur.baseAddress!, m = fg.baseAddress!, d = diff.baseAddress!, nz = noise.baseAddress!
        let low = bounds.0, high = bounds.1
        for i in 0..<count {
            let moving = m[i] != 0
            let rate = moving ? foregroundAlpha : alpha
            b[i] += rate * (c[i] - b[i])
            let noiseRate = moving ? 0 : beta
            let updated = nz[i] + noiseRate * (min(d[i], high) - nz[i])
            nz[i] = min(max(updated, low), high)
        }
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

    /// 8-connected components of `fg`. Afterwards, for moving pixels (`fg[i] != 0`), `labels[i]`
    /// is the index of the pixel's blob in the returned list, or -1 (a blob below `minimumArea`
    /// frame pixels); labels of still pixels are undefined.
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
            for i in (y * w)..<(y * w + w) where m[i] != 0 { l[i] = blobIndex[Int(l[i])] }
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
