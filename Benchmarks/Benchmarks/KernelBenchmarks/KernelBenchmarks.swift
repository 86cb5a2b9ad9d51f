import Benchmark
import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors
import VigilSynth

/// Metrics reported for every kernel: time, throughput, instructions (where the kernel allows
/// perf counters), allocations and peak memory.
let kernelMetrics: [BenchmarkMetric] = [
    .wallClock, .cpuTotal, .throughput, .instructions, .mallocCountTotal, .peakMemoryResident,
]

/// Ten seconds of 44.1 kHz noise with a few tones and T3/T4 patterns.
func scene(seconds: Double = 10) -> [Float] {
    var generator = SeededGenerator(seed: 42)
    var s = SignalBuffer(sampleRate: 44_100, duration: seconds)
    s.addNoise(dBFS: -45, generator: &generator)
    s.addTemporalThree(start: 0.5, cycles: 2, frequency: 3150, dBFS: -25)
    s.addTone(frequency: 1000, start: 9, duration: 0.5, dBFS: -20)
    return s.samples
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: kernelMetrics, maxDuration: .seconds(3), maxIterations: 1_000_000)

    // One iteration = 1 s of 44.1 kHz audio = 86 frames of 1024 points, hop 512.
    Benchmark("STFT 1024/hop 512, 1 s at 44.1 kHz") { benchmark in
        let oneSecond = Array(scene(seconds: 1))
        let stft = ShortTimeFourierTransform(configuration: STFTConfiguration(sampleRate: 44_100, fftSize: 1024, hopSize: 512))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            oneSecond.withUnsafeBufferPointer { b in stft.process(b) { blackHole($0.power[5]) } }
        }
    }

    // Point in polygon and motion: see VisionBenchmarks (workloads shared with `vigil bench kernels`).

    // One iteration = 10 s of 44.1 kHz audio through the shared STFT and every sound detector.
    Benchmark("All sound detectors, 10 s at 44.1 kHz") { benchmark in
        let samples = scene()
        let triggers = Set(DetectorRegistry.availableSoundTriggers)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let analyzer = AudioStreamAnalyzer(sampleRate: 44_100, triggers: triggers)
            samples.withUnsafeBufferPointer { analyzer.process($0) }
            blackHole(analyzer.finish().count)
        }
    }

    // One iteration per sound trigger: 10 s of 44.1 kHz audio through the STFT and that detector alone.
    for trigger in DetectorRegistry.availableSoundTriggers {
        Benchmark("Detector \(trigger.rawValue), 10 s at 44.1 kHz") { benchmark in
            let samples = scene()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let analyzer = AudioStreamAnalyzer(sampleRate: 44_100, triggers: [trigger])
                samples.withUnsafeBufferPointer { analyzer.process($0) }
                blackHole(analyzer.finish().count)
            }
        }
    }

    // One iteration = decoding a 60 s 44.1 kHz mono 16-bit WAV in 65,536-sample blocks.
    Benchmark("Decode WAV, 60 s at 44.1 kHz") { benchmark in
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bench-\(getpid()).wav").path
        var samples: [Float] = []
        for _ in 0..<6 { samples += scene() }
        try AudioFileWriter.write(samples, sampleRate: 44_100, format: .wav16, to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var buffer = [Float](repeating: 0, count: 65_536)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let reader = try AudioFileReader(path: path)
            while try buffer.withUnsafeMutableBufferPointer({ try reader.readMono(into: $0) }) > 0 {}
        }
    }
}
