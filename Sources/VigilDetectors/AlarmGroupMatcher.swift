import VigilCore
import VigilDSP

/// Finds whole beep groups of an ``AlarmPattern`` in single spectrum bins by matching the group's
/// complete on/off template at once (a matched filter over time), for tones too weak to segment
/// beep by beep.
///
/// The tone lines of ``AlarmPatternDetector`` decide on/off frame by frame and then assemble beeps
/// into groups; a tone only a few dB above its noise bin breaks
/// into fragments there. This matcher instead integrates the whole group: for each bin and each
/// period hypothesis (±tolerance) it compares the bin's mean power over the inner parts of the
/// group's beeps with its mean over the silences around and between them, the silences where an
/// extra beep before or after the group would sound included (so longer groups and continuous
/// beepers do not match). A T3 group integrates about 1.2 s of tone against 2 s of silence
/// instead of one 23 ms frame.
///
/// A bin *matches* when
/// - the mean on-power exceeds the mean off-power by ``contrast``,
/// - every beep (for long beeps every half beep) exceeds the quietest silence by far more than the
///   silences differ among themselves (no beep missing or much shorter; nothing in a gap, and no
///   beep one period before or after the group), and for long beeps the half beeps have one level,
/// - the mean on-power stands out from the same mean of bins ±3...±5 by ``prominence`` (a tone, not
///   broadband bursts), it is a local maximum over the neighbouring bins, and its excess over the
///   silences is ``tonality`` times the neighbouring bins' (music notes and voices raise those too).
/// The best-matching alignment of a bin is then refined beep by beep: each onset and offset is the
/// change point of a two-level step (between the silence and the beep level) in the bin's per-frame
/// power near the template's edge, so the measured beeps can be judged by the detector's own group
/// rules (durations, periods) like any other group.
///
/// Pure and allocation-free per frame: power is summed into blocks (an eighth of a beep for long
/// beeps, a fifth for short ones) whose cumulative sums are kept in a ring (rebased every turn, so
/// they stay as small as the window's content), so every segment mean is two lookups; the
/// per-frame band is kept in a second ring for the refinement. Every period hypothesis puts the
/// group's last beep at the same place, so one cheap test (the last two beeps against the silences
/// after them and against the neighbouring bins) gates each 8 bins before the whole templates are
/// evaluated.
final class AlarmGroupMatcher {
    /// A matched group: measured beeps, the tone's frequency and its prominence (linear).
    struct Match {
        var onsets = SIMD8<Double>()
        var offsets = SIMD8<Double>()
        var count = 0
        var frequency = 0.0
        var prominence: Float = 0
        /// Mean on-power over mean off-power (linear).
        var contrast: Float = 0
    }

