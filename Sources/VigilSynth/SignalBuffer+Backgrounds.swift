/// Backgrounds and room effects for alarm tests: speech-like babble, music-like notes, and a
/// cheap Schroeder reverberator. All deterministic for a given generator seed.
extension SignalBuffer {
    /// Adds speech-like babble at `dBFS` RMS over `start..<start+duration` (the whole buffer by
    /// default): `voices` talkers, each a glottal-pulse-like harmonic series (pitch 90-260 Hz with
    /// slow intonation) shaped by two moving formant peaks, switched on and off at a syllable rate
    /// of about 4 Hz with pauses.
    public mutating func addBabble(
        dBFS: Double, voices: Int = 3, start: Double = 0, duration: Double? = nil, generator: inout SeededGenerator
    ) {
        let a = max(0, Int((start * sampleRate).rounded()))
        let b = min(samples.count, a + Int(((duration ?? (self.duration - start)) * sampleRate).rounded()))
        guard b > a else { return }
        var mix = [Float](repeating: 0, count: b - a)
        var weights = [Double](repeating: 0, count: 17)
        for _ in 0..<max(1, voices) {
            var pitch = 90 + 170 * Double(generator.nextSignedUnit() * 0.5 + 0.5)
            var phase = 0.0
            var t = 0
            while t < mix.count {
                // One syllable (0.12-0.35 s) or a pause (0.05-0.4 s).
                let syllable = Int((0.12 + 0.23 * Double(generator.nextSignedUnit() * 0.5 + 0.5)) * sampleRate)
                let pause = Int((0.05 + 0.35 * Double(generator.nextSignedUnit() * 0.5 + 0.5)) * sampleRate)
                let f1 = 300 + 600 * Double(generator.nextSignedUnit() * 0.5 + 0.5)
                let f2 = 900 + 1600 * Double(generator.nextSignedUnit() * 0.5 + 0.5)
                let glide = Double(generator.nextSignedUnit()) * 0.3
                pitch = min(max(pitch * (1 + 0.1 * Double(generator.nextSignedUnit())), 85), 280)
                let n = min(syllable, mix.count - t)
                // Harmonics up to 16 (below 4 kHz and Nyquist), weighted by two formants.
                let maxHarmonic = max(1, min(16, Int(min(4000, sampleRate / 2 * 0.9) / (pitch * 1.3))))
                for h in 1...maxHarmonic {
                    let f = Double(h) * pitch
                    let d1 = (f - f1) / 150
                    let d2 = (f - f2) / 250
                    weights[h] = (exp(-d1 * d1) + 0.5 * exp(-d2 * d2) + 0.05) / Double(h).squareRoot()
                }
                for j in 0..<n {
                    let progress = Double(j) / Double(max(n, 1))
                    phase += 2 * Double.pi * pitch * (1 + glide * progress) / sampleRate
                    if phase > 2 * Double.pi { phase -= 2 * Double.pi }
                    // sin(h x) by the Chebyshev recurrence.
                    let s1 = sin(phase)
                    let c2 = 2 * cos(phase)
                    var previous = 0.0
                    var current = s1
                    var v = 0.0
                    for h in 1...maxHarmonic {
                        v += weights[h] * current
                        let next = c2 * current - previous
                        previous = current
                        current = next
                    }
                    mix[t + j] += Float(sin(Double.pi * progress) * v)
                }
                t += n + pause
            }
        }
        add(mix, at: a, dBFS: dBFS)
    }

    /// Adds music-like sound at `dBFS` RMS: chords of 2-4 notes (110-1760 Hz, 5 harmonics each)
    /// changing every 0.2-0.6 s, with a soft attack and decay per note.
    public mutating func addMusic(
        dBFS: Double, start: Double = 0, duration: Double? = nil, generator: inout SeededGenerator
    ) {
        let a = max(0, Int((start * sampleRate).rounded()))
        let b = min(samples.count, a + Int(((duration ?? (self.duration - start)) * sampleRate).rounded()))
        guard b > a else { return }
        var mix = [Float](repeating: 0, count: b - a)
        var t = 0
        while t < mix.count {
            let n = min(Int((0.2 + 0.4 * Double(generator.nextSignedUnit() * 0.5 + 0.5)) * sampleRate), mix.count - t)
            let notes = 2 + Int((generator.next() >> 33) % 3)
            for _ in 0..<notes {
                let semitone = Double((generator.next() >> 33) % 48)
                let f0 = 110 * pow(2, semitone / 12)
                let level = 0.3 + 0.7 * Double(generator.nextSignedUnit() * 0.5 + 0.5)
                for j in 0..<n {
                    let time = Double(j) / sampleRate
                    let env = min(1, time / 0.01) * exp(-time * 3)
                    var v = 0.0
                    for h in 1...5 where Double(h) * f0 < sampleRate / 2 * 0.9 {
                        v += sin(2 * Double.pi * Double(h) * f0 * time) / Double(h * h)
                    }
                    mix[t + j] += Float(level * env * v)
                }
            }
            t += n
        }
        add(mix, at: a, dBFS: dBFS)
    }

