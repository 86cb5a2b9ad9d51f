/// One sound source of a scenario while it renders: a pulse train, a noise, babble or a clip.
/// Adds its samples to a block; state (noise generators and filters) advances once per
/// sample in order, so the output does not depend on the block sizes.
struct ScenarioVoice: Sendable {
    private enum Source: Sendable {
        case pulses(PulseTrain)
        case noise(Noise)
        case babble(Babble)
        case clip(samples: [Float], scale: Float, first: Int)
    }

    private var source: Source

    // MARK: Pulses (tones, alarm patterns)

    struct PulseTrain: Sendable {
        var pulses: [(Int, Int)]
        var cursor = 0
        var omega: Double
        var harmonics: [Int]
        var amplitude: Double
        var ramp: Int
    }

    init(pulses: [(Int, Int)], frequency: Double, waveform: ScenarioWaveform, level: Double, sampleRate: Double) {
        var harmonics = [1]
        var amplitude = Double(SignalBuffer.sineAmplitude(dBFS: level))
        if waveform == .square {
            harmonics = []
            var k = 1
            while Double(k) * frequency < sampleRate / 2 * 0.95 {
                harmonics.append(k)
                k += 2
            }
            if harmonics.isEmpty { harmonics = [1] }
            let rms = (harmonics.reduce(0.0) { $0 + 1 / (2 * Double($1 * $1)) }).squareRoot()
            amplitude = pow(10, level / 20) / rms
        }
        source = .pulses(
            PulseTrain(
                pulses: pulses.filter { $0.1 > $0.0 }, omega: 2 * Double.pi * frequency / sampleRate, harmonics: harmonics,
                amplitude: amplitude, ramp: max(1, Int(0.005 * sampleRate))))
    }

    // MARK: Noise

    struct Noise: Sendable {
        var colour: ScenarioNoiseColour
        var generator: SeededGenerator
        var first: Int
        var last: Int
        var ramp: Int
        var scale: Float
        var state: (Float, Float, Float) = (0, 0, 0)

        mutating func nextValue() -> Float {
            let w = generator.nextGaussian()
            switch colour {
            case .white:
                return w
            case .pink:
                // Paul Kellet's economy pink filter.
                state.0 = 0.99765 * state.0 + w * 0.0990460
                state.1 = 0.96300 * state.1 + w * 0.2965164
                state.2 = 0.57000 * state.2 + w * 1.0526913
                return state.0 + state.1 + state.2 + w * 0.1848
            case .brown:
                state.0 = 0.998 * state.0 + w
                return state.0
            }
        }
    }

    init(noise colour: ScenarioNoiseColour, level: Double, from first: Int, to last: Int, ramp: Int, seed: UInt64) {
        // Calibrate the filter's gain on a separate generator so the RMS is `level` dBFS.
        var probe = Noise(colour: colour, generator: SeededGenerator(seed: 0x1234_5678), first: 0, last: 0, ramp: 0, scale: 1)
        var sum = 0.0
        let warmup = colour == .white ? 0 : 4096
        let count = 65_536
        for i in 0..<(warmup + count) {
            let v = Double(probe.nextValue())
            if i >= warmup { sum += v * v }
        }
        let rms = max((sum / Double(count)).squareRoot(), 1e-9)
        let scale = Float(pow(10, level / 20) / rms)
        source = .noise(Noise(colour: colour, generator: SeededGenerator(seed: seed), first: first, last: last, ramp: ramp, scale: scale))
    }

    // MARK: Babble

    struct Babble: Sendable {
        struct Talker: Sendable {
            var f0: Double
            var syllable: Double
            var offset: Double
            var vibratoPhase: Double
            /// Harmonic amplitudes per vowel.
            var amplitudes: [[Double]]
            var seed: UInt64
        }
        var talkers: [Talker]
        var first: Int
        var last: Int
        var sampleRate: Double
        var scale: Double

        static let formants: [[(Double, Double, Double)]] = [
            [(730, 80, 1), (1090, 100, 0.5), (2440, 120, 0.25)],  // a
            [(530, 80, 1), (1840, 100, 0.5), (2480, 120, 0.25)],  // e
            [(270, 60, 1), (2290, 100, 0.4), (3010, 120, 0.25)],  // i
            [(570, 80, 1), (840, 100, 0.6), (2410, 120, 0.2)],  // o
            [(300, 60, 1), (870, 100, 0.5), (2240, 120, 0.2)],  // u
        ]
        static let vibratoRate = 4.5
        static let vibratoDepth = 0.04

        func value(at index: Int) -> Double {
            let t = Double(index) / sampleRate
            var sum = 0.0
            for (v, talker) in talkers.enumerated() {
                let position = (t + talker.offset) / talker.syllable
                let s = position.rounded(.down)
                let u = position - s
                let n = UInt64(bitPattern: Int64(s))
                if ScenarioVoice.unit(talker.seed, n, 2) < 0.3 { continue }  // a pause
                let vowel = min(4, Int(ScenarioVoice.unit(talker.seed, n, 3) * 5))
                let loudness = 0.5 + 0.5 * ScenarioVoice.unit(talker.seed, n, 4)
                let envelope = sin(Double.pi * u)
                let gain = loudness * envelope * envelope
                let w = 2 * Double.pi * Self.vibratoRate
                let phase =
                    2 * Double.pi * talker.f0
                    * (t - Self.vibratoDepth / w * (cos(w * t + talker.vibratoPhase) - cos(talker.vibratoPhase)))
                let amplitudes = talker.amplitudes[vowel]
                // sin(k phase) by the Chebyshev recurrence.
                let c = 2 * cos(phase)
                var previous = 0.0
                var current = sin(phase)
                var voice = 0.0
                for k in 0..<amplitudes.count {
                    voice += amplitudes[k] * current
                    let next = c * current - previous
                    previous = current
                    current = next
                }
                sum += gain * voice
                _ = v
            }
            return sum
        }
    }

