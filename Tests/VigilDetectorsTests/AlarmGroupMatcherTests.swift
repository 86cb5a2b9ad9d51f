import Testing
import VigilCore
import VigilDSP
import VigilSynth

@testable import VigilDetectors

/// The whole-group matcher of the alarm detectors on its own (no tone lines, no chains): it must
/// find groups too weak to segment beep by beep, measure their beeps, and find nothing in noise or
/// in rhythms that are not the pattern.
@Suite("Alarm whole-group matcher")
struct AlarmGroupMatcherTests {
    /// Runs a matcher for `pattern` over `samples` (shared STFT, streamed in blocks).
    static func matches(_ samples: [Float], sampleRate: Double, pattern: AlarmPattern) -> [AlarmGroupMatcher.Match] {
        let configuration = STFTConfiguration.standard(sampleRate: sampleRate)
        let low = max(6, configuration.bin(forFrequency: 400))
        let high = max(low, min(configuration.bin(forFrequency: min(4500, sampleRate / 2)), configuration.binCount - 7))
        let matcher = AlarmGroupMatcher(
            pattern: pattern, configuration: configuration, lowBin: low, highBin: high, tolerance: 0.1)
        let stft = ShortTimeFourierTransform(configuration: configuration)
        var found: [AlarmGroupMatcher.Match] = []
        samples.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let n = min(4096, all.count - offset)
                stft.process(UnsafeBufferPointer(rebasing: all[offset..<(offset + n)])) { frame in
                    matcher.process(frame.power.baseAddress!, time: frame.centerTime, into: &found)
                }
                offset += n
            }
        }
        stft.finish { frame in matcher.process(frame.power.baseAddress!, time: frame.centerTime, into: &found) }
        matcher.finish(into: &found)
        return found
    }

    static func pattern(_ pulses: Int) -> AlarmPattern { pulses == 3 ? .temporalThree : .temporalFour }

    @Test(
        "weak groups in noise: found once each, beeps measured within a frame or two, tone within a bin",
        arguments: [
            (3, 22_050.0, AlarmScenario.Background.whiteNoise, -15.0),
            (3, 16_000.0, .noise, -12.0),
            (4, 44_100.0, .whiteNoise, -12.0),
            (4, 16_000.0, .noise, -9.0),
        ])
    func weakGroups(pulses: Int, rate: Double, background: AlarmScenario.Background, ebr: Double) {
        var s = pulses == 3 ? AlarmScenario.temporalThree(.piezo(hz: 3100, drift: 0)) : .temporalFour(.piezo(hz: 3100, drift: 0))
        s.sampleRate = rate
        s.background = background
        s.eventToBackgroundDB = ebr
        s.seed = 21
        let (samples, _) = s.render()
        let found = Self.matches(samples, sampleRate: rate, pattern: Self.pattern(pulses))
        let binWidth = STFTConfiguration.standard(sampleRate: rate).binWidth
        // Change points in noise: within 2.5 hops + 10 ms, or 15 % of a long beep.
        let tolerance = max(2.5 * STFTConfiguration.standard(sampleRate: rate).hopDuration + 0.01, 0.15 * s.on)
        // Every group at most once; at least two of the three (a chain needs two).
        #expect(found.count >= 2 && found.count <= s.groups, "\(s): \(found.count) matches")
        var groupsSeen = Set<Int>()
        for m in found {
            #expect(m.count == pulses)
            #expect(abs(m.frequency - 3100) <= 1.5 * binWidth, "\(s): \(m.frequency) Hz")
            let g = Int(((m.onsets[0] - s.start) / s.cycle).rounded())
            #expect(g >= 0 && g < s.groups && groupsSeen.insert(g).inserted, "\(s): group \(g) again or none")
            for k in 0..<pulses {
                let onset = s.start + Double(g) * s.cycle + Double(k) * (s.on + s.off)
                #expect(abs(m.onsets[k] - onset) <= tolerance, "\(s): beep \(k) onset \(m.onsets[k]) vs \(onset)")
                #expect(abs(m.offsets[k] - (onset + s.on)) <= tolerance, "\(s): beep \(k) offset \(m.offsets[k])")
            }
        }
    }

    @Test("rhythms that are not the pattern are not matched; shorter beeps are measured short", arguments: [3, 4])
    func nearMisses(pulses: Int) {
        let piezo = AlarmScenario.Family.piezo(hz: 3200, drift: 0)
        let longBeeps = pulses == 3
        let d = longBeeps ? 0.5 : 0.1
        let cases: [(String, AlarmScenario)] = [
            ("continuous beeper", AlarmScenario(pulses: 40, on: d, off: d, cycle: 80 * d + 0.01, groups: 1, family: piezo)),
            (
                "groups one beep longer",
                AlarmScenario(pulses: pulses + 1, on: d, off: d, cycle: longBeeps ? 6 : 5.8, groups: 4, family: piezo)
            ),
            (
                "groups one beep shorter",
                AlarmScenario(pulses: pulses - 1, on: d, off: d, cycle: longBeeps ? 4 : 5.8, groups: 4, family: piezo)
            ),
            ("steady tone", AlarmScenario(pulses: 1, on: 20, off: 0.5, cycle: 20.6, groups: 1, family: piezo)),
        ]
        for (name, var s) in cases {
            s.eventToBackgroundDB = 10
            s.sampleRate = 22_050
            s.seed = 5
            let (samples, _) = s.render()
            let found = Self.matches(samples, sampleRate: s.sampleRate, pattern: Self.pattern(pulses))
            #expect(found.isEmpty, "T\(pulses) \(name): \(found.map { $0.onsets[0] })")
        }
        // Beeps of 80 % of the nominal length fill enough of the template to match; their measured
        // durations are short (within 3 hops), so the detector's group rules judge them as such.
        var s = AlarmScenario(pulses: pulses, on: 0.8 * d, off: 1.2 * d, cycle: longBeeps ? 4 : 5.8, groups: 4, family: piezo)
        s.eventToBackgroundDB = 10
        s.sampleRate = 22_050
        s.seed = 5
        let hop = STFTConfiguration.standard(sampleRate: s.sampleRate).hopDuration
        for m in Self.matches(s.render().samples, sampleRate: s.sampleRate, pattern: Self.pattern(pulses)) {
            for k in 0..<pulses {
                let measured = m.offsets[k] - m.onsets[k]
                #expect(abs(measured - 0.8 * d) <= 3 * hop, "T\(pulses) 80 % beeps: measured \(measured) s")
            }
        }
    }

    @Test("stationary noise and silence give no match", arguments: [16_000.0, 44_100.0])
    func noise(rate: Double) {
        var rng = SeededGenerator(seed: 99)
        var white = SignalBuffer(sampleRate: rate, duration: 30)
        white.addNoise(dBFS: -30, generator: &rng)
        var pink = SignalBuffer(sampleRate: rate, duration: 30)
        pink.addPinkNoise(dBFS: -30, generator: &rng)
        let noise = white.samples + pink.samples
        let silence = [Float](repeating: 0, count: Int(10 * rate))
        for pulses in [3, 4] {
            #expect(Self.matches(noise, sampleRate: rate, pattern: Self.pattern(pulses)).isEmpty)
            #expect(Self.matches(silence, sampleRate: rate, pattern: Self.pattern(pulses)).isEmpty)
        }
    }
}