    let pattern: AlarmPattern
    /// Mean on-power over mean off-power needed (linear).
    let contrast: Float
    /// Mean on-power over the neighbouring bins' needed (linear).
    let prominence: Float
    /// The last two beeps over the silences after them needed before the templates are evaluated
    /// (linear; 1 dB below ``contrast``).
    let gate: Float
    /// The silences' spread (loudest minus quietest) may be at most this share of the weakest half
    /// beep's excess over the quietest silence.
    let silenceSpread: Float = 0.35
    /// The other templates are evaluated only where the nominal one comes within 2 dB of ``contrast``.
    let nearContrast: Float
    /// The weakest half beep's excess over the quietest silence must be at least this share of the
    /// strongest one's (long beeps only: short beeps' 1-2 blocks are too noisy for it).
    let beepSpread: Float
    /// Whether beeps are judged by halves (long beeps: a beep much shorter than the template
    /// leaves its second half empty) or whole (short beeps, whose halves are 1-2 frames; their
    /// durations are judged after the refinement).
    let halves: Bool
    /// The tone bin's beep excess (on minus off) must be this many times the neighbouring bins' mean excess.
    let tonality: Float = 4
    private let hop: Double
    private let binWidth: Double
    private let blockFrames: Int
    private let blockDuration: Double
    /// Band of bins kept (`bandStart..<bandStart + bandWidth`), bins matched (`low...high`).
    private let bandStart: Int
    private let bandWidth: Int
    private let low: Int
    private let high: Int
    private let pulses: Int
    // Templates (period hypotheses), flat: per template `segmentStride` block offsets back from the
    // newest boundary (per beep start, middle and end of its inner part; per silence start and
    // end: the ghost beep and silence before the group, the silences between its beeps, the
    // silence and ghost beep after it) and `scaleStride` reciprocal frame counts (per half beep,
    // per silence, then all on-frames and all off-frames).
    private let templateCount: Int
    private let silences: Int
    private let segmentStride: Int
    private let scaleStride: Int
    private let segments: UnsafeMutablePointer<Int>
    /// The rows of `segments`, resolved at each evaluation.
    private let templateRows: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let scales: UnsafeMutablePointer<Float>
    private let periods: UnsafeMutablePointer<Double>
    private let onDurations: UnsafeMutablePointer<Double>
    /// Blocks from the newest boundary back to the last beep's onset (the same in every template).
    private let lastOnsetBack: Int
    // The gate: the last two beeps and the silences after them, where every template has them
    // (back offsets: start, end of each), and reciprocal frame counts of the beeps and silences.
    private let gateSegments: [Int]
    private let gateOnScale: Float
    private let gateOffScale: Float
    /// The gate's mean beep and silence power per band bin (8 bins of padding on each side).
    private let gateOn: UnsafeMutablePointer<Float>
    private let gateOff: UnsafeMutablePointer<Float>
    private let gateOnStorage: UnsafeMutablePointer<Float>
    private let gateOffStorage: UnsafeMutablePointer<Float>
    /// The gate's beeps over the sum of the six neighbouring bins' (linear; 0.5 dB below ``prominence``, over 6).
    private let gateProminence: Float
    /// Cumulative block sums, `ringBlocks` rows of `bandWidth`.
    private let cumulative: UnsafeMutablePointer<Float>
    private let ringBlocks: Int
    private let oldestBack: Int
    private var newestRow = 0
    private var blocksSeen = 0
    private let accumulator: UnsafeMutablePointer<Float>
    private var framesInBlock = 0
    /// Per-frame band power, `ringFrames` rows.
    private let frames: UnsafeMutablePointer<Float>
    private let ringFrames: Int
    private var newestFrame = -1
    private var framesSeen = 0
    /// Media time of the newest block boundary (the end of the newest block) and of the newest frame.
    private var boundaryTime = 0.0
    private var frameTimeNewest = 0.0
    /// The best alignment of one bin so far (`score` 0: none), and until when (first onset) the
    /// bin stays quiet after reporting a group.
    private struct Candidate {
        var score: Float = 0
        var firstOnset = 0.0
        var template = 0
        var prominence: Float = 0
        var frequency = 0.0
        var block = 0
        var quietUntil = -Double.infinity
    }

    // Per bin: the best candidate alignment so far.
    private let best: UnsafeMutablePointer<Candidate>
    private var candidates = 0

    /// Mean on-power over mean off-power (dB) needed at medium sensitivity: long beeps (T3)
    /// integrate about 100 frames of tone, short ones (T4) about 17.
    static let contrastLongDB = 3.5
    static let contrastShortDB = 5.0
    /// Mean on-power over the neighbouring bins' (dB) needed at medium sensitivity.
    static let prominenceLongDB = 3.0
    static let prominenceShortDB = 3.5

