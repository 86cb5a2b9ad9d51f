import VigilCore
import VigilDSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The feature definition shared by the extractor and every model file. A model whose
/// `featureSpec` differs from ``FeatureSpec/current`` is rejected.
public struct FeatureSpec: Sendable, Hashable {
    /// Name of the feature set.
    public var name: String = "vigil-sound-features"
    /// Version of the feature set (bump on any change of the computation).
    public var version: Int = 4
    /// Mel bands.
    public var melBands: Int = 32
    /// Lowest band edge (Hz).
    public var minFrequency: Double = 50
    /// Highest band edge (Hz); bands above Nyquist stay empty.
    public var maxFrequency: Double = 16_000
    /// Spectral-shape bands reach up to this frequency (their centres; and below 95 % of Nyquist):
    /// the shape is each band's log energy minus the mean over these bands, so it does not depend
    /// on the sample rate as long as the rate reaches this frequency.
    public var shapeMaxFrequency: Double = 8_000
    /// Long pooling window (seconds, centred on the decision frame).
    public var longWindowSeconds: Double = 0.75
    /// Short pooling window (seconds, centred).
    public var shortWindowSeconds: Double = 0.2
    /// Window of the syllable-rate modulation measure (seconds, centred).
    public var modulationWindowSeconds: Double = 1.0
    /// Frames between decisions.
    public var decisionStride: Int = 4
    /// The per-band background floor is the minimum of the 3-frame smoothed log band energy over
    /// this trailing window (seconds; minimum statistics, in blocks of 8 frames).
    public var floorWindowSeconds: Double = 1.5
    /// Burst window: the burst values describe the most active frame (largest mean relative band
    /// level) within this many seconds of the decision's centre.
    public var burstHalfSeconds: Double = 0.15

    /// The feature set this build computes.
    public static let current = FeatureSpec()

    /// Values per frame in the pooled statistics (rel bands + 9 scalars).
    public var frameValues: Int { melBands + 9 }
    /// Length of a decision vector: long mean, long std, short mean, 6 maxima, 1 modulation, the
    /// activity-weighted long mean of the spectral shape (one value per band), and 7 burst values.
    public var dimension: Int { frameValues * 3 + 6 + 1 + melBands + 7 }

    /// Creates the current spec.
    public init() {}

    /// JSON form written into model files.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("name", .string(name)), ("version", .number(Double(version))),
                ("melBands", .number(Double(melBands))), ("minFrequency", .number(minFrequency)),
                ("maxFrequency", .number(maxFrequency)), ("shapeMaxFrequency", .number(shapeMaxFrequency)),
                ("longWindowSeconds", .number(longWindowSeconds)),
                ("shortWindowSeconds", .number(shortWindowSeconds)),
                ("modulationWindowSeconds", .number(modulationWindowSeconds)),
                ("decisionStride", .number(Double(decisionStride))),
                ("floorWindowSeconds", .number(floorWindowSeconds)),
                ("burstHalfSeconds", .number(burstHalfSeconds)),
                ("dimension", .number(Double(dimension))),
            ]))
    }

    /// Names of the decision vector's components (for model cards and debugging).
    public var componentNames: [String] {
        let frame =
            (0..<melBands).map { "rel\($0)" } + [
                "level", "flux", "lowFlux", "centroid", "flatness", "harmonicity", "hfRatio", "lfRatio", "speechRatio",
            ]
        return frame.map { "mean." + $0 } + frame.map { "std." + $0 } + frame.map { "short." + $0 }
            + ["max.level", "max.flux", "max.lowFlux", "max.harmonicity", "max.hfRatio", "max.meanRel", "mod4Hz"]
            + (0..<melBands).map { "shape\($0)" }
            + [
                "burst.activity", "burst.flatness", "burst.harmonicity", "burst.lfRatio", "burst.speechRatio", "burst.width",
                "burst.harmonicityMean",
            ]
    }
}

/// One pooled feature vector, centred on an STFT frame.
public struct FeatureWindow {
    /// Frame index of the centre.
    public let centerIndex: Int
    /// Media time of the centre frame (seconds).
    public let centerTime: Double
    /// Media time at which the vector became available (the newest frame's centre).
    public let availableTime: Double
    /// The vector (``FeatureSpec/dimension`` values), valid during the callback only.
    public let vector: UnsafeBufferPointer<Float>
}

