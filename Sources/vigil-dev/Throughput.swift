import ArgumentParser
import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors
import VigilTestSupport

/// Throughput of decode + STFT + the three learned detectors on the 44.1 kHz mono development
/// files (65 min), one thread. Release build:
///   swift build -c release --product vigil-dev && .build/release/vigil-dev throughput
struct LearnedThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "throughput", abstract: "Decode, STFT and the three learned detectors on the development files, x real time.")

    enum Stage { case decode, stft, detectors }

    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func run(_ stage: Stage, files: [String]) throws -> (seconds: Double, media: Double, cpu: Double) {
        let cpuStart = cpuSeconds()
        var media = 0.0
        var sink: Float = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var block = [Float](repeating: 0, count: 4096)
        for name in files {
            let reader = try AudioFileReader(path: DevData.devDirectory.appendingPathComponent("audio/\(name)").path)
            let configuration = STFTConfiguration.standard(sampleRate: Double(reader.sampleRate))
            let stft = ShortTimeFourierTransform(configuration: configuration)
            let detectors: [any SpectralDetector] =
                stage == .detectors
                ? [EventTriggerType.dogBark, .glassBreak, .personTalking].compactMap {
                    DetectorRegistry.makeDetector(for: $0, configuration: configuration, settings: DetectorSettings())
                } : []
            var out: [Detection] = []
            var count = 0
            while true {
                let n = try block.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                if n == 0 { break }
                count += n
                if stage == .decode {
                    sink += block[0]
                    continue
                }
                block.withUnsafeBufferPointer { b in
                    stft.process(UnsafeBufferPointer(rebasing: b[0..<n])) { f in
                        sink += f.power[1]
                        for d in detectors { d.process(f, into: &out) }
                    }
                }
            }
            stft.finish { f in for d in detectors { d.process(f, into: &out) } }
            for d in detectors { d.finish(at: Double(count) / Double(reader.sampleRate), into: &out) }
            media += Double(count) / Double(reader.sampleRate)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if sink.isNaN { print("") }
        return (seconds, media, cpuSeconds() - cpuStart)
    }

    func run() throws {
        try DevData.requireAvailable()
        let files = try DevData.load().files
        _ = try Self.run(.detectors, files: Array(files.prefix(5)))  // warm up
        for stage in [Stage.decode, .stft, .detectors] {
            let r = try Self.run(stage, files: files)
            print(
                "throughput \(stage): \(Int(r.media)) s of 44.1 kHz mono in \(String(format: "%.2f", r.seconds)) s wall = \(Int(r.media / r.seconds))x, \(String(format: "%.2f", r.cpu)) s thread CPU = \(Int(r.media / r.cpu))x real time"
            )
        }
    }
}
