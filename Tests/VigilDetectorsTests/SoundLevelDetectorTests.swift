import Testing
import VigilCore
import VigilDSP
import VigilDetectors
import VigilSynth

/// Runs `detector` over `samples` at `rate` through the standard STFT.
func runDetector(_ detector: any SpectralDetector, samples: [Float], rate: Double) -> [Detection] {
    let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
    var out: [Detection] = []
    samples.withUnsafeBufferPointer { buffer in
        stft.process(buffer) { detector.process($0, into: &out) }
    }
    stft.finish { detector.process($0, into: &out) }
    detector.finish(at: Double(samples.count) / rate, into: &out)
    return out
}

@Suite("Sound level detector")
struct SoundLevelDetectorTests {
    static let rate = 16_000.0

    func detector(_ level: Int) -> SoundLevelDetector {
        SoundLevelDetector(configuration: .standard(sampleRate: Self.rate), sensitivity: Sensitivity(level))
    }

    @Test("silence and steady low noise give nothing")
    func quiet() {
        var gen = SeededGenerator(seed: 1)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 10)
        #expect(runDetector(detector(10), samples: signal.samples, rate: Self.rate).isEmpty)
        signal.addNoise(dBFS: -50, generator: &gen)
        #expect(runDetector(detector(10), samples: signal.samples, rate: Self.rate).isEmpty)
    }

    @Test("loud bursts over a noise floor are found at their times", arguments: [1, 5, 10])
    func bursts(level: Int) throws {
        var gen = SeededGenerator(seed: 2)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 12)
        signal.addNoise(dBFS: -50, generator: &gen)
        signal.addNoise(dBFS: -10, start: 3, duration: 1, generator: &gen)
        signal.addTone(frequency: 800, start: 8, duration: 0.6, dBFS: -12)
        let found = runDetector(detector(level), samples: signal.samples, rate: Self.rate)
        try #require(found.count == 2)
        #expect(abs(found[0].start - 3) < 0.05)
        #expect(abs(found[0].end - 4) < 0.1)
        #expect(found[0].detectedAt >= found[0].start && found[0].detectedAt - found[0].start < 0.2)
        #expect(abs(found[1].start - 8) < 0.05)
        #expect(abs(found[1].end - 8.6) < 0.1)
        guard case .number(let peak) = found[0].evidence["peakDBFS"] else {
            Issue.record("peakDBFS missing")
            return
        }
        #expect(abs(peak - -10) < 1.5)
        guard case .number(let floor) = found[0].evidence["noiseFloorDBFS"] else {
            Issue.record("noiseFloorDBFS missing")
            return
        }
        #expect(abs(floor - -50) < 3)
        #expect(found.allSatisfy { $0.trigger == .sound && $0.confidence >= 0.5 && $0.confidence <= 1 })
    }

    @Test("sensitivity sets the threshold: a 15 dB rise counts at 10 but not at 1")
    func sensitivityOrdering() {
        var gen = SeededGenerator(seed: 3)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 8)
        signal.addNoise(dBFS: -45, generator: &gen)
        signal.addNoise(dBFS: -30, start: 4, duration: 1, generator: &gen)
        #expect(runDetector(detector(10), samples: signal.samples, rate: Self.rate).count == 1)
        #expect(runDetector(detector(1), samples: signal.samples, rate: Self.rate).isEmpty)
        #expect(detector(1).thresholdDB > detector(5).thresholdDB)
        #expect(detector(5).thresholdDB > detector(10).thresholdDB)
    }

    @Test("a new steady noise becomes the floor instead of one endless sound")
    func adaptsToSteadyNoise() throws {
        var gen = SeededGenerator(seed: 4)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 60)
        signal.addNoise(dBFS: -55, generator: &gen)
        signal.addNoise(dBFS: -30, start: 5, duration: 55, generator: &gen)  // a vacuum switched on
        signal.addTone(frequency: 1000, start: 50, duration: 0.5, dBFS: -8)  // a loud event over it
        let found = runDetector(detector(5), samples: signal.samples, rate: Self.rate)
        try #require(found.count == 2)
        #expect(abs(found[0].start - 5) < 0.1)
        #expect(found[0].end < 45)
        #expect(abs(found[1].start - 50) < 0.1)
    }

    @Test("a short sound just over the threshold is not reported, a loud transient is")
    func shortSounds() throws {
        var gen = SeededGenerator(seed: 5)
        var quiet = SignalBuffer(sampleRate: Self.rate, duration: 4)
        quiet.addNoise(dBFS: -60, generator: &gen)
        // 40 ms, about 5 dB over the start threshold at sensitivity 5 (floor ~-60, threshold ~20 dB).
        quiet.addTone(frequency: 1000, start: 2, duration: 0.04, dBFS: -35)
        #expect(runDetector(detector(5), samples: quiet.samples, rate: Self.rate).isEmpty)
        var knock = SignalBuffer(sampleRate: Self.rate, duration: 4)
        knock.addNoise(dBFS: -60, generator: &gen)
        knock.addNoise(dBFS: -12, start: 2, duration: 0.04, generator: &gen)
        let found = runDetector(detector(5), samples: knock.samples, rate: Self.rate)
        try #require(found.count == 1)
        #expect(abs(found[0].start - 2) < 0.03)
    }

    @Test("beeps closer together than the hangover form one sound; a longer pause splits")
    func hangoverMerges() {
        var gen = SeededGenerator(seed: 6)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 12)
        signal.addNoise(dBFS: -60, generator: &gen)
        signal.addTemporalThree(start: 1, cycles: 2, frequency: 3100, dBFS: -20)
        let found = runDetector(detector(5), samples: signal.samples, rate: Self.rate)
        #expect(found.count == 2)
        #expect(found.map { ($0.start * 10).rounded() / 10 } == [1.0, 5.0])
    }

    @Test("a sound still going at the end of the stream is closed by finish")
    func closedAtEnd() throws {
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 4)
        signal.addTone(frequency: 1000, start: 3, duration: 1, dBFS: -6, ramp: 0.000_1)
        let found = runDetector(detector(5), samples: signal.samples, rate: Self.rate)
        try #require(found.count == 1)
        #expect(abs(found[0].start - 3) < 0.05)
        #expect(found[0].end > 3.8 && found[0].end <= 4.01)
    }
}
