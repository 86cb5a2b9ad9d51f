import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilPipeline
import VigilSynth

/// `vigil bench speed`: how many times real time decoding, the shared STFT and each detector run,
/// alone and together, on one core (thread CPU time) and on all cores, with peak memory.
package struct SpeedBench {
    /// A recording that failed while timing.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed.
        package var description: String
    }

    /// The recordings timed; empty: a synthesized 10-minute 44.1 kHz mono scene.
    package var files: [String]
    /// Runs per measurement; the best is reported.
    package var runs: Int
    /// Print JSON instead of a table.
    package var json: Bool

    /// A benchmark of `files`, best of `runs`.
    package init(files: [String], runs: Int, json: Bool) {
        self.files = files
        self.runs = runs
        self.json = json
    }

    /// Measures and writes the table (or JSON) to `output`.
    /// - Throws: the first error reading or writing a recording.
    package func run(output: (String) -> Void) throws {
        var paths = files
        var temporary: URL?
        if paths.isEmpty {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bench-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let path = dir.appendingPathComponent("scene-44k-mono.wav").path
            try SpeedScene.write(to: path, sampleRate: 44_100, minutes: 10)
            paths = [path]
            temporary = dir
        }
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        func line(_ text: String) { output(text + "\n") }
        var info: [String] = []
        for p in paths {
            let r = try AudioFileReader(path: p, blockFrames: 1)
            info.append(
                "\(p): \(r.sampleRate) Hz, \(r.channelCount) ch, \(DecimalText.fixed(r.declaredDuration, places: 1)) s, \(r.formatDescription)"
            )
        }
        let media = try paths.reduce(0.0) { $0 + (try AudioFileReader(path: $1, blockFrames: 1).declaredDuration) }
        let available = DetectorRegistry.availableSoundTriggers
        var rows: [SpeedRow] = []
        // Each figure is the best of `runs`, timed on two clocks: CPU time (of this thread for the
        // one-core rows, immune to other processes on a busy machine; of the whole process for the
        // all-cores row) and wall time.
        func best(name: String, cores: Int, media: Double, cpuClock: () -> Double, _ body: () throws -> Void) rethrows -> SpeedRow {
            var bestCPU = Double.infinity
            var bestWall = Double.infinity
            for _ in 0..<runs {
                let cpuStart = cpuClock()
                let start = ContinuousClock.now
                try body()
                let elapsed = ContinuousClock.now - start
                bestCPU = min(bestCPU, cpuClock() - cpuStart)
                bestWall = min(bestWall, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            }
            return SpeedRow(name: name, cores: cores, perCPUSecond: media / bestCPU, perWallSecond: media / bestWall)
        }
        func oneCore(_ name: String, _ body: () throws -> Void) rethrows -> SpeedRow {
            try best(name: name, cores: 1, media: media, cpuClock: threadCPUSeconds, body)
        }
        // Warm-up: creates the FFTW plans (once per size) and faults the files into the page cache.
        for p in paths { try Self.analyze(p, triggers: Set(available)) }
        rows.append(try oneCore("decode only") { for p in paths { try Self.decode(p) } })
        rows.append(try oneCore("decode + STFT") { for p in paths { try Self.analyze(p, triggers: []) } })
        for trigger in available {
            rows.append(try oneCore(trigger.rawValue) { for p in paths { try Self.analyze(p, triggers: [trigger]) } })
        }
        if available.contains(.smokeAlarm) && available.contains(.coAlarm) {
            rows.append(try oneCore("smokeAlarm + coAlarm") { for p in paths { try Self.analyze(p, triggers: [.smokeAlarm, .coAlarm]) } })
        }
        rows.append(try oneCore("all \(available.count) together") { for p in paths { try Self.analyze(p, triggers: Set(available)) } })
        let cores = availableCores
        if cores > 1 {
            let copies = Array(repeating: paths, count: cores).flatMap { $0 }
            rows.append(
                try best(name: "all \(available.count) together", cores: cores, media: media * Double(cores), cpuClock: processCPUSeconds) {
                    let errors = parallelMap(copies, jobs: cores) { p -> String? in
                        do { try Self.analyze(p, triggers: Set(available)) } catch { return "\(error)" }
                        return nil
                    }
                    if let e = errors.compactMap({ $0 }).first { throw Failure(description: e) }
                })
        }
        let peak = peakResidentBytes
        if json {
            let value = JSONValue.object(
                JSONObject([
                    ("inputs", .array(info.map { .string($0) })), ("mediaSeconds", .number(media)),
                    ("repeat", .number(Double(runs))),
                    (
                        "results",
                        .array(
                            rows.map {
                                .object([
                                    "name": .string($0.name), "cores": .number(Double($0.cores)),
                                    "xRealTimePerCPUSecond": .number(($0.perCPUSecond * 10).rounded() / 10),
                                    "xRealTimePerWallSecond": .number(($0.perWallSecond * 10).rounded() / 10),
                                ])
                            })
                    ),
                    ("peakResidentBytes", .number(Double(peak))),
                ]))
            output(value.serialized(.pretty) + "\n")
        } else {
            for text in info { line(text) }
            line("best of \(runs) runs; x real time = seconds of media analyzed per second of CPU time (all cores' CPU time added up)")
            line("and per second of wall time; one-core rows time this thread's CPU clock, so other load on the machine barely moves them")
            let width = rows.map(\.name.count).max() ?? 10
            line(
                "DETECTORS".padding(toLength: width, withPad: " ", startingAt: 0) + "  CORES  X REAL TIME PER CPU S  X REAL TIME PER WALL S"
            )
            for row in rows {
                line(
                    row.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(row.cores).leftPad(5) + "  "
                        + DecimalText.fixed(row.perCPUSecond, places: 0).leftPad(22) + "  "
                        + DecimalText.fixed(row.perWallSecond, places: 0).leftPad(23))
            }
            line("peak memory: \(peak / (1 << 20)) MiB")
        }
    }

    /// One row of the speed table: media seconds analyzed per CPU second and per wall second.
    struct SpeedRow {
        var name: String
        var cores: Int
        var perCPUSecond: Double
        var perWallSecond: Double
    }

    static func decode(_ path: String) throws {
        let reader = try AudioFileReader(path: path)
        var buffer = [Float](repeating: 0, count: 65_536)
        while try buffer.withUnsafeMutableBufferPointer({ try reader.readMono(into: $0) }) > 0 {}
    }

    static func analyze(_ path: String, triggers: Set<EventTriggerType>) throws {
        let reader = try AudioFileReader(path: path)
        let analyzer = AudioStreamAnalyzer(sampleRate: Double(reader.sampleRate), triggers: triggers)
        var buffer = [Float](repeating: 0, count: 65_536)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
            if n == 0 { break }
            _ = buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
        analyzer.finish()
    }
}

