import ArgumentParser
import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors

/// `vigil-dev alarm-trace`: the beeps and groups the smoke and CO alarm detectors see in
/// recordings, and the detections they make (what the tuning of the alarm detectors looks at).
struct AlarmTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm-trace",
        abstract: "Print the beeps and groups the alarm detectors see in recordings, and their detections.")

    @Argument(help: "Audio files.")
    var files: [String]

    @Flag(help: "Also print every beep (onset, offset, length, frequency, prominence), not only the groups.")
    var beeps = false

    func run() throws {
        for path in files {
            let samples = try AlarmTrace.decode(path)
            let configuration = STFTConfiguration.standard(sampleRate: samples.rate)
            for pattern in [AlarmPattern.temporalThree, .temporalFour] {
                let detector = AlarmPatternDetector(pattern: pattern, configuration: configuration)
                var lines: [String] = []
                detector.diagnosticBeep = { on, off, hz, prominence in
                    guard beeps, off - on > 0.04 else { return }
                    lines.append(
                        String(
                            format: "  beep %.3f-%.3f (%.3f) %.0f Hz prom %.1f dB", on, off, off - on, hz, 10 * log10(Double(prominence))))
                }
                detector.diagnosticGroup = { first, count, valid in
                    lines.append(String(format: "  GROUP at %.3f n=%d %@", first, count, valid ? "valid" : "invalid"))
                }
                var detections: [Detection] = []
                let stft = ShortTimeFourierTransform(configuration: configuration)
                samples.values.withUnsafeBufferPointer { all in
                    stft.process(all) { detector.process($0, into: &detections) }
                }
                stft.finish { detector.process($0, into: &detections) }
                detector.finish(at: Double(samples.values.count) / samples.rate, into: &detections)
                let found = detections.map { String(format: "%.2f-%.2f at %.2f %@", $0.start, $0.end, $0.detectedAt, "\($0.evidence)") }
                print("== \(path) \(pattern.name): \(found)")
                for line in lines { print(line) }
            }
        }
    }

    /// The mono samples of `path` and their rate.
    static func decode(_ path: String) throws -> (values: [Float], rate: Double) {
        let decoded = try AudioFileReader.readAllMono(path: path)
        return (decoded.samples, Double(decoded.sampleRate))
    }
}

/// `vigil-dev alarm-spectrum`: per-frame powers (dB) of the 13 bins around a frequency in a time
/// range of a recording.
struct AlarmSpectrum: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm-spectrum", abstract: "Print per-frame powers (dB) of the bins around a frequency in a time range.")

    @Argument(help: "An audio file.")
    var file: String

    @Option(help: "Centre frequency in Hz.")
    var hz: Double = 3300

    @Option(help: "Start of the range in seconds.")
    var from: Double = 0

    @Option(help: "End of the range in seconds.")
    var to: Double = 5

    func run() throws {
        let samples = try AlarmTrace.decode(file)
        let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: samples.rate))
        let center = stft.configuration.bin(forFrequency: hz)
        let bins = max(0, center - 6)...min(stft.configuration.binCount - 1, center + 6)
        samples.values.withUnsafeBufferPointer { all in
            stft.process(all) { frame in
                guard frame.centerTime >= from && frame.centerTime <= to else { return }
                let cells = bins.map { String(format: "%4.0f", 10 * log10(Double(frame.power[$0]) + 1e-15)) }
                print(String(format: "%7.3f ", frame.centerTime) + cells.joined(separator: " "))
            }
        }
    }
}
