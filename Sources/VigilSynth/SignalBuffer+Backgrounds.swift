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
                let maxHarmonic = min(40, Int(min(4000, sampleRate / 2 * 0.9) / pitch))
                for j in 0..<n {
                    let progress = Double(j) / Double(max(n, 1))
                    let f0 = pitch * (1 + glide * progress)
                    phase += 2 * Double.pi * f0 / sampleRate
                    if phase > 2 * Double.pi * 1000 { phase -= 2 * Double.pi * 1000 }
                    let envelope = sin(Double.pi * progress)
                    var v = 0.0
                    var h = 1
                    while h <= maxHarmonic {
                        let f = Double(h) * f0
                        let d1 = (f - f1) / 150
                        let d2 = (f - f2) / 250
                        let weight = (exp(-d1 * d1) + 0.5 * exp(-d2 * d2) + 0.05) / Double(h).squareRoot()
                        v += weight * sin(Double(h) * phase)
                        h += 1
                    }
                    mix[t + j] += Float(envelope * v)
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