    init(babble voiceCount: Int, level: Double, from first: Int, to last: Int, sampleRate: Double, seed: UInt64) {
        var talkers: [Babble.Talker] = []
        let top = min(3800, sampleRate / 2 * 0.9)
        for v in 0..<max(1, voiceCount) {
            let talkerSeed = seed &+ UInt64(v) &* 0x9E37_79B9_7F4A_7C15
            let f0 = 95 + 135 * Self.unit(talkerSeed, 0, 0)
            let count = max(1, Int(top / (f0 * (1 + Babble.vibratoDepth))))
            let amplitudes = Babble.formants.map { vowel in
                (1...count).map { k -> Double in
                    let f = Double(k) * f0
                    let envelope = vowel.reduce(0.0) { $0 + $1.2 / (1 + ((f - $1.0) / $1.1) * ((f - $1.0) / $1.1)) }
                    return envelope / Double(k).squareRoot()
                }
            }
            talkers.append(
                Babble.Talker(
                    f0: f0, syllable: 0.16 + 0.14 * Self.unit(talkerSeed, 0, 1), offset: 10 * Self.unit(talkerSeed, 0, 5),
                    vibratoPhase: 2 * Double.pi * Self.unit(talkerSeed, 0, 6), amplitudes: amplitudes, seed: talkerSeed))
        }
        var babble = Babble(talkers: talkers, first: first, last: last, sampleRate: sampleRate, scale: 1)
        // Calibrate: RMS over 4 s of the (stateless) babble.
        let count = Int(4 * sampleRate)
        var sum = 0.0
        for i in 0..<count {
            let x = babble.value(at: i)
            sum += x * x
        }
        let rms = max((sum / Double(count)).squareRoot(), 1e-12)
        babble.scale = pow(10, level / 20) / rms
        source = .babble(babble)
    }

    // MARK: Clip

    init(clip samples: [Float], level: Double?, gainDB: Double, from first: Int) {
        var scale = pow(10, gainDB / 20)
        if let level {
            let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
            let rms = (energy / Double(max(samples.count, 1))).squareRoot()
            if rms > 0 { scale *= pow(10, level / 20) / rms }
        }
        source = .clip(samples: samples, scale: Float(scale), first: first)
    }

    // MARK: Rendering

    /// A uniform value in 0..<1 from a seed and two counters (stateless).
    static func unit(_ seed: UInt64, _ a: UInt64, _ b: UInt64) -> Double {
        var generator = SeededGenerator(seed: seed ^ (a &* 0xBF58_476D_1CE4_E5B9) ^ (b &* 0x94D0_49BB_1331_11EB))
        return Double(generator.next() >> 11) / Double(1 << 53)
    }

    /// The raised-cosine fade of sample `j` of `n` with `ramp` samples at each end.
    static func fade(_ j: Int, _ n: Int, _ ramp: Int) -> Double {
        let r = min(ramp, max(1, n / 2))
        if j < r { return 0.5 - 0.5 * cos(Double.pi * Double(j) / Double(r)) }
        if j >= n - r { return 0.5 - 0.5 * cos(Double.pi * Double(n - 1 - j) / Double(r)) }
        return 1
    }

    /// Adds this voice's samples for the absolute sample indices `range` to `buffer` (whose
    /// element 0 is sample `range.lowerBound`).
    mutating func add(into buffer: UnsafeMutableBufferPointer<Float>, range: Range<Int>) {
        switch source {
        case .pulses(var train):
            while train.cursor < train.pulses.count && train.pulses[train.cursor].1 <= range.lowerBound { train.cursor += 1 }
            var p = train.cursor
            while p < train.pulses.count && train.pulses[p].0 < range.upperBound {
                let (a, b) = train.pulses[p]
                let n = b - a
                for i in max(a, range.lowerBound)..<min(b, range.upperBound) {
                    let j = i - a
                    let x = train.omega * Double(j)
                    var v = 0.0
                    if train.harmonics.count == 1 {
                        v = sin(x)
                    } else {
                        for h in train.harmonics { v += sin(x * Double(h)) / Double(h) }
                    }
                    buffer[i - range.lowerBound] += Float(train.amplitude * Self.fade(j, n, train.ramp) * v)
                }
                p += 1
            }
            source = .pulses(train)
        case .noise(var noise):
            let lower = max(noise.first, range.lowerBound)
            let upper = min(noise.last, range.upperBound)
            if lower < upper {
                let n = noise.last - noise.first
                for i in lower..<upper {
                    let fade = noise.ramp > 0 ? Float(Self.fade(i - noise.first, n, noise.ramp)) : 1
                    buffer[i - range.lowerBound] += noise.scale * fade * noise.nextValue()
                }
            }
            source = .noise(noise)
        case .babble(let babble):
            let lower = max(babble.first, range.lowerBound)
            let upper = min(babble.last, range.upperBound)
            if lower < upper {
                let ramp = Int(0.02 * babble.sampleRate)
                let n = babble.last - babble.first
                for i in lower..<upper {
                    let fade = Self.fade(i - babble.first, n, ramp)
                    buffer[i - range.lowerBound] += Float(babble.scale * fade * babble.value(at: i - babble.first))
                }
            }
        case .clip(let samples, let scale, let first):
            let lower = max(first, range.lowerBound)
            let upper = min(first + samples.count, range.upperBound)
            if lower < upper {
                for i in lower..<upper { buffer[i - range.lowerBound] += scale * samples[i - first] }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
