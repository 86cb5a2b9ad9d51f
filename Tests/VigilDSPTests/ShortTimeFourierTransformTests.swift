import Foundation
import Testing
import VigilDSP
import VigilSynth

@Suite("Short-time Fourier transform")
struct ShortTimeFourierTransformTests {
    /// Runs an STFT over `samples` pushed in blocks of `blockSize`, returning per-frame copies.
    static func frames(
        _ samples: [Float], configuration: STFTConfiguration, blockSize: Int
    ) -> [(index: Int, peakBin: Int, peakDB: Float, levelDBFS: Float, start: Double)] {
        let stft = ShortTimeFourierTransform(configuration: configuration)
        var out: [(Int, Int, Float, Float, Double)] = []
        let collect: (SpectralFrame) -> Void = { f in
            var best = 0
            for k in 0..<f.power.count where f.power[k] > f.power[best] { best = k }
            out.append((f.index, best, 10 * log10(max(f.power[best], 1e-30)), f.levelDBFS, f.startTime))
        }
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(blockSize, all.count - i)
                stft.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), collect)
                i += n
            }
        }
        stft.finish(collect)
        return out
    }

    @Test(
        "standard configuration picks ~23 ms power-of-two frames",
        arguments: [
            (8_000.0, 256), (16_000.0, 256), (22_050.0, 512), (44_100.0, 1024), (48_000.0, 1024), (96_000.0, 2048),
            (192_000.0, 4096),
        ])
    func standardSizes(rate: Double, expected: Int) {
        let c = STFTConfiguration.standard(sampleRate: rate)
        #expect(c.fftSize == expected)
        #expect(c.hopSize == expected / 2)
        #expect(c.binCount == expected / 2 + 1)
    }

    @Test("a full-scale sine lands in its bin at about 0 dB", arguments: [8_000.0, 44_100.0, 96_000.0])
    func sinePeak(rate: Double) {
        let config = STFTConfiguration.standard(sampleRate: rate)
        let frequency = config.binWidth * 37  // exactly on a bin centre
        var signal = SignalBuffer(sampleRate: rate, duration: 0.5)
        signal.addTone(frequency: frequency, start: 0, duration: 0.5, dBFS: -3.0103, ramp: 0.000_001)
        let result = Self.frames(signal.samples, configuration: config, blockSize: 4096)
        let middle = result[result.count / 2]
        #expect(middle.peakBin == 37)
        #expect(abs(middle.peakDB) < 0.2)
        #expect(abs(middle.levelDBFS - -3.01) < 0.1)
    }

    @Test("frames do not depend on how the stream is cut into blocks", arguments: [1, 7, 512, 1000, 100_000])
    func blockInvariance(blockSize: Int) {
        var gen = SeededGenerator(seed: 42)
        var signal = SignalBuffer(sampleRate: 16_000, duration: 1.3)
        signal.addNoise(dBFS: -20, generator: &gen)
        let config = STFTConfiguration.standard(sampleRate: 16_000)
        let reference = Self.frames(signal.samples, configuration: config, blockSize: signal.samples.count)
        let other = Self.frames(signal.samples, configuration: config, blockSize: blockSize)
        #expect(other.count == reference.count)
        for (a, b) in zip(reference, other) {
            #expect(a.index == b.index && a.peakBin == b.peakBin && a.peakDB == b.peakDB && a.levelDBFS == b.levelDBFS)
        }
    }

    @Test(
        "frame count and timing cover every sample, the last frame zero-padded",
        arguments: [
            0, 1, 255, 256, 257, 384, 1000,
        ])
    func frameCount(sampleCount: Int) {
        let config = STFTConfiguration(sampleRate: 8_000, fftSize: 256, hopSize: 128)
        let result = Self.frames([Float](repeating: 0.1, count: sampleCount), configuration: config, blockSize: 100)
        // Full frames at k*128 while k*128+256 <= n, then one padded frame if samples remain uncovered.
        let full = sampleCount >= 256 ? (sampleCount - 256) / 128 + 1 : 0
        let covered = full == 0 ? 0 : (full - 1) * 128 + 256
        let expected = full + (sampleCount > covered ? 1 : 0)
        #expect(result.count == expected)
        for (k, f) in result.enumerated() {
            #expect(f.index == k)
            #expect(abs(f.start - Double(k * 128) / 8_000) < 1e-12)
        }
        if let last = result.last {
            // The padding is excluded from the level: a constant 0.1 signal reads -20 dBFS.
            #expect(abs(last.levelDBFS - -20) < 0.01)
        }
    }

    @Test("plans are shared per size and safe to execute from several threads")
    func concurrentUse() async {
        let config = STFTConfiguration.standard(sampleRate: 44_100)
        var signal = SignalBuffer(sampleRate: 44_100, duration: 0.3)
        signal.addTone(frequency: 1000, start: 0, duration: 0.3, dBFS: -10)
        let samples = signal.samples
        let reference = Self.frames(samples, configuration: config, blockSize: 4096).map(\.peakDB)
        let results = await withTaskGroup(of: [Float].self) { group in
            for _ in 0..<8 {
                group.addTask { Self.frames(samples, configuration: config, blockSize: 333).map(\.peakDB) }
            }
            var all: [[Float]] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 8)
        for r in results { #expect(r == reference) }
        #expect(RealFFTPlan.shared(size: 1024) === RealFFTPlan.shared(size: 1024))
    }
}

@Suite("Synthesized alarm patterns")
struct SynthesizedPatternTests {
    /// Onsets of the beeps in `samples` (sample-exact, from the non-zero runs).
    static func onsets(_ samples: [Float], rate: Double) -> [(on: Double, off: Double)] {
        var runs: [(Double, Double)] = []
        var start: Int?
        for (i, v) in samples.enumerated() {
            if v != 0, start == nil { start = i }
            if v == 0, let s = start, i - s > 10 {
                runs.append((Double(s) / rate, Double(i) / rate))
                start = nil
            } else if v == 0 {
                start = nil
            }
        }
        return runs
    }

    @Test("T3 has 0.5 s beeps 0.5 s apart and a 4 s cycle")
    func temporalThree() throws {
        var s = SignalBuffer(sampleRate: 8_000, duration: 10)
        let span = s.addTemporalThree(start: 1, cycles: 2, frequency: 1000)
        let runs = Self.onsets(s.samples, rate: 8_000)
        try #require(runs.count == 6)
        let starts = runs.map { ($0.on * 100).rounded() / 100 }
        #expect(starts == [1.0, 2.0, 3.0, 5.0, 6.0, 7.0])
        #expect(runs.allSatisfy { abs($0.off - $0.on - 0.5) < 0.01 })
        #expect(abs(span.end - 7.5) < 1e-9)
    }

    @Test("T4 has 0.1 s beeps 0.1 s apart and a 5.8 s cycle")
    func temporalFour() throws {
        var s = SignalBuffer(sampleRate: 8_000, duration: 14)
        s.addTemporalFour(start: 1, cycles: 2, frequency: 1000)
        let runs = Self.onsets(s.samples, rate: 8_000)
        try #require(runs.count == 8)
        let starts = runs.map { ($0.on * 100).rounded() / 100 }
        #expect(starts == [1.0, 1.2, 1.4, 1.6, 6.8, 7.0, 7.2, 7.4])
    }
}
