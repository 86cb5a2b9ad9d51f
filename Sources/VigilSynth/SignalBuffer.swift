/// A mono signal being synthesized: samples at a sample rate, with helpers that add tones,
/// noise and timed patterns at given times and levels. Levels are in dBFS of the added
/// component's RMS (a full-scale sine is −3 dBFS).
public struct SignalBuffer: Sendable {
    /// Samples per second.
    public let sampleRate: Double
    /// The samples.
    public var samples: [Float]

    /// Silence of `duration` seconds at `sampleRate`.
    public init(sampleRate: Double, duration: Double) {
        self.sampleRate = sampleRate
        samples = [Float](repeating: 0, count: max(0, Int((duration * sampleRate).rounded())))
    }

    /// Duration in seconds.
    public var duration: Double { Double(samples.count) / sampleRate }

    /// Amplitude of a sine whose RMS is `dBFS`.
    public static func sineAmplitude(dBFS: Double) -> Float { Float(pow(10, dBFS / 20) * 2.0.squareRoot()) }

    private func range(_ start: Double, _ duration: Double) -> Range<Int> {
        let a = max(0, Int((start * sampleRate).rounded()))
        let b = min(samples.count, Int(((start + duration) * sampleRate).rounded()))
        return a..<max(a, b)
    }

    /// Adds a sine of `frequency` Hz from `start` for `duration` seconds at `dBFS` RMS, with
    /// `ramp` seconds of raised-cosine fade in and out (no clicks).
    public mutating func addTone(
        frequency: Double, start: Double, duration: Double, dBFS: Double, ramp: Double = 0.005
    ) {
        let amplitude = Double(SignalBuffer.sineAmplitude(dBFS: dBFS))
        let r = range(start, duration)
        let rampSamples = max(1, Int(ramp * sampleRate))
        let n = r.count
        for (j, i) in r.enumerated() {
            let t = Double(j) / sampleRate
            samples[i] += Float(amplitude * SignalBuffer.fade(j, n, rampSamples) * sin(2 * Double.pi * frequency * t))
        }
    }

    /// Adds a band-limited square wave of `frequency` Hz (odd harmonics below Nyquist, 1/k
    /// amplitudes) from `start` for `duration` seconds at `dBFS` RMS.
    public mutating func addSquare(
        frequency: Double, start: Double, duration: Double, dBFS: Double, ramp: Double = 0.005
    ) {
        let target = pow(10, dBFS / 20)
        let r = range(start, duration)
        let rampSamples = max(1, Int(ramp * sampleRate))
        let n = r.count
        var harmonics: [Int] = []
        var k = 1
        while Double(k) * frequency < sampleRate / 2 * 0.95 {
            harmonics.append(k)
            k += 2
        }
        // RMS of sum of (1/k) sines is sqrt(sum 1/(2k^2)).
        let rms = (harmonics.reduce(0.0) { $0 + 1 / (2 * Double($1 * $1)) }).squareRoot()
        let scale = target / rms
        for (j, i) in r.enumerated() {
            let t = Double(j) / sampleRate
            var v = 0.0
            for h in harmonics { v += sin(2 * Double.pi * frequency * Double(h) * t) / Double(h) }
            samples[i] += Float(scale * SignalBuffer.fade(j, n, rampSamples) * v)
        }
    }

    /// Adds white Gaussian noise over the whole buffer (or a span) at `dBFS` RMS.
    public mutating func addNoise(
        dBFS: Double, start: Double = 0, duration: Double? = nil, ramp: Double = 0.005,
        generator: inout SeededGenerator
    ) {
        let sigma = Float(pow(10, dBFS / 20))
        let r = range(start, duration ?? (self.duration - start))
        let rampSamples = max(1, Int(ramp * sampleRate))
        let n = r.count
        for (j, i) in r.enumerated() {
            samples[i] += sigma * Float(SignalBuffer.fade(j, n, rampSamples)) * generator.nextGaussian()
        }
    }

    /// Adds a temporal-three smoke alarm pattern (three 0.5 s beeps 0.5 s apart; the third off phase
    /// is `pause` = 1.5 s; cycle 4 s) of `cycles` cycles from `start`, with a sine of `frequency` Hz
    /// (or a band-limited square when `square` is true). Returns the onset of the first beep and the
    /// end of the last one.
    @discardableResult
    public mutating func addTemporalThree(
        start: Double, cycles: Int, frequency: Double = 3150, square: Bool = false, dBFS: Double = -20,
        on: Double = 0.5, off: Double = 0.5, pause: Double = 1.5
    ) -> (start: Double, end: Double) {
        addPattern(
            start: start, cycles: cycles, pulses: 3, on: on, off: off, groupOff: pause, frequency: frequency,
            square: square, dBFS: dBFS)
    }

    /// Adds a temporal-four CO alarm pattern (four 0.1 s beeps with 0.1 s off after each, then `pause`
    /// = 5 s more off; cycle 5.8 s).
    @discardableResult
    public mutating func addTemporalFour(
        start: Double, cycles: Int, frequency: Double = 3150, square: Bool = false, dBFS: Double = -20,
        on: Double = 0.1, off: Double = 0.1, pause: Double = 5.0
    ) -> (start: Double, end: Double) {
        addPattern(
            start: start, cycles: cycles, pulses: 4, on: on, off: off, groupOff: off + pause, frequency: frequency,
            square: square, dBFS: dBFS)
    }

    /// Adds `cycles` groups of `pulses` beeps (`on` seconds each, `off` seconds apart), the last beep
    /// of each group followed by `groupOff` seconds of silence (so a cycle lasts
    /// `pulses * on + (pulses - 1) * off + groupOff`). Returns the first onset and last offset.
    @discardableResult
    public mutating func addPattern(
        start: Double, cycles: Int, pulses: Int, on: Double, off: Double, groupOff: Double, frequency: Double,
        square: Bool = false, dBFS: Double = -20
    ) -> (start: Double, end: Double) {
        var t = start
        var lastEnd = start
        for _ in 0..<cycles {
            for p in 0..<pulses {
                if square {
                    addSquare(frequency: frequency, start: t, duration: on, dBFS: dBFS)
                } else {
                    addTone(frequency: frequency, start: t, duration: on, dBFS: dBFS)
                }
                lastEnd = t + on
                t += on + (p == pulses - 1 ? groupOff : off)
            }
        }
        return (start, lastEnd)
    }

    /// Multiplies the whole signal by the gain `dB`.
    public mutating func applyGain(dB: Double) {
        let g = Float(pow(10, dB / 20))
        for i in samples.indices { samples[i] *= g }
    }

    private static func fade(_ j: Int, _ n: Int, _ ramp: Int) -> Double {
        let r = min(ramp, max(1, n / 2))
        if j < r { return 0.5 - 0.5 * cos(Double.pi * Double(j) / Double(r)) }
        if j >= n - r { return 0.5 - 0.5 * cos(Double.pi * Double(n - 1 - j) / Double(r)) }
        return 1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