/// The synthesized scene `vigil bench speed` uses by default: room noise with tones, bursts and
/// smoke/CO alarm patterns spread over it, so every detector has work to do. Written one minute
/// at a time, so the benchmark's own memory stays small.
package enum SpeedScene {
    /// Writes `minutes` of the scene at `sampleRate` as 16-bit WAV to `path`.
    package static func write(to path: String, sampleRate: Int, minutes: Int) throws {
        let writer = try AudioFileStreamWriter(path: path, sampleRate: sampleRate, format: .wav16)
        var generator = SeededGenerator(seed: 7)
        for minute in 0..<minutes {
            var s = SignalBuffer(sampleRate: Double(sampleRate), duration: 60)
            s.addNoise(dBFS: -50, generator: &generator)
            switch minute % 4 {
            case 0: s.addTemporalThree(start: 5, cycles: 3, frequency: 3100 + Double(minute % 7) * 50, dBFS: -25)
            case 1: s.addTemporalFour(start: 5, cycles: 2, frequency: 3300, dBFS: -25)
            case 2: s.addNoise(dBFS: -15, start: 5, duration: 0.3, generator: &generator)
            default: s.addTone(frequency: 1000, start: 5, duration: 1, dBFS: -20)
            }
            s.addTemporalThree(start: 35, cycles: 2, square: true, dBFS: -30)
            try writer.append(s.samples)
        }
        try writer.close()
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    package func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