    /// Adds pink-like noise (about -3 dB per octave, Paul Kellet's filter) at `dBFS` RMS over the
    /// whole buffer: closer to vacuum, kitchen and street noise than white noise.
    public mutating func addPinkNoise(dBFS: Double, generator: inout SeededGenerator) {
        var noise = [Float](repeating: 0, count: samples.count)
        var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0, b4: Float = 0, b5: Float = 0, b6: Float = 0
        for i in noise.indices {
            // Near-Gaussian from four uniforms: cheaper than Box-Muller.
            let w =
                (generator.nextSignedUnit() + generator.nextSignedUnit() + generator.nextSignedUnit()
                    + generator.nextSignedUnit()) * 0.866
            b0 = 0.99886 * b0 + w * 0.0555179
            b1 = 0.99332 * b1 + w * 0.0750759
            b2 = 0.96900 * b2 + w * 0.1538520
            b3 = 0.86650 * b3 + w * 0.3104856
            b4 = 0.55000 * b4 + w * 0.5329522
            b5 = -0.7616 * b5 - w * 0.0168980
            noise[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
            b6 = w * 0.115926
        }
        add(noise, at: 0, dBFS: dBFS)
    }

    /// Adds `component` from sample `offset`, scaled so that its RMS is `dBFS`.
    public mutating func add(_ component: [Float], at offset: Int, dBFS: Double) {
        var sum = 0.0
        for v in component { sum += Double(v) * Double(v) }
        let rms = (sum / Double(max(component.count, 1))).squareRoot()
        guard rms > 0 else { return }
        let gain = Float(pow(10, dBFS / 20) / rms)
        for (j, v) in component.enumerated() where offset + j < samples.count { samples[offset + j] += gain * v }
    }

    /// Replaces the signal by itself plus Schroeder reverberation (4 combs, 2 all-passes) with
    /// reverberation time `rt60` seconds, mixed `directToReverberantDB` below the direct sound.
    public mutating func applyReverb(rt60: Double, directToReverberantDB: Double) {
        guard rt60 > 0, !samples.isEmpty else { return }
        let combDelays = [0.0297, 0.0371, 0.0411, 0.0437].map { max(1, Int($0 * sampleRate)) }
        var wet = [Float](repeating: 0, count: samples.count)
        for d in combDelays {
            let g = Float(pow(10, -3 * Double(d) / sampleRate / rt60))
            var line = [Float](repeating: 0, count: d)
            var k = 0
            for i in 0..<samples.count {
                let y = line[k]
                line[k] = samples[i] + g * y
                wet[i] += y
                k += 1
                if k == d { k = 0 }
            }
        }
        for (delay, g) in [(0.005, Float(0.7)), (0.0017, Float(0.7))] {
            let d = max(1, Int(delay * sampleRate))
            var line = [Float](repeating: 0, count: d)
            var k = 0
            for i in 0..<wet.count {
                let delayed = line[k]
                let x = wet[i]
                let y = -g * x + delayed
                line[k] = x + g * y
                wet[i] = y
                k += 1
                if k == d { k = 0 }
            }
        }
        var direct = 0.0
        var reverberant = 0.0
        for i in samples.indices {
            direct += Double(samples[i]) * Double(samples[i])
            reverberant += Double(wet[i]) * Double(wet[i])
        }
        guard reverberant > 0 else { return }
        let gain = Float((direct / reverberant).squareRoot() * pow(10, -directToReverberantDB / 20))
        for i in samples.indices { samples[i] += gain * wet[i] }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
