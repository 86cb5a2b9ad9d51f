import Testing
import VigilSynth

@testable import VigilDetectors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threshold of the alarm detectors' smoothed lines: the mean of n frames of a bin of noise
/// must pass it as rarely as one frame passes the per-frame threshold.
@Suite("Alarm smoothed-line threshold")
struct AlarmSmoothingTests {
    @Test("one frame keeps the per-frame threshold; more frames lower it")
    func monotone() {
        #expect(AlarmPatternDetector.averagedThreshold(perFrame: 11, frames: 1) == 11)
        var previous = 11.0
        for n in [2, 3, 5, 8, 13, 19] {
            let x = AlarmPatternDetector.averagedThreshold(perFrame: 11, frames: n)
            #expect(x < previous && x > 1, "n \(n): \(x)")
            previous = x
        }
        // 10.4 dB per frame is about 5.0 dB over 8 frames (docs/alarms.md).
        let db = 10 * log10(AlarmPatternDetector.averagedThreshold(perFrame: pow(10, 1.04), frames: 8))
        #expect(abs(db - 5.0) < 0.1, "\(db) dB")
    }

    @Test("Monte Carlo: means of exponential powers pass it as often as single powers pass the per-frame threshold")
    func equalPassRate() {
        var rng = SeededGenerator(seed: 11)
        let perFrame = 3.0  // exp(-3) = 5 %: enough passes to count
        let trials = 100_000
        for n in [2, 5, 13] {
            let x = AlarmPatternDetector.averagedThreshold(perFrame: perFrame, frames: n)
            var single = 0
            var averaged = 0
            for _ in 0..<trials {
                var sum = 0.0
                for _ in 0..<n { sum += -log(max(Double(rng.nextSignedUnit()) * 0.5 + 0.5, 1e-12)) }
                if sum / Double(n) > x { averaged += 1 }
                if -log(max(Double(rng.nextSignedUnit()) * 0.5 + 0.5, 1e-12)) > perFrame { single += 1 }
            }
            let ratio = Double(averaged) / Double(single)
            #expect(abs(ratio - 1) < 0.1, "n \(n): \(averaged) vs \(single) passes of \(trials)")
        }
    }
}
