import VigilCore
import VigilDetectors
import VigilSynth

#if canImport(Glibc)
import Glibc
#endif

/// A synthesized alarm test case: a beep pattern in a tone family, mixed into a background at an
/// event-to-background ratio (beep RMS over the beeps' on time vs. background RMS), with optional
/// reverberation of the alarm.
struct AlarmScenario: CustomStringConvertible {
    enum Family: CustomStringConvertible {
        /// A piezo tone at `hz`, drifting linearly by `drift` (relative) over the alarm.
        case piezo(hz: Double, drift: Double)
        /// A band-limited square wave (odd harmonics) at `hz`.
        case square(hz: Double)
        /// A comb of lines `spacing` Hz apart, strongest near 2.2 kHz.
        case comb(spacing: Double)
        var description: String {
            switch self {
            case .piezo(let hz, let drift): return "piezo \(Int(hz)) Hz drift \(drift)"
            case .square(let hz): return "square \(Int(hz)) Hz"
            case .comb(let spacing): return "comb \(Int(spacing)) Hz"
            }
        }
    }

    enum Background: String { case none, noise, whiteNoise, babble, music }

    var pulses: Int
    var on: Double
    var off: Double
    var cycle: Double
    var groups: Int
    var family: Family
    var sampleRate: Double = 44_100
    var start: Double = 1.5
    var tail: Double = 3
    var eventToBackgroundDB: Double? = nil
    var background: Background = .noise
    var reverb: (rt60: Double, drr: Double)? = nil
    var jitter: Double = 0
    var seed: UInt64 = 1
    /// Seconds of silence, then the same pattern again (a restarted alarm), when set.
    var restartAfter: Double? = nil
    /// Beeps cut to `factor` of their length (as by a masking sound), by (group, pulse) index.
    var shortenedBeeps: [(group: Int, pulse: Int, factor: Double)] = []
    /// Speech-like babble between the groups (a voice combo alarm) at this level relative to the beeps.
    var voiceBetweenGroupsDB: Double? = nil

    var description: String {
        "\(pulses)x(\(on)/\(off)) cycle \(cycle) x\(groups) \(family) @\(Int(sampleRate)) Hz bg \(background.rawValue) "
            + "\(eventToBackgroundDB.map { "\($0) dB" } ?? "clean")\(reverb.map { " reverb \($0.rt60)" } ?? "") seed \(seed)"
    }

    static func temporalThree(_ family: Family, realUnit: Bool = false) -> AlarmScenario {
        realUnit
            ? AlarmScenario(pulses: 3, on: 0.48, off: 0.47, cycle: 3.91, groups: 3, family: family)
            : AlarmScenario(pulses: 3, on: 0.5, off: 0.5, cycle: 4.0, groups: 3, family: family)
    }

    static func temporalFour(_ family: Family, realUnit: Bool = false) -> AlarmScenario {
        realUnit
            ? AlarmScenario(pulses: 4, on: 0.098, off: 0.103, cycle: 5.72, groups: 3, family: family)
            : AlarmScenario(pulses: 4, on: 0.1, off: 0.1, cycle: 5.8, groups: 3, family: family)
    }