/// Streaming feature extraction on STFT frames (those a model names, ``FeatureFrames``): per-frame measurements, a per-band
/// background floor, spectral flux, and pooling over centred windows into decision vectors
/// every ``FeatureSpec/decisionStride`` frames (latency: half the modulation window).
///
/// Per-frame columns: floor-relative log mel bands, level, flux, low-band flux (< 1 kHz),
/// centroid, flatness, harmonicity, fraction above 4.5 kHz, below 500 Hz, in 300-3400 Hz; three
/// auxiliary columns (mean relative band level, speech-band log energy, largest relative band
/// level); and the frame's spectral shape (each band's log energy minus the mean over the bands
/// below ``FeatureSpec/shapeMaxFrequency``; 0 for the bands above), which the decision vector
/// pools as a mean weighted by the frame's activity (its mean relative band level above the
/// background, + 0.001): the spectral envelope of the sound itself, independent of its level and
/// little affected by the quiet frames around it.
public final class SoundFeatureExtractor {
    /// The feature definition.
    public let spec: FeatureSpec
    /// The STFT configuration.
    public let configuration: STFTConfiguration
    /// Per-frame measurements of the newest frame.
    public let measurements: FrameMeasurements

    let columns: Int
    let capacity: Int
    let longHalf: Int
    let shortHalf: Int
    let modHalf: Int
    let burstHalf: Int
    /// Frames between a centre and the newest frame needed to pool it.
    public let latency: Int
    private var ring: [Float]
    private var floor: [Float]
    private var previous: [Float]
    private var output: [Float]
    private var modSeries: [Float]
    private let modCos: [[Float]]
    private let modSin: [[Float]]
    private let lowFluxBands: Int
    private let shapeBands: Int
    private var smooth1: [Float]
    private var smooth2: [Float]
    private var blockMin: [Float]  // blocks x bands, ring
    private var olderMin: [Float]  // min over the completed blocks in the window
    private let blockFrames = 8
    private let blockCount: Int
    private var blocksDone = 0
    private let hop: Double
    /// Index of the newest frame processed (-1 before the first).
    public private(set) var newestIndex = -1
    private var nextCenter = 0
    /// The newest frame's column values (``FeatureSpec/frameValues`` + 3 + ``FeatureSpec/melBands``
    /// values: the pooled columns, then mean relative band level, speech-band log energy, largest
    /// relative band level, then the spectral shape).
    public var newestColumns: ArraySlice<Float> {
        let r = (newestIndex & (capacity - 1)) * columns
        return ring[r..<(r + columns)]
    }
    /// Decisions emitted by the newest ``process(_:_:)`` call, and by ``finish(_:)``.
    public private(set) var emittedCount = 0

    /// Creates an extractor for frames of `configuration`.
    public init(configuration: STFTConfiguration, spec: FeatureSpec = .current) {
        self.spec = spec
        self.configuration = configuration
        measurements = FrameMeasurements(configuration: configuration, spec: spec)
        hop = configuration.hopDuration
        columns = spec.frameValues + 3 + spec.melBands
        let nyquist = configuration.sampleRate / 2
        shapeBands = max(1, measurements.bank.centers.filter { $0 < min(spec.shapeMaxFrequency, 0.95 * nyquist) }.count)
        longHalf = max(1, Int((spec.longWindowSeconds / 2 / hop).rounded()))
        shortHalf = max(1, Int((spec.shortWindowSeconds / 2 / hop).rounded()))
        modHalf = max(longHalf, Int((spec.modulationWindowSeconds / 2 / hop).rounded()))
        latency = modHalf
        burstHalf = max(1, Int((spec.burstHalfSeconds / hop).rounded()))
        var cap = 1
        while cap < 2 * modHalf + 2 { cap *= 2 }
        capacity = cap
        ring = [Float](repeating: 0, count: cap * columns)
        floor = [Float](repeating: 0, count: spec.melBands)
        previous = [Float](repeating: 0, count: spec.melBands)
        output = [Float](repeating: 0, count: spec.dimension)
        modSeries = [Float](repeating: 0, count: 2 * modHalf + 1)
        let centers = measurements.bank.centers
        lowFluxBands = max(1, centers.filter { $0 < 1000 }.count)
        blockCount = max(1, Int((spec.floorWindowSeconds / (hop * 8)).rounded(.up)))
        smooth1 = [Float](repeating: 0, count: spec.melBands)
        smooth2 = [Float](repeating: 0, count: spec.melBands)
        blockMin = [Float](repeating: .greatestFiniteMagnitude, count: blockCount * spec.melBands)
        olderMin = [Float](repeating: .greatestFiniteMagnitude, count: spec.melBands)
        // DFT rows at 3, 4, 5 and 6 Hz over the modulation window (time in frames).
        let frameRate = 1 / hop
        var c: [[Float]] = []
        var s: [[Float]] = []
        for f in [3.0, 4.0, 5.0, 6.0] {
            let w = 2 * Double.pi * f / frameRate
            c.append((0..<(2 * modHalf + 1)).map { Float(cos(w * Double($0))) })
            s.append((0..<(2 * modHalf + 1)).map { Float(sin(w * Double($0))) })
        }
        modCos = c
        modSin = s
    }

