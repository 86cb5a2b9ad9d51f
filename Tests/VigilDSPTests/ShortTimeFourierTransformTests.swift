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

    @Test(
        "the fixed-duration configuration has 1024/44100 s frames and half that hop at every rate, zero-padded to a power of two; at 11.025, 22.05 and 44.1 kHz it is the standard one",
        arguments: [
            (8_000.0, 186, 93, 256), (11_025.0, 256, 128, 256), (16_000.0, 372, 186, 512), (22_050.0, 512, 256, 512),
            (32_000.0, 743, 372, 1024), (44_100.0, 1024, 512, 1024), (48_000.0, 1115, 557, 2048),
        ])
    func fixedDurationSizes(rate: Double, window: Int, hop: Int, fft: Int) {
        let c = STFTConfiguration.fixedDuration(sampleRate: rate)
        #expect(c.windowSize == window && c.hopSize == hop && c.fftSize == fft)
        #expect(abs(Double(c.windowSize) / rate - 1024 / 44_100) < 0.5 / rate)
        #expect((c == STFTConfiguration.standard(sampleRate: rate)) == [11_025.0, 22_050, 44_100].contains(rate))
    }

    @Test("zero-padded frames cover windowSize samples, are centred on them, and the last one says how many are the stream's")
    func zeroPaddedFrames() {
        let config = STFTConfiguration.fixedDuration(sampleRate: 16_000)
        var signal = SignalBuffer(sampleRate: 16_000, duration: 0.5)
        signal.addTone(frequency: 1_000, start: 0, duration: 0.5, dBFS: -3.0103, ramp: 0.000_001)
        let result = Self.frames(signal.samples, configuration: config, blockSize: 333)
        // 8000 samples: full frames at 0, 186, ... while k * 186 + 372 <= 8000, then one zero-padded frame.
        let full = (8_000 - 372) / 186 + 1
        #expect(result.count == full + 1)
        let expectedStarts: [Double] = (0..<(full + 1)).map { (index: Int) -> Double in Double(index * 186) / 16_000 }
        #expect(result.map(\.start) == expectedStarts)
        let stft = ShortTimeFourierTransform(configuration: config)
        var frames: [(center: Double, samples: Int, valid: Int)] = []
        signal.samples.withUnsafeBufferPointer { stft.process($0) { frames.append(($0.centerTime, $0.samples.count, $0.validCount)) } }
        stft.finish { frames.append(($0.centerTime, $0.samples.count, $0.validCount)) }
        #expect(frames.first?.center == 186.0 / 16_000 && frames.allSatisfy { $0.samples == 372 })
        #expect(frames.dropLast().allSatisfy { $0.valid == 372 } && frames.last?.valid == 8_000 - full * 186)
    }

    @Test(
        "a full-scale sine lands in its bin at about 0 dB, also in zero-padded frames",
        arguments: [
            STFTConfiguration.standard(sampleRate: 8_000), .standard(sampleRate: 44_100), .standard(sampleRate: 96_000),
            .fixedDuration(sampleRate: 16_000), .fixedDuration(sampleRate: 48_000),
        ])
    func sinePeak(config: STFTConfiguration) {
        let rate = config.sampleRate
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
