import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilDSP

@testable import VigilDetectors

/// Prints the beeps and groups the alarm detectors see in the dev files named by
/// `VIGIL_ALARM_DIAG` (comma-separated); runs only when that variable is set.
@Test(
    "alarm diagnostics (VIGIL_ALARM_DIAG=file,...)",
    .enabled(if: ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG"] != nil && AlarmTestSupport.hasDevData))
func alarmDiagnostics() throws {
    let names = ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG"]!.split(separator: ",").map(String.init)
    for name in names {
        let path = AlarmTestSupport.devDirectory.appendingPathComponent("audio/\(name)").path
        let reader = try AudioFileReader(path: path)
        var samples: [Float] = []
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 16384)
        defer { buffer.deallocate() }
        while true {
            let n = try reader.readMono(into: buffer)
            if n == 0 { break }
            samples.append(contentsOf: buffer[0..<n])
        }
        let rate = Double(reader.sampleRate)
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        for pattern in [AlarmPattern.temporalThree, .temporalFour] {
            let d = AlarmPatternDetector(pattern: pattern, configuration: configuration)
            var lines: [String] = []
            d.diagnosticBeep = { (on: Double, off: Double, hz: Double, prom: Float) in
                if off - on > 0.04 {
                    lines.append(
                        String(format: "  beep %.3f-%.3f (%.3f) %.0f Hz prom %.1f dB", on, off, off - on, hz, 10 * log10(Double(prom))))
                }
            }
            d.diagnosticGroup = { first, count, valid in
                lines.append(String(format: "  GROUP at %.3f n=%d %@", first, count, valid ? "valid" : "invalid"))
            }
            let det = AlarmTestSupport.run([d], samples: samples, sampleRate: rate)
            print(
                "== \(name) \(pattern.name): \(det.map { String(format: "%.2f-%.2f at %.2f %@", $0.start, $0.end, $0.detectedAt, "\($0.evidence)") })"
            )
            if ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG_BEEPS"] != nil {
                for line in lines { print(line) }
            } else {
                for line in lines where line.contains("GROUP") { print(line) }
            }
        }
    }
}

/// Prints per-frame powers (dB) of the bins around `VIGIL_ALARM_DIAG_HZ` for the time range
/// `VIGIL_ALARM_DIAG_RANGE` (a,b) of the file `VIGIL_ALARM_DIAG_FILE`.
@Test(
    "alarm spectrum diagnostics",
    .enabled(if: ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG_FILE"] != nil && AlarmTestSupport.hasDevData))
func alarmSpectrumDiagnostics() throws {
    let env = ProcessInfo.processInfo.environment
    let path = AlarmTestSupport.devDirectory.appendingPathComponent("audio/\(env["VIGIL_ALARM_DIAG_FILE"]!)").path
    let range = env["VIGIL_ALARM_DIAG_RANGE", default: "0,5"].split(separator: ",").map { Double($0)! }
    let hz = Double(env["VIGIL_ALARM_DIAG_HZ", default: "3300"])!
    let reader = try AudioFileReader(path: path)
    let rate = Double(reader.sampleRate)
    let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
    let center = stft.configuration.bin(forFrequency: hz)
    let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)
    defer { buffer.deallocate() }
    while true {
        let n = try reader.readMono(into: buffer)
        if n == 0 { break }
        stft.process(UnsafeBufferPointer(rebasing: buffer[0..<n])) { frame in
            guard frame.centerTime >= range[0] && frame.centerTime <= range[1] else { return }
            let cells = (center - 6...center + 6).map { String(format: "%4.0f", 10 * log10(Double(frame.power[$0]) + 1e-15)) }
            print(String(format: "%7.3f ", frame.centerTime) + cells.joined(separator: " "))
        }
    }
}

/// Prints the detections of a few synthesized scenarios (VIGIL_ALARM_DIAG_SYNTH=1).
@Test("alarm synthetic diagnostics", .enabled(if: ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG_SYNTH"] != nil))
func alarmSyntheticDiagnostics() {
    var a = AlarmScenario.temporalFour(.piezo(hz: 3900, drift: 0.01))
    a.sampleRate = 48_000
    var b = AlarmScenario.temporalFour(.square(hz: 520), realUnit: true)
    b.sampleRate = 48_000
    var c = AlarmScenario.temporalFour(.piezo(hz: 3300, drift: 0))
    c.restartAfter = 2.5 * c.cycle
    var list = [a, b, c]
    if let spec = ProcessInfo.processInfo.environment["VIGIL_ALARM_DIAG_VARIANT"] {
        // pulses,seed,ebr,background
        let f = spec.split(separator: ",").map(String.init)
        list = [
            AlarmSyntheticTests.variant(
                pulses: Int(f[0])!, seed: UInt64(f[1])!, ebr: Double(f[2])!, background: AlarmScenario.Background(rawValue: f[3])!,
                family: f.count > 4 ? f[4] : "piezo")
        ]
    }
    for s in list {
        let (samples, bursts) = s.render()
        for pattern in [s.pulses == 3 ? AlarmPattern.temporalThree : .temporalFour] {
            let d = AlarmPatternDetector(pattern: pattern, configuration: .standard(sampleRate: s.sampleRate))
            var lines: [String] = []
            d.diagnosticBeep = { (on: Double, off: Double, hz: Double, prom: Float) in
                if off - on > 0.04 {
                    lines.append(
                        String(format: "  beep %.3f-%.3f (%.3f) %.0f Hz prom %.1f dB", on, off, off - on, hz, 10 * log10(Double(prom))))
                }
            }
            d.diagnosticGroup = { first, count, valid in
                if count > 0 { lines.append(String(format: "  GROUP at %.3f n=%d %@", first, count, valid ? "valid" : "invalid")) }
            }
            let det = AlarmTestSupport.run([d], samples: samples, sampleRate: s.sampleRate)
            print("== \(s) bursts \(bursts): \(det.map { String(format: "%.2f-%.2f at %.2f", $0.start, $0.end, $0.detectedAt) })")
            for line in lines { print(line) }
        }
    }
}
