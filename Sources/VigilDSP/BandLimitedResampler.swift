import Foundation

/// Band-limited sample-rate conversion between whole-number rates by windowed-sinc interpolation
/// (polyphase: one Blackman-windowed sinc kernel per output phase, 12 zero crossings each side).
/// The pass band ends at 90 % of the lower Nyquist frequency, so content above the target's Nyquist
/// frequency is removed before it can alias (as a camera recording at that rate would not have it).
/// Deterministic: the same input gives the same output.
public enum BandLimitedResampler {
    /// Zero crossings of the sinc kernel on each side (at the lower of the two rates).
    public static let zeroCrossings = 12
    /// The pass band's end as a share of the lower Nyquist frequency.
    public static let passBand = 0.9

    /// `samples` at `sourceRate` converted to `targetRate` (both whole numbers of hertz, 1 Hz-1 MHz).
    /// The output holds `floor(count * targetRate / sourceRate)` samples; sample `n` is at time
    /// `n / targetRate`. Equal rates return the input.
    public static func resample(_ samples: [Float], from sourceRate: Double, to targetRate: Double) -> [Float] {
        precondition(
            sourceRate >= 1 && targetRate >= 1 && sourceRate <= 1e6 && targetRate <= 1e6 && sourceRate == sourceRate.rounded()
                && targetRate == targetRate.rounded(), "resampling needs whole-number rates of 1 Hz-1 MHz")
        let source = Int(sourceRate), target = Int(targetRate)
        guard source != target, !samples.isEmpty else { return samples }
        let g = gcd(source, target)
        // Output sample n sits at input position n * step / phases (step / phases = source / target).
        let step = source / g, exactPhases = target / g
        // Large numerators (rates with no big common factor) use 4,096 evenly spaced phases.
        let phases = min(exactPhases, 4_096)
        let cutoff = passBand * min(1, Double(target) / Double(source))
        let half = Int((Double(zeroCrossings) / cutoff).rounded(.up))
        let width = 2 * half
        // table[p * width + j]: weight of input sample k0 - half + 1 + j for phase p (fraction p / phases).
        var table = [Float](repeating: 0, count: phases * width)
        for p in 0..<phases {
            let fraction = Double(p) / Double(phases)
            var taps = [Double](repeating: 0, count: width)
            var sum = 0.0
            for j in 0..<width {
                let d = Double(j - half + 1) - fraction
                let x = cutoff * d
                let sinc = abs(x) < 1e-12 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let u = d / Double(half)
                let window = abs(u) >= 1 ? 0 : 0.42 + 0.5 * cos(Double.pi * u) + 0.08 * cos(2 * Double.pi * u)
                taps[j] = sinc * window
                sum += taps[j]
            }
            // Unit gain at DC for every phase.
            for j in 0..<width { table[p * width + j] = Float(taps[j] / sum) }
        }
        let outCount = Int((Double(samples.count) * Double(target) / Double(source)).rounded(.down))
        var out = [Float](repeating: 0, count: outCount)
        samples.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { y in
                    for n in 0..<outCount {
                        let k0: Int, p: Int
                        if phases == exactPhases {
                            let position = n * step
                            k0 = position / exactPhases
                            p = position % exactPhases
                        } else {
                            let position = Double(n) * Double(step) / Double(exactPhases)
                            k0 = Int(position)
                            p = min(phases - 1, Int(((position - Double(k0)) * Double(phases)).rounded(.down)))
                        }
                        let first = k0 - half + 1
                        let lo = max(0, -first), hi = min(width, x.count - first)
                        var acc: Float = 0
                        let row = p * width
                        if lo < hi {
                            for j in lo..<hi { acc += x[first + j] * t[row + j] }
                        }
                        y[n] = acc
                    }
                }
            }
        }
        return out
    }

    /// `samples` at `rate` as a recording made at `bandRate` (lower than `rate`) would hold them:
    /// resampled down to `bandRate` and back up to `rate`, so nothing above 90 % of `bandRate / 2`
    /// remains. The output has the input's length (the last samples are zero when the round trip is short).
    public static func bandLimited(_ samples: [Float], rate: Double, bandRate: Double) -> [Float] {
        guard bandRate < rate else { return samples }
        var back = resample(resample(samples, from: rate, to: bandRate), from: bandRate, to: rate)
        if back.count < samples.count { back += [Float](repeating: 0, count: samples.count - back.count) }
        return Array(back.prefix(samples.count))
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
