import AlarmBenchmarkSupport
import Foundation
import VigilCore

// Times decode, decode + STFT and decode + STFT + smoke and CO detectors on a synthesized
// 120 s, 44.1 kHz mono WAV; prints the best of N runs as "x real time" on one core.
let runs = Int(ProcessInfo.processInfo.environment["VIGIL_BENCH_RUNS"] ?? "") ?? 15
let path = try AlarmPipeline.syntheticRecording()
let clock = ContinuousClock()

func best(_ stages: AlarmPipeline.Stages) throws -> (seconds: Double, media: Double, detections: Int) {
    var bestTime = Double.infinity
    var media = 0.0
    var count = 0
    for _ in 0..<runs {
        var result: (seconds: Double, detections: [Detection])!
        let elapsed = try clock.measure { result = try AlarmPipeline.run(path: path, stages: stages) }
        let s = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        bestTime = min(bestTime, s)
        media = result.seconds
        count = result.detections.count
    }
    return (bestTime, media, count)
}

let decode = try best(.decode)
let stft = try best(.decodeAndSTFT)
let full = try best(.full)
func line(_ name: String, _ r: (seconds: Double, media: Double, detections: Int)) -> String {
    name.padding(toLength: 38, withPad: " ", startingAt: 0) + String(format: " %8.2f ms  %8.0fx real time", r.seconds * 1000, r.media / r.seconds)
}
print("file: \(path) (\(String(format: "%.0f", full.media)) s, 44.1 kHz mono, 16-bit WAV), best of \(runs)")
print(line("decode", decode))
print(line("decode + STFT", stft))
print(line("decode + STFT + smokeAlarm + coAlarm", full))
let detectorSeconds = max(full.seconds - stft.seconds, 1e-9)
print(String(format: "detectors alone: %.2f ms (%.0fx real time); detections: %d",
             detectorSeconds * 1000, full.media / detectorSeconds, full.detections))