    /// The rendered signal with the onsets of the first beep of every burst (one per restart)
    /// and the offset of the last beep of each.
    func render() -> (samples: [Float], bursts: [(start: Double, end: Double)]) {
        var rng = SeededGenerator(seed: seed)
        let burstLength = Double(groups - 1) * cycle + Double(pulses) * (on + off)
        let total = start + burstLength + (restartAfter.map { $0 + burstLength + 0.5 } ?? 0) + tail
        var alarm = SignalBuffer(sampleRate: sampleRate, duration: total)
        var onMask = [Bool](repeating: false, count: alarm.samples.count)
        var bursts: [(Double, Double)] = []
        var burstStart = start
        let totalBeeps = Double(groups * pulses)
        for _ in 0..<(restartAfter == nil ? 1 : 2) {
            var lastEnd = burstStart
            var beepIndex = 0.0
            for g in 0..<groups {
                var t = burstStart + Double(g) * cycle * (1 + jitter * Double(rng.nextSignedUnit()) * 0.3)
                for k in 0..<pulses {
                    var d = on * (1 + jitter * Double(rng.nextSignedUnit()))
                    let full = d
                    if let cut = shortenedBeeps.first(where: { $0.group == g && $0.pulse == k }) { d *= cut.factor }
                    addBeep(&alarm, at: t, duration: d, progress: beepIndex / max(totalBeeps - 1, 1))
                    let a = Int(t * sampleRate)
                    let b = min(onMask.count, Int((t + d) * sampleRate))
                    if a < b { for i in a..<b { onMask[i] = true } }
                    lastEnd = t + d
                    t += full + off * (1 + jitter * Double(rng.nextSignedUnit()))
                    beepIndex += 1
                }
            }
            bursts.append((burstStart, lastEnd))
            burstStart = lastEnd + (restartAfter ?? 0)
        }
        // Beep level over its on time.
        var sum = 0.0
        var count = 0
        for i in alarm.samples.indices where onMask[i] {
            sum += Double(alarm.samples[i]) * Double(alarm.samples[i])
            count += 1
        }
        let beepDBFS = 10 * log10(max(sum / Double(max(count, 1)), 1e-20))
        if let r = reverb { alarm.applyReverb(rt60: r.rt60, directToReverberantDB: r.drr) }
        if let v = voiceBetweenGroupsDB {
            for (s, _) in bursts {
                for g in 0..<groups {
                    let gap = s + Double(g) * cycle + Double(pulses) * (on + off) + 0.3
                    let length = cycle - Double(pulses) * (on + off) - 0.6
                    if length > 0.5 { alarm.addBabble(dBFS: beepDBFS + v, voices: 1, start: gap, duration: length, generator: &rng) }
                }
            }
        }
        if let ebr = eventToBackgroundDB, background != .none {
            let level = beepDBFS - ebr
            switch background {
            case .noise: alarm.addPinkNoise(dBFS: level, generator: &rng)
            case .whiteNoise: alarm.addNoise(dBFS: level, generator: &rng)
            case .babble, .music:
                let source = background == .babble ? BackgroundLibrary.babble : BackgroundLibrary.music
                let offset = Double(rng.next() % 1000) / 1000 * 8
                alarm.add(
                    BackgroundLibrary.resample(source, offset: offset, count: alarm.samples.count, rate: sampleRate), at: 0, dBFS: level)
            case .none: break
            }
        } else {
            alarm.addNoise(dBFS: beepDBFS - 40, generator: &rng)  // room tone
        }
        return (alarm.samples, bursts)
    }

    private func addBeep(_ signal: inout SignalBuffer, at t: Double, duration: Double, progress: Double) {
        switch family {
        case .piezo(let hz, let drift):
            signal.addTone(frequency: hz * (1 + drift * progress), start: t, duration: duration, dBFS: -20)
        case .square(let hz):
            var k = 1.0
            while k * hz < min(0.45 * sampleRate, 8000) {
                signal.addTone(frequency: k * hz, start: t, duration: duration, dBFS: -20 - 20 * log10(k))
                k += 2
            }
        case .comb(let spacing):
            var f = spacing * 2
            while f < min(0.45 * sampleRate, 4500) {
                let d = (f - 2200) / 900
                signal.addTone(frequency: f, start: t, duration: duration, dBFS: -20 - 12 * d * d)
                f += spacing
            }
        }
    }
}

/// Speech-like babble and music-like backgrounds, synthesized once at 16 kHz (speech and music
/// energy lies below 8 kHz) and resampled for each test: keeps debug-build tests fast.
enum BackgroundLibrary {
    static let rate = 16_000.0
    static let babble: [Float] = {
        var rng = SeededGenerator(seed: 4242)
        var b = SignalBuffer(sampleRate: rate, duration: 40)
        b.addBabble(dBFS: -20, voices: 4, generator: &rng)
        return b.samples
    }()
    static let music: [Float] = {
        var rng = SeededGenerator(seed: 4343)
        var b = SignalBuffer(sampleRate: rate, duration: 40)
        b.addMusic(dBFS: -20, generator: &rng)
        return b.samples
    }()

    /// `count` samples at `rate` from `source` starting `offset` seconds in (linear interpolation,
    /// wrapping around).
    static func resample(_ source: [Float], offset: Double, count: Int, rate target: Double) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        let step = rate / target
        var position = offset * rate
        let n = Double(source.count)
        for i in 0..<count {
            var p = position.truncatingRemainder(dividingBy: n - 1)
            if p < 0 { p += n - 1 }
            let k = Int(p)
            let f = Float(p - Double(k))
            out[i] = source[k] * (1 - f) + source[k + 1] * f
            position += step
        }
        return out
    }
}