    /// A matcher for `pattern` on frames of `configuration`, matching bins `lowBin...highBin`.
    /// - Parameters:
    ///   - tolerance: relative timing tolerance; period hypotheses cover ±tolerance (at most ±8 %
    ///     for long beeps, ±6 % for short ones, with the template margins covering the rest).
    ///   - thresholdShiftDB: added to the contrast and prominence thresholds (sensitivity).
    init(
        pattern: AlarmPattern, configuration: STFTConfiguration, lowBin: Int, highBin: Int, tolerance: Double,
        thresholdShiftDB: Double = 0
    ) {
        self.pattern = pattern
        hop = configuration.hopDuration
        binWidth = configuration.binWidth
        // Bins lowBin - 6 ... highBin + 6 (neighbours included), a multiple of 8 bins inside the frame.
        let bandWidth = min((highBin - lowBin + 13 + 7) / 8 * 8, configuration.binCount / 8 * 8)
        let bandStart = max(0, min(lowBin - 6, configuration.binCount - bandWidth))
        self.bandStart = bandStart
        self.bandWidth = bandWidth
        low = max(lowBin, bandStart + 5)
        high = min(highBin, bandStart + bandWidth - 6)
        let hop = configuration.hopDuration
        let longBeeps = pattern.onDuration >= 0.3
        let contrastDB = (longBeeps ? Self.contrastLongDB : Self.contrastShortDB) + thresholdShiftDB
        let prominenceDB = (longBeeps ? Self.prominenceLongDB : Self.prominenceShortDB) + thresholdShiftDB
        contrast = Float(pow(10, contrastDB / 10))
        prominence = Float(pow(10, prominenceDB / 10))
        halves = pattern.onDuration >= 0.3
        beepSpread = 0.4
        gateProminence = Float(pow(10, (prominenceDB - 0.5) / 10)) / 6
        gate = Float(pow(10, (contrastDB - 1) / 10))
        nearContrast = Float(pow(10, (contrastDB - 2) / 10))
        let n = pattern.pulses
        pulses = n
        let blockFrames = max(1, Int((pattern.onDuration / (longBeeps ? 8 : 5) / hop).rounded()))
        let blockDuration = Double(blockFrames) * hop
        self.blockFrames = blockFrames
        self.blockDuration = blockDuration
        // Inner parts: a margin of 15 % (long beeps) or 25 % (short) of each beep and silence is
        // left out at both ends (timing tolerance, reverberant tails, the STFT's frame length).
        let margin = longBeeps ? 0.15 : 0.25
        let steps = longBeeps ? [1.0, 0.92, 0.96, 1.04, 1.08] : [1.0, 0.94, 1.06]
        let factors = steps.filter { abs($0 - 1) <= max(tolerance, 0.001) }
        templateCount = factors.count
        silences = n + 3
        segmentStride = 3 * n + 2 * silences
        scaleStride = 3 * n + silences + 2
        // Positions in blocks relative to the last beep's onset.
        var positions: [[Int]] = []
        var lastEnd = 0
        for scale in factors {
            let p = pattern.period * scale
            let d = pattern.onDuration * scale
            let g = p - d
            func block(_ x: Double) -> Int { Int(((x - Double(n - 1) * p) / blockDuration).rounded()) }
            var row: [Int] = []
            for k in 0..<n {
                let base = Double(k) * p
                let start = block(base + margin * d)
                let end = max(block(base + (1 - margin) * d), start + 2)
                row += [start, (start + end) / 2, end]
            }
            func silence(_ a: Double, _ b: Double) {
                let start = block(a)
                row += [start, max(block(b), start + 1)]
            }
            silence(-p + margin * d, -p + (1 - margin) * d)  // ghost beep before
            silence(-p + d + margin * g, -margin * g)  // silence before
            for k in 0..<(n - 1) { silence(Double(k) * p + d + margin * g, Double(k + 1) * p - margin * g) }
            silence(Double(n - 1) * p + d + margin * g, Double(n) * p - margin * g)  // silence after
            silence(Double(n) * p + margin * d, Double(n) * p + (1 - margin) * d)  // ghost beep after
            lastEnd = max(lastEnd, row.last!)
            positions.append(row)
        }
        segments = .allocate(capacity: templateCount * segmentStride)
        templateRows = .allocate(capacity: templateCount * segmentStride)
        scales = .allocate(capacity: templateCount * scaleStride)
        periods = .allocate(capacity: templateCount)
        onDurations = .allocate(capacity: templateCount)
        var oldest = 0
        for (t, row) in positions.enumerated() {
            periods[t] = pattern.period * factors[t]
            onDurations[t] = pattern.onDuration * factors[t]
            for (i, x) in row.enumerated() {
                segments[t * segmentStride + i] = lastEnd - x
                oldest = max(oldest, lastEnd - x)
            }
            let sc = scales + t * scaleStride
            var onFrames = 0
            var offFrames = 0
            for k in 0..<n {
                let a = (row[3 * k + 1] - row[3 * k]) * blockFrames
                let b = (row[3 * k + 2] - row[3 * k + 1]) * blockFrames
                sc[2 * k] = 1 / Float(a)
                sc[2 * k + 1] = 1 / Float(b)
                sc[2 * n + silences + 2 + k] = 1 / Float(a + b)
                onFrames += a + b
            }
            for j in 0..<silences {
                let f = (row[3 * n + 2 * j + 1] - row[3 * n + 2 * j]) * blockFrames
                sc[2 * n + j] = 1 / Float(f)
                offFrames += f
            }
            sc[2 * n + silences] = 1 / Float(onFrames)
            sc[2 * n + silences + 1] = 1 / Float(offFrames)
        }
        lastOnsetBack = lastEnd
        // The gate's segments: the parts of the last two beeps and of the silences after them
        // that every template shares.
        func shared(_ i: Int, _ j: Int) -> (start: Int, end: Int) {
            let start = positions.map { $0[i] }.max()!
            let end = positions.map { $0[j] }.min()!
            return end > start ? (lastEnd - start, lastEnd - end) : (lastEnd - positions[0][i], lastEnd - positions[0][j])
        }
        let lastBeep = shared(3 * (n - 1), 3 * (n - 1) + 2)
        let previousBeep = shared(3 * (n - 2), 3 * (n - 2) + 2)
        let lastGap = shared(3 * n + 2 * (silences - 3), 3 * n + 2 * (silences - 3) + 1)
        let afterGap = shared(3 * n + 2 * (silences - 2), 3 * n + 2 * (silences - 2) + 1)
        gateSegments = [
            lastBeep.start, lastBeep.end, previousBeep.start, previousBeep.end,
            lastGap.start, lastGap.end, afterGap.start, afterGap.end,
        ]
        gateOnScale = 1 / Float((lastBeep.start - lastBeep.end + previousBeep.start - previousBeep.end) * blockFrames)
        gateOffScale = 1 / Float((lastGap.start - lastGap.end + afterGap.start - afterGap.end) * blockFrames)
        oldestBack = oldest
        gateOnStorage = .allocate(capacity: bandWidth + 16)
        gateOnStorage.initialize(repeating: 0, count: bandWidth + 16)
        gateOffStorage = .allocate(capacity: bandWidth + 16)
        gateOffStorage.initialize(repeating: 0, count: bandWidth + 16)
        gateOn = gateOnStorage + 8
        gateOff = gateOffStorage + 8
        ringBlocks = oldest + 2
        cumulative = .allocate(capacity: ringBlocks * bandWidth)
        cumulative.initialize(repeating: 0, count: ringBlocks * bandWidth)
        accumulator = .allocate(capacity: bandWidth)
        accumulator.initialize(repeating: 0, count: bandWidth)
        ringFrames = (oldest + 4) * blockFrames + 4
        frames = .allocate(capacity: ringFrames * bandWidth)
        frames.initialize(repeating: 0, count: ringFrames * bandWidth)
        best = .allocate(capacity: bandWidth)
        best.initialize(repeating: Candidate(), count: bandWidth)
    }

