import VigilDSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Triangular mel filter bank over an STFT power spectrum (HTK mel scale).
///
/// The band edges are fixed in Hz (``FeatureSpec/minFrequency``...``FeatureSpec/maxFrequency``)
/// whatever the sample rate, so a model sees the same bands at every rate; bands above the
/// Nyquist frequency stay empty (their log energy reads the floor, -10).
public struct MelFilterBank: Sendable {
    /// Number of bands.
    public let bandCount: Int
    /// Centre frequency of each band in Hz.
    public let centers: [Double]
    // For bin k in firstBin..<endBin: band index i (the rising edge of band i, falling of i-1) and weight t.
    let firstBin: Int
    let endBin: Int
    let bandOfBin: [Int32]
    let weightOfBin: [Float]
    // Per band: first bin, bin count and offset into `bandWeights` (contiguous, for dot products).
    let bandFirst: [Int]
    let bandLength: [Int]
    let bandOffset: [Int]
    let bandWeights: [Float]

    static func mel(_ f: Double) -> Double { 2595 * log10(1 + f / 700) }
    static func hz(_ m: Double) -> Double { 700 * (pow(10, m / 2595) - 1) }

    /// A bank of `bands` filters between `minFrequency` and `maxFrequency` for `configuration`.
    public init(configuration: STFTConfiguration, bands: Int, minFrequency: Double, maxFrequency: Double) {
        bandCount = bands
        let lo = Self.mel(minFrequency)
        let hi = Self.mel(maxFrequency)
        let edges = (0...(bands + 1)).map { Self.hz(lo + (hi - lo) * Double($0) / Double(bands + 1)) }
        centers = (1...bands).map { edges[$0] }
        let bw = configuration.binWidth
        let first = max(1, Int((edges[0] / bw).rounded(.up)))
        let end = min(configuration.binCount, Int((edges[bands + 1] / bw).rounded(.up)))
        var bandOf: [Int32] = []
        var weight: [Float] = []
        var i = 0
        if first < end {
            for k in first..<end {
                let f = Double(k) * bw
                while i + 1 < edges.count - 1 && edges[i + 1] <= f { i += 1 }
                let t = (f - edges[i]) / (edges[i + 1] - edges[i])
                bandOf.append(Int32(i))
                weight.append(Float(min(max(t, 0), 1)))
            }
        }
        firstBin = first
        endBin = max(first, end)
        bandOfBin = bandOf
        weightOfBin = weight
        var firsts: [Int] = []
        var lengths: [Int] = []
        var offsets: [Int] = []
        var flat: [Float] = []
        for band in 0..<bands {
            var startJ = -1
            var ws: [Float] = []
            for j in 0..<bandOf.count {
                let i = Int(bandOf[j])
                let w: Float
                if i == band { w = weight[j] } else if i - 1 == band { w = 1 - weight[j] } else { continue }
                if startJ < 0 { startJ = j }
                ws.append(w)
            }
            firsts.append(max(0, startJ) + first)
            lengths.append(ws.count)
            offsets.append(flat.count)
            flat.append(contentsOf: ws)
        }
        bandFirst = firsts
        bandLength = lengths
        bandOffset = offsets
        bandWeights = flat
    }

    /// Adds the band energies of `power` into `out` (bandCount values, zeroed by the caller).
    @inline(__always)
    func apply(_ power: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>) {
        guard endBin > firstBin else { return }
        bandWeights.withUnsafeBufferPointer { w in
            for b in 0..<bandCount where bandLength[b] > 0 {
                out[b] += dot(power.baseAddress! + bandFirst[b], w.baseAddress! + bandOffset[b], bandLength[b])
            }
        }
    }
}

/// Stateless per-frame measurements computed from one ``SpectralFrame``.
///
/// Layout of ``values`` (``FrameMeasurements/count`` floats): `0..<bands` log10 mel energies,
/// then level (log10 mean square), spectral centroid (Hz / 8000), spectral flatness
/// (log10 of geometric over arithmetic mean of the band energies, <= 0), harmonicity
/// (peak normalised autocorrelation of the detrended magnitude spectrum over pitch lags
/// 100-1000 Hz, 0...1), energy fractions above 4.5 kHz, below 500 Hz and in 300-3400 Hz,
/// and log10 energy in 300-3400 Hz.
public final class FrameMeasurements {
    /// Number of mel bands.
    public let bands: Int
    /// Number of values per frame.
    public var count: Int { bands + 8 }
    /// Index of the level value.
    public var levelIndex: Int { bands }
    /// The values of the last measured frame.
    public private(set) var values: [Float]
    /// Configuration measured.
    public let configuration: STFTConfiguration
    let bank: MelFilterBank
    private let hfBin: Int
    private let lfBin: Int
    private let speechLo: Int
    private let speechHi: Int
    private let harmLo: Int
    private let harmHi: Int
    private let lagMin: Int
    private let lagMax: Int
    private var magnitude: [Float]
    private var detrended: [Float]
    private var bandEnergy: [Float]
    private let bandsInRange: Int
    private let binFrequency: [Float]

