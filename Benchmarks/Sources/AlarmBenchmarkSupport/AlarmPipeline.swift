import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors
import VigilSynth

/// The measured pipeline of the alarm benchmarks: decode a file, run the shared STFT, feed
/// the smoke and CO alarm detectors.
public enum AlarmPipeline {
    /// Which stages run.
    public enum Stages: Sendable {
        /// Decoding only.
        case decode
        /// Decoding and the STFT.
        case decodeAndSTFT
        /// Decoding, the STFT and both alarm detectors.
        case full
        /// Decoding, the STFT and `n` independent pairs of alarm detectors (to measure the
        /// detectors' own cost by difference).
        case fullRepeated(Int)
    }

    /// Writes (once) a synthesized 44.1 kHz mono 16-bit WAV of `duration` seconds to the temp
    /// directory: noise and babble-like background with T3 and T4 alarms. Returns its path.
    public static func syntheticRecording(duration: Double = 120, sampleRate: Int = 44_100) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("vigil-alarm-bench-\(sampleRate)-\(Int(duration)).wav").path
        if FileManager.default.fileExists(atPath: path) { return path }
        var signal = SignalBuffer(sampleRate: Double(sampleRate), duration: duration)
        var rng = SeededGenerator(seed: 42)
        signal.addNoise(dBFS: -45, generator: &rng)
        var t = 5.0
        while t + 20 < duration {
            signal.addTemporalThree(start: t, cycles: 3, frequency: 3240, dBFS: -30)
            signal.addTemporalFour(start: t + 14, cycles: 2, frequency: 3320, dBFS: -30)
            t += 30
        }
        try AudioFileWriter.write(signal.samples, sampleRate: sampleRate, format: .wav16, to: path)
        return path
    }

    /// Runs `stages` over the file at `path`; returns (media seconds, detections).
    public static func run(path: String, stages: Stages = .full) throws -> (seconds: Double, detections: [Detection]) {
        if case .fullRepeated(let n) = stages, n > 1 { return try runRepeated(path: path, pairs: n) }
        let reader = try AudioFileReader(path: path)
        let rate = Double(reader.sampleRate)
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        let stft = ShortTimeFourierTransform(configuration: configuration)
        let settings = DetectorSettings()
        let detectors = [EventTriggerType.smokeAlarm, .coAlarm].compactMap {
            DetectorRegistry.makeDetector(for: $0, configuration: configuration, settings: settings)
        }
        var detections: [Detection] = []
        detections.reserveCapacity(64)
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 16_384)
        defer { buffer.deallocate() }
        var total = 0
        var checksum: Float = 0
        while true {
            let n = try reader.readMono(into: buffer)
            if n == 0 { break }
            total += n
            let block = UnsafeBufferPointer(rebasing: buffer[0..<n])
            switch stages {
            case .decode:
                checksum += block[n - 1]
            case .decodeAndSTFT:
                stft.process(block) { frame in checksum += frame.power[100] }
            case .full, .fullRepeated:
                stft.process(block) { frame in
                    for d in detectors { d.process(frame, into: &detections) }
                }
            }
        }
        if case .decode = stages {
        } else if case .decodeAndSTFT = stages {
        } else {
            stft.finish { frame in for d in detectors { d.process(frame, into: &detections) } }
            for d in detectors { d.finish(at: Double(total) / rate, into: &detections) }
        }
        if checksum.isNaN { detections.append(.point(.sound, at: 0)) }  // keeps the work observable
        return (Double(total) / rate, detections)
    }

    private static func runRepeated(path: String, pairs: Int) throws -> (seconds: Double, detections: [Detection]) {
        let reader = try AudioFileReader(path: path)
        let rate = Double(reader.sampleRate)
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        let stft = ShortTimeFourierTransform(configuration: configuration)
        let settings = DetectorSettings()
        var detectors: [any SpectralDetector] = []
        for _ in 0..<pairs {
            detectors += [EventTriggerType.smokeAlarm, .coAlarm].compactMap {
                DetectorRegistry.makeDetector(for: $0, configuration: configuration, settings: settings)
            }
        }
        var detections: [Detection] = []
        detections.reserveCapacity(64 * pairs)
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 16_384)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let n = try reader.readMono(into: buffer)
            if n == 0 { break }
            total += n
            stft.process(UnsafeBufferPointer(rebasing: buffer[0..<n])) { frame in
                for d in detectors { d.process(frame, into: &detections) }
            }
        }
        for d in detectors { d.finish(at: Double(total) / rate, into: &detections) }
        return (Double(total) / rate, detections)
    }
}