    deinit {
        gateOnStorage.deallocate()
        gateOffStorage.deallocate()
        segments.deallocate()
        templateRows.deallocate()
        scales.deallocate()
        periods.deallocate()
        onDurations.deallocate()
        cumulative.deallocate()
        accumulator.deallocate()
        frames.deallocate()
        best.deinitialize(count: bandWidth)
        best.deallocate()
    }

    @inline(__always) private func load(_ p: UnsafePointer<Float>, _ k: Int) -> SIMD8<Float> {
        UnsafeRawPointer(p + k).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always) private func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>, _ k: Int) {
        UnsafeMutableRawPointer(p + k).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    // `pointwiseMin`/`pointwiseMax` are not inlined here (a call and scalar lanes); a select is.
    @inline(__always) private func vmin(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .< a)
    }

    @inline(__always) private func vmax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .> a)
    }

    /// The row of cumulative sums `back` blocks before the newest boundary.
    @inline(__always) private func row(_ back: Int) -> UnsafeMutablePointer<Float> {
        var r = newestRow - back
        if r < 0 { r += ringBlocks }
        return cumulative + r * bandWidth
    }

    /// Mean power of 8 bins from `k` over the segment `start`...`end` blocks back (frames scale).
    @inline(__always) private func mean(_ start: Int, _ end: Int, _ scale: Float, _ k: Int) -> SIMD8<Float> {
        vmax((load(row(end), k) - load(row(start), k)) * scale, SIMD8<Float>())
    }

    /// Adds one frame (`raw`: the whole frame's power; `time`: its centre) and appends the groups
    /// that were matched and can no longer improve.
    func process(_ raw: UnsafePointer<Float>, time: Double, into matches: inout [Match]) {
        let w = bandWidth
        let source = raw + bandStart
        newestFrame = newestFrame + 1 == ringFrames ? 0 : newestFrame + 1
        framesSeen += 1
        frameTimeNewest = time
        (frames + newestFrame * w).update(from: source, count: w)
        var k = 0
        while k < w {
            store(load(accumulator, k) + load(source, k), accumulator, k)
            k += 8
        }
        framesInBlock += 1
        guard framesInBlock == blockFrames else { return }
        framesInBlock = 0
        // Close the block: a new row of cumulative sums.
        let previous = cumulative + newestRow * w
        if newestRow + 1 == ringBlocks {
            // Rebase once per ring turn: subtract the newest complete row from every row.
            for r in 0..<ringBlocks where r != newestRow {
                let p = cumulative + r * w
                k = 0
                while k < w {
                    store(load(p, k) - load(previous, k), p, k)
                    k += 8
                }
            }
            previous.update(repeating: 0, count: w)
        }
        newestRow = newestRow + 1 == ringBlocks ? 0 : newestRow + 1
        let next = cumulative + newestRow * w
        k = 0
        while k < w {
            store(load(previous, k) + load(accumulator, k), next, k)
            store(SIMD8<Float>(), accumulator, k)
            k += 8
        }
        blocksSeen += 1
        boundaryTime = time + 0.5 * hop
        if blocksSeen > oldestBack { evaluate() }
        if candidates > 0 { settle(into: &matches) }
    }

    /// Reports the pending candidates (end of the stream).
    func finish(into matches: inout [Match]) {
        guard candidates > 0 else { return }
        for m in (low - bandStart)...(high - bandStart) where best[m].score > 0 { emit(m, into: &matches) }
    }

    /// Mean power of the group's beeps (template `t`) in band bin `m`.
    private func groupOnMean(_ m: Int, _ t: Int) -> Float {
        let seg = segments + t * segmentStride
        var total: Float = 0
        for i in 0..<pulses { total += row(seg[3 * i + 2])[m] - row(seg[3 * i])[m] }
        return max(total * scales[t * scaleStride + 2 * pulses + silences], 0)
    }

    /// Mean power of the group's silences (template `t`) in band bin `m`.
    private func groupOffMean(_ m: Int, _ t: Int) -> Float {
        let seg = segments + t * segmentStride + 3 * pulses
        var total: Float = 0
        for j in 0..<silences { total += row(seg[2 * j + 1])[m] - row(seg[2 * j])[m] }
        return max(total * scales[t * scaleStride + 2 * pulses + silences + 1], 0)
    }

    private func evaluate() {
        let lo = low - bandStart
        let hi = high - bandStart
        let n = pulses
        // Row pointers are resolved once per evaluation, not per 8 bins.
        let g = gateSegments
        let (a0, a1, b0, b1) = (row(g[0]), row(g[1]), row(g[2]), row(g[3]))
        let (c0, c1, d0, d1) = (row(g[4]), row(g[5]), row(g[6]), row(g[7]))
        let zero = SIMD8<Float>()
        var k = 0
        while k < bandWidth {
            let on = vmax(load(a1, k) - load(a0, k), zero) + vmax(load(b1, k) - load(b0, k), zero)
            let off = vmax(load(c1, k) - load(c0, k), zero) + vmax(load(d1, k) - load(d0, k), zero)
            store(on * gateOnScale, gateOn, k)
            store(off * gateOffScale, gateOff, k)
            k += 8
        }
        var resolved = 0  // bit t: the rows of template t are in `templateRows`
        k = lo & ~7
        while k <= hi {
            defer { k += 8 }
            // The gate: the last two beeps against the silences after them and against the
            // neighbouring bins.
            let on = load(gateOn, k)
            let neighbours =
                load(gateOn, k - 5) + load(gateOn, k - 4) + load(gateOn, k - 3)
                + load(gateOn, k + 3) + load(gateOn, k + 4) + load(gateOn, k + 5)
            guard any((on .> gate * load(gateOff, k)) .& (on .> gateProminence * neighbours)) else { continue }
            for t in 0..<templateCount {
                let seg = templateRows + t * segmentStride
                if resolved & (1 << t) == 0 {
                    resolved |= 1 << t
                    for i in 0..<segmentStride { seg[i] = row(segments[t * segmentStride + i]) }
                }
                let sc = scales + t * scaleStride
                var onSum = SIMD8<Float>()
                var minHalf = SIMD8<Float>(repeating: .greatestFiniteMagnitude)
                var maxHalf = SIMD8<Float>()
                for i in 0..<n {
                    let s = load(seg[3 * i], k)
                    let mid = load(seg[3 * i + 1], k)
                    let e = load(seg[3 * i + 2], k)
                    let first = vmax(mid - s, SIMD8<Float>())
                    let second = vmax(e - mid, SIMD8<Float>())
                    onSum += first + second
                    if halves {
                        let h1 = first * sc[2 * i]
                        let h2 = second * sc[2 * i + 1]
                        minHalf = vmin(minHalf, vmin(h1, h2))
                        maxHalf = vmax(maxHalf, vmax(h1, h2))
                    } else {
                        let whole = (first + second) * sc[2 * n + silences + 2 + i]
                        minHalf = vmin(minHalf, whole)
                        maxHalf = vmax(maxHalf, whole)
                    }
                }
                var offSum = SIMD8<Float>()
                var maxOff = SIMD8<Float>()
                var minOff = SIMD8<Float>(repeating: .greatestFiniteMagnitude)
                for j in 0..<silences {
                    let v = vmax(load(seg[3 * n + 2 * j + 1], k) - load(seg[3 * n + 2 * j], k), zero)
                    offSum += v
                    let mean = v * sc[2 * n + j]
                    maxOff = vmax(maxOff, mean)
                    minOff = vmin(minOff, mean)
                }
                let a = onSum * sc[2 * n + silences]
                let o = vmax(offSum * sc[2 * n + silences + 1], SIMD8<Float>(repeating: 1e-30))
                // The nominal template (first) comes close wherever another one matches.
                if t == 0 && !any(a .> nearContrast * o) { break }
                // Every silence near the quietest one (no beep before, between or after the
                // group), every half beep well above it.
                // Beeps of one level (a steady alarm, not notes of changing loudness).
                var pass = (a .> contrast * o) .& (maxOff - minOff .< silenceSpread * (minHalf - minOff))
                if halves { pass .&= minHalf - minOff .> beepSpread * (maxHalf - minOff) }
                guard any(pass) else { continue }
                for l in 0..<8 where pass[l] && k + l >= lo && k + l <= hi {
                    consider(k + l, template: t, onMean: a[l], offMean: o[l])
                }
            }
        }
    }

    /// A bin whose template `t` passed: checks it is a prominent local peak and keeps the best alignment.
    private func consider(_ m: Int, template t: Int, onMean a: Float, offMean o: Float) {
        let firstOnset = boundaryTime - (Double(lastOnsetBack) * blockDuration + Double(pulses - 1) * periods[t])
        guard firstOnset >= best[m].quietUntil else { return }
        let below = groupOnMean(m - 1, t)
        let above = groupOnMean(m + 1, t)
        guard a >= below && a > above else { return }
        var neighbours: Float = 0
        var neighboursOff: Float = 0
        for j in [-5, -4, -3, 3, 4, 5] {
            neighbours += groupOnMean(m + j, t)
            neighboursOff += groupOffMean(m + j, t)
        }
        let prominent = a / max(neighbours / 6, 1e-30)
        guard prominent >= prominence else { return }
        // A tone's beeps raise its own bin, not the neighbouring ones (music notes and voices,
        // wide or gliding, raise them too).
        guard a - o >= tonality * max(neighbours - neighboursOff, 0) / 6 else { return }
        let score = a / o
        guard score > best[m].score else { return }
        if best[m].score == 0 { candidates += 1 }
        best[m].score = score
        best[m].firstOnset = firstOnset
        best[m].template = t
        best[m].prominence = prominent
        let la = log(Double(max(below, 1e-30)))
        let lb = log(Double(max(a, 1e-30)))
        let lc = log(Double(max(above, 1e-30)))
        let denominator = la - 2 * lb + lc
        let delta = denominator < 0 ? min(max(0.5 * (la - lc) / denominator, -0.5), 0.5) : 0
        best[m].frequency = (Double(m + bandStart) + delta) * binWidth
        best[m].block = blocksSeen
    }

    /// Reports the candidates that have not improved for a tenth of the period (the strongest of
    /// each neighbourhood).
    private func settle(into matches: inout [Match]) {
        let lo = low - bandStart
        let hi = high - bandStart
        let wait = max(2, Int((0.1 * pattern.period / blockDuration).rounded(.up)))
        for m in lo...hi where best[m].score > 0 && blocksSeen - best[m].block >= wait {
            var strongest = true
            for j in max(lo, m - 2)...min(hi, m + 2) where j != m && best[j].score > best[m].score { strongest = false }
            if strongest { emit(m, into: &matches) } else { clear(m) }
        }
    }

    private func clear(_ m: Int) {
        best[m].score = 0
        candidates -= 1
    }
    /// Measures the beeps of bin `m`'s best alignment and appends the match.
    private func emit(_ m: Int, into matches: inout [Match]) {
        let period = periods[best[m].template]
        let d = onDurations[best[m].template]
        let u0 = best[m].firstOnset
        var match = Match()
        match.count = pattern.pulses
        match.frequency = best[m].frequency
        match.prominence = best[m].prominence
        match.contrast = best[m].score
        // Levels from the per-frame ring: the bin (with its louder neighbour: a tone between two
        // bins) smoothed over 3 frames.
        let g = period - d
        var onLevel: Float = 0
        var offLevel: Float = 0
        var onCount: Float = 0
        var offCount: Float = 0
        for k in 0..<pattern.pulses {
            let base = u0 + Double(k) * period
            var x = base + 0.2 * d
            while x <= base + 0.8 * d {
                onLevel += power(bin: m, at: x)
                onCount += 1
                x += hop
            }
            x = base + d + 0.2 * g
            while x <= base + period - 0.2 * g && k < pattern.pulses - 1 {
                offLevel += power(bin: m, at: x)
                offCount += 1
                x += hop
            }
        }
        onLevel /= max(onCount, 1)
        offLevel = offCount > 0 ? offLevel / offCount : 0
        let middle = 0.5 * (onLevel + offLevel)
        // Change points: the onset maximises the sum of (level - middle) from it to the beep's
        // inner part; the offset, from the inner part to it.
        let reach = 0.45 * min(d, g)
        for k in 0..<pattern.pulses {
            let base = u0 + Double(k) * period
            var bestOnset = base
            var bestValue = -Float.greatestFiniteMagnitude
            var sum: Float = 0
            var x = base + 0.3 * d
            while x >= base - reach {
                sum += power(bin: m, at: x) - middle
                if sum > bestValue {
                    bestValue = sum
                    bestOnset = x - 0.5 * hop
                }
                x -= hop
            }
            var bestOffset = base + d
            bestValue = -Float.greatestFiniteMagnitude
            sum = 0
            x = base + 0.7 * d
            while x <= base + d + reach {
                sum += power(bin: m, at: x) - middle
                if sum > bestValue {
                    bestValue = sum
                    bestOffset = x + 0.5 * hop
                }
                x += hop
            }
            match.onsets[k] = bestOnset
            match.offsets[k] = bestOffset
        }
        matches.append(match)
        // The group is reported once: no other alignment of it in this neighbourhood.
        let last = u0 + Double(pattern.pulses - 1) * period + d
        let lo = low - bandStart
        let hi = high - bandStart
        for n in max(lo, m - 2)...min(hi, m + 2) {
            best[n].quietUntil = max(best[n].quietUntil, last)
            if best[n].score > 0 { clear(n) }
        }
    }

    /// The power of bin `m` (band index) and its louder neighbour, averaged over the 3 frames
    /// around media time `time` (clamped to the frames kept).
    private func power(bin m: Int, at time: Double) -> Float {
        let back = Int(((frameTimeNewest - time) / hop).rounded())
        let available = min(framesSeen, ringFrames) - 2
        let c = min(max(back, 1), max(available, 1))
        var total: Float = 0
        for j in (c - 1)...(c + 1) {
            var r = newestFrame - j
            if r < 0 { r += ringFrames }
            let p = frames + r * bandWidth
            total += p[m] + max(p[m - 1], p[m + 1])
        }
        return total / 3
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