    /// Measurements for frames of `configuration` with the bands of `spec`.
    public init(configuration: STFTConfiguration, spec: FeatureSpec) {
        self.configuration = configuration
        bands = spec.melBands
        bank = MelFilterBank(
            configuration: configuration, bands: spec.melBands, minFrequency: spec.minFrequency,
            maxFrequency: spec.maxFrequency)
        values = [Float](repeating: 0, count: spec.melBands + 8)
        let bw = configuration.binWidth
        let nb = configuration.binCount
        hfBin = min(nb, Int((4500 / bw).rounded()))
        lfBin = min(nb, max(1, Int((500 / bw).rounded())))
        speechLo = min(nb, max(1, Int((300 / bw).rounded())))
        speechHi = min(nb, Int((3400 / bw).rounded()))
        harmLo = max(1, Int((80 / bw).rounded()))
        harmHi = min(nb - 1, Int((4000 / bw).rounded()))
        lagMin = max(3, Int((100 / bw).rounded(.down)))
        lagMax = max(lagMin, min(Int((1000 / bw).rounded()), (harmHi - harmLo) / 2))
        magnitude = [Float](repeating: 0, count: nb)
        detrended = [Float](repeating: 0, count: nb)
        bandEnergy = [Float](repeating: 0, count: spec.melBands)
        let nyquist = configuration.sampleRate / 2
        bandsInRange = max(1, bank.centers.filter { $0 < nyquist * 0.95 }.count)
        binFrequency = (0..<nb).map { Float(Double($0) * bw / 8000) }
    }

    /// Measures `frame` into ``values``.
    public func measure(_ frame: SpectralFrame) {
        let power = frame.power
        let nb = power.count
        let nBands = bands
        bandEnergy.withUnsafeMutableBufferPointer { be in
            be.update(repeating: 0)
            bank.apply(power, into: be.baseAddress!)
        }
        var total: Float = 0
        var weighted: Float = 0
        var hf: Float = 0
        var lf: Float = 0
        var speech: Float = 0
        binFrequency.withUnsafeBufferPointer { fq in
            var t = SIMD8<Float>(repeating: 0)
            var w = SIMD8<Float>(repeating: 0)
            var k = 0
            let p = power.baseAddress!
            let f = fq.baseAddress!
            while k + 8 <= nb {
                let x = UnsafeRawPointer(p + k).loadUnaligned(as: SIMD8<Float>.self)
                t += x
                w += x * UnsafeRawPointer(f + k).loadUnaligned(as: SIMD8<Float>.self)
                k += 8
            }
            total = t.sum() - p[0]
            weighted = w.sum()
            while k < nb {
                total += p[k]
                weighted += p[k] * f[k]
                k += 1
            }
        }
        for k in hfBin..<max(hfBin, nb) { hf += power[k] }
        for k in 1..<lfBin { lf += power[k] }
        for k in speechLo..<max(speechLo, speechHi) { speech += power[k] }
        let denom = total + 1e-12
        let harmonicity = self.harmonicity(power)
        values.withUnsafeMutableBufferPointer { v in
            var logSum: Float = 0
            var linSum: Float = 0
            bandEnergy.withUnsafeBufferPointer { be in
                for b in 0..<nBands {
                    let l = log10f(be[b] + 1e-10)
                    v[b] = l
                    if b < bandsInRange {
                        logSum += l
                        linSum += be[b]
                    }
                }
            }
            let nr = Float(bandsInRange)
            v[nBands] = log10f(frame.meanSquare + 1e-10)
            v[nBands + 1] = weighted / denom
            v[nBands + 2] = min(0, logSum / nr - log10f(linSum / nr + 1e-10))
            v[nBands + 3] = harmonicity
            v[nBands + 4] = hf / denom
            v[nBands + 5] = lf / denom
            v[nBands + 6] = speech / denom
            v[nBands + 7] = log10f(speech + 1e-10)
        }
    }

    private func harmonicity(_ power: UnsafeBufferPointer<Float>) -> Float {
        let lo = harmLo
        let hi = harmHi
        let n = hi - lo
        guard n > 2 * lagMax, lagMax >= lagMin else { return 0 }
        return magnitude.withUnsafeMutableBufferPointer { mag in
            detrended.withUnsafeMutableBufferPointer { d in
                for k in (lo - 1)...(hi + 1) where k >= 0 && k < power.count { mag[k] = sqrtf(power[k]) }
                // Remove the local mean (7 bins) so the window's main lobe does not look harmonic.
                var energy: Float = 0
                var window: Float = 0
                var a = lo
                var b = lo - 1
                for k in lo..<hi {
                    let na = max(lo, k - 3)
                    let nbEnd = min(hi - 1, k + 3)
                    while b < nbEnd {
                        b += 1
                        window += mag[b]
                    }
                    while a < na {
                        window -= mag[a]
                        a += 1
                    }
                    let x = mag[k] - window / Float(b - a + 1)
                    d[k - lo] = x
                    energy += x * x
                }
                guard energy > 1e-20 else { return 0 }
                var best: Float = 0
                let base = d.baseAddress!
                for lag in lagMin...lagMax {
                    best = max(best, dot(base, base + lag, n - lag))
                }
                return min(1, max(0, best / energy))
            }
        }
    }
}