    /// Frame time of frame `index` (its centre).
    public func centerTime(ofFrame index: Int) -> Double {
        (Double(index * configuration.hopSize) + Double(configuration.windowSize) / 2) / configuration.sampleRate
    }

    /// Consumes `frame` (frames must arrive in order); calls `body` for a decision vector if one
    /// is due. Returns whether one was emitted.
    @discardableResult
    public func process(_ frame: SpectralFrame, _ body: (FeatureWindow) -> Void) -> Bool {
        measurements.measure(frame)
        append(measurements.values)
        emittedCount = 0
        let center = newestIndex - latency
        if center >= nextCenter {
            emit(center: center, body)
            return true
        }
        return false
    }

    /// End of stream: emits the remaining decisions with windows clipped at the end.
    public func finish(_ body: (FeatureWindow) -> Void) {
        emittedCount = 0
        while nextCenter <= newestIndex {
            emit(center: nextCenter, body)
        }
    }

    private func append(_ m: [Float]) {
        let nBands = spec.melBands
        let first = newestIndex < 0
        newestIndex += 1
        let row = (newestIndex & (capacity - 1)) * columns
        let block = (newestIndex / blockFrames) % blockCount
        let blockStart = newestIndex % blockFrames == 0
        if blockStart && newestIndex > 0 {
            // The previous block completed: recompute the minimum over completed blocks, then
            // reuse the oldest block's slot for the new one.
            blocksDone += 1
            blockMin.withUnsafeMutableBufferPointer { bm in
                olderMin.withUnsafeMutableBufferPointer { om in
                    for b in 0..<nBands { bm[block * nBands + b] = .greatestFiniteMagnitude }
                    for b in 0..<nBands {
                        var v = Float.greatestFiniteMagnitude
                        for k in 0..<blockCount where k != block { v = min(v, bm[k * nBands + b]) }
                        om[b] = v
                    }
                }
            }
        }
        m.withUnsafeBufferPointer { m in
            floor.withUnsafeMutableBufferPointer { fl in
                previous.withUnsafeMutableBufferPointer { prev in
                    smooth1.withUnsafeMutableBufferPointer { s1 in
                        smooth2.withUnsafeMutableBufferPointer { s2 in
                            blockMin.withUnsafeMutableBufferPointer { bm in
                                olderMin.withUnsafeBufferPointer { om in
                                    ring.withUnsafeMutableBufferPointer { r in
                                        var flux: Float = 0
                                        var lowFlux: Float = 0
                                        var relSum: Float = 0
                                        var relMax: Float = -10
                                        for b in 0..<nBands {
                                            let x = m[b]
                                            if first {
                                                prev[b] = x
                                                s1[b] = x
                                                s2[b] = x
                                            }
                                            let sm = (x + s1[b] + s2[b]) / 3
                                            s2[b] = s1[b]
                                            s1[b] = x
                                            let slot = block * nBands + b
                                            bm[slot] = min(bm[slot], sm)
                                            fl[b] = min(om[b], bm[slot])
                                            let rel = x - fl[b]
                                            r[row + b] = rel
                                            relSum += rel
                                            relMax = max(relMax, rel)
                                            let d = max(0, x - prev[b])
                                            flux += d
                                            if b < lowFluxBands { lowFlux += d }
                                            prev[b] = x
                                        }
                                        let o = row + nBands
                                        r[o] = m[nBands]  // level
                                        r[o + 1] = flux / Float(nBands)
                                        r[o + 2] = lowFlux / Float(lowFluxBands)
                                        r[o + 3] = m[nBands + 1]  // centroid
                                        r[o + 4] = m[nBands + 2]  // flatness
                                        r[o + 5] = m[nBands + 3]  // harmonicity
                                        r[o + 6] = m[nBands + 4]  // hf ratio
                                        r[o + 7] = m[nBands + 5]  // lf ratio
                                        r[o + 8] = m[nBands + 6]  // speech ratio
                                        r[o + 9] = relSum / Float(nBands)  // aux: mean relative level
                                        r[o + 10] = m[nBands + 7]  // aux: speech-band log energy
                                        r[o + 11] = relMax  // aux: largest relative band level
                                        // Spectral shape: log band energy minus the mean over the shape bands.
                                        let sh = o + 12
                                        var shapeMean: Float = 0
                                        for b in 0..<shapeBands { shapeMean += m[b] }
                                        shapeMean /= Float(shapeBands)
                                        for b in 0..<nBands { r[sh + b] = b < shapeBands ? m[b] - shapeMean : 0 }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The 7 burst values into `e`, from the most active frame (largest mean relative band level)
    /// within ±``FeatureSpec/burstHalfSeconds`` of `center`: its mean relative band level,
    /// flatness, harmonicity, and energy shares below 500 Hz and in 300-3400 Hz; the burst's width
    /// (seconds of contiguous frames around it within 0.5, i.e. 5 dB, of its level, looked for up to
    /// twice the window on each side); and the activity-weighted mean harmonicity over the window.
    /// A bark is a short loud burst with harmonic and noisy parts: these describe the burst itself,
    /// where the pooled statistics mix it with the pauses and the background around it.
    private func burst(center: Int, _ r: UnsafeBufferPointer<Float>, _ e: UnsafeMutablePointer<Float>) {
        let nb = spec.melBands
        let cols = columns
        let mask = capacity - 1
        let act = nb + 9
        let oldest = max(0, newestIndex - capacity + 1)
        let lo = max(oldest, center - burstHalf)
        let hi = min(newestIndex, center + burstHalf)
        var peak = lo
        var peakActivity = -Float.greatestFiniteMagnitude
        var weightSum: Float = 0
        var harmonicitySum: Float = 0
        for t in lo...hi {
            let row = (t & mask) * cols
            let a = r[row + act]
            if a > peakActivity {
                peakActivity = a
                peak = t
            }
            let w = max(0, a) + 0.001
            weightSum += w
            harmonicitySum += w * r[row + nb + 5]
        }
        let p = (peak & mask) * cols
        e[0] = peakActivity
        e[1] = r[p + nb + 4]
        e[2] = r[p + nb + 5]
        e[3] = r[p + nb + 7]
        e[4] = r[p + nb + 8]
        var width = 1
        var t = peak - 1
        while t >= oldest && t >= peak - 2 * burstHalf && r[(t & mask) * cols + act] >= peakActivity - 0.5 {
            width += 1
            t -= 1
        }
        t = peak + 1
        while t <= newestIndex && t <= peak + 2 * burstHalf && r[(t & mask) * cols + act] >= peakActivity - 0.5 {
            width += 1
            t += 1
        }
        e[5] = Float(width) * Float(hop)
        e[6] = harmonicitySum / weightSum
    }

    private func emit(center: Int, _ body: (FeatureWindow) -> Void) {
        let fv = spec.frameValues
        let cols = columns
        let mask = capacity - 1
        let lo = max(0, center - longHalf, newestIndex - capacity + 1)
        let hi = min(newestIndex, center + longHalf)
        let slo = max(lo, center - shortHalf)
        let shi = min(hi, center + shortHalf)
        let nb = spec.melBands
        let maxColumns = (nb, nb + 1, nb + 2, nb + 5, nb + 6, nb + 9)
        output.withUnsafeMutableBufferPointer { out in
            out.update(repeating: 0)
            ring.withUnsafeBufferPointer { r in
                for i in 0..<6 { out[3 * fv + i] = -Float.greatestFiniteMagnitude }
                let rp = r.baseAddress!
                let op = out.baseAddress!
                @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                }
                @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
                }
                // Sums, sums of squares and short-window sums, eight columns at a time (each lane adds
                // its frames in the same order as one column at a time would).
                var j = 0
                while j + 8 <= fv {
                    var sum = SIMD8<Float>(repeating: 0)
                    var squares = SIMD8<Float>(repeating: 0)
                    var short = SIMD8<Float>(repeating: 0)
                    for t in lo...hi {
                        let x = load(rp + (t & mask) * cols + j)
                        sum += x
                        squares += x * x
                        if t >= slo && t <= shi { short += x }
                    }
                    store(sum, op + j)
                    store(squares, op + fv + j)
                    store(short, op + 2 * fv + j)
                    j += 8
                }
                for t in lo...hi {
                    let row = (t & mask) * cols
                    for k in j..<fv {
                        let x = r[row + k]
                        out[k] += x
                        out[fv + k] += x * x
                        if t >= slo && t <= shi { out[2 * fv + k] += x }
                    }
                    let m = 3 * fv
                    out[m] = max(out[m], r[row + maxColumns.0])
                    out[m + 1] = max(out[m + 1], r[row + maxColumns.1])
                    out[m + 2] = max(out[m + 2], r[row + maxColumns.2])
                    out[m + 3] = max(out[m + 3], r[row + maxColumns.3])
                    out[m + 4] = max(out[m + 4], r[row + maxColumns.4])
                    out[m + 5] = max(out[m + 5], r[row + maxColumns.5])
                }
                // Activity-weighted mean of the spectral shape over the long window.
                let sh = fv + 3
                let shapeOut = 3 * fv + 7
                var weightSum: Float = 0
                for t in lo...hi { weightSum += max(0, r[(t & mask) * cols + nb + 9]) + 0.001 }
                var b = 0
                while b + 8 <= nb {
                    var acc = SIMD8<Float>(repeating: 0)
                    for t in lo...hi {
                        let row = (t & mask) * cols
                        acc += (max(0, rp[row + nb + 9]) + 0.001) * load(rp + row + sh + b)
                    }
                    store(acc / weightSum, op + shapeOut + b)
                    b += 8
                }
                for k in b..<nb {
                    var acc: Float = 0
                    for t in lo...hi {
                        let row = (t & mask) * cols
                        acc += (max(0, r[row + nb + 9]) + 0.001) * r[row + sh + k]
                    }
                    out[shapeOut + k] = acc / weightSum
                }
                let n = Float(hi - lo + 1)
                let ns = Float(shi - slo + 1)
                for j in 0..<fv {
                    let mean = out[j] / n
                    out[j] = mean
                    out[fv + j] = sqrtf(max(0, out[fv + j] / n - mean * mean))
                    out[2 * fv + j] /= ns
                }
                // Syllable-rate modulation of the speech-band energy: share of its variance in 3-6 Hz.
                let mlo = max(0, center - modHalf, newestIndex - capacity + 1)
                let mhi = min(newestIndex, center + modHalf)
                let m = mhi - mlo + 1
                var modulation: Float = 0
                if m >= 8 {
                    modSeries.withUnsafeMutableBufferPointer { s in
                        var mean: Float = 0
                        for t in mlo...mhi {
                            let x = r[(t & mask) * cols + nb + 10]
                            s[t - mlo] = x
                            mean += x
                        }
                        mean /= Float(m)
                        var variance: Float = 0
                        for i in 0..<m {
                            s[i] -= mean
                            variance += s[i] * s[i]
                        }
                        if variance > 1e-6 * Float(m) {
                            var p: Float = 0
                            for f in 0..<modCos.count {
                                let (re, im) = modCos[f].withUnsafeBufferPointer { c in
                                    modSin[f].withUnsafeBufferPointer { sn in
                                        (dot(s.baseAddress!, c.baseAddress!, m), dot(s.baseAddress!, sn.baseAddress!, m))
                                    }
                                }
                                p += re * re + im * im
                            }
                            modulation = min(1, 2 * p / (Float(m) * variance))
                        }
                    }
                }
                out[3 * fv + 6] = modulation
                burst(center: center, r, out.baseAddress! + 3 * fv + 7 + nb)
            }
            body(
                FeatureWindow(
                    centerIndex: center, centerTime: centerTime(ofFrame: center),
                    availableTime: centerTime(ofFrame: newestIndex), vector: UnsafeBufferPointer(out)))
        }
        emittedCount += 1
        nextCenter = center + spec.decisionStride
    }
}
