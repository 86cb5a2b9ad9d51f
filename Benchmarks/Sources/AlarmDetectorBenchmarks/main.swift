import AlarmBenchmarkSupport
import Foundation
import VigilCore

#if canImport(Glibc)
import Glibc
#endif

// Times decode, decode + STFT and decode + STFT + smoke and CO detectors on a synthesized
// 120 s, 44.1 kHz mono WAV; prints the best of N runs as "x real time" on one core, by wall
// clock (ContinuousClock) and by this thread's CPU time (less sensitive to other processes).
let runs = Int(ProcessInfo.processInfo.environment["VIGIL_BENCH_RUNS"] ?? "") ?? 15
let path = try AlarmPipeline.syntheticRecording()
let clock = ContinuousClock()

func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

struct Timing {
    var wall = Double.infinity
    var cpu = Double.infinity
    var media = 0.0
    var detections = 0
}

func best(_ stages: AlarmPipeline.Stages) throws -> Timing {
    var t = Timing()
    for _ in 0..<runs {
        var result: (seconds: Double, detections: [Detection])!
        let cpu0 = threadCPUSeconds()
        let elapsed = try clock.measure { result = try AlarmPipeline.run(path: path, stages: stages) }
        let cpu = threadCPUSeconds() - cpu0
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        t.wall = min(t.wall, wall)
        t.cpu = min(t.cpu, cpu)
        t.media = result.seconds
        t.detections = result.detections.count
    }
    return t
}

let decode = try best(.decode)
let stft = try best(.decodeAndSTFT)
let full = try best(.full)
func line(_ name: String, _ r: Timing) -> String {
    name.padding(toLength: 38, withPad: " ", startingAt: 0)
        + String(
            format: " wall %7.2f ms %7.0fx | cpu %7.2f ms %7.0fx real time", r.wall * 1000, r.media / r.wall,
            r.cpu * 1000, r.media / r.cpu)
}
print("file: \(path) (\(String(format: "%.0f", full.media)) s, 44.1 kHz mono, 16-bit WAV), best of \(runs)")
print(line("decode", decode))
print(line("decode + STFT", stft))
print(line("decode + STFT + smokeAlarm + coAlarm", full))
// The detectors' own cost, amplified above timing noise: 9 detector pairs minus 1 pair, over 8.
let nine = try best(.fullRepeated(9))
let detectorCPU = max(nine.cpu - full.cpu, 0) / 8
let frames = full.media * 44_100 / 512
print(line("decode + STFT + 9 x (smoke + CO)", nine))
print(
    String(
        format: "both alarm detectors alone: %.2f ms cpu per %.0f s = %.0f ns per frame (%.0fx real time); detections: %d",
        detectorCPU * 1000, full.media, detectorCPU * 1e9 / frames, full.media / max(detectorCPU, 1e-9), full.detections))
print(
    String(
        format: "decode + STFT + both detectors from the parts (cpu): %.2f ms = %.0fx real time",
        (stft.cpu + detectorCPU) * 1000, full.media / (stft.cpu + detectorCPU)))
