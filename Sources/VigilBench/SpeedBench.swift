import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilMedia
import VigilPipeline
import VigilSynth
import VigilVision

/// `vigil bench speed`: how many times real time decoding, the shared STFT and each detector run,
/// alone and together, on one core (thread CPU time) and on all cores, with peak memory. Camera
/// recordings (containers) add two one-core rows for their video: decoding at the analysis frame
/// rate, and decoding with the motion detector.
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
        var info: [String] = []
        var audioPaths: [String] = []
        var videoPaths: [String] = []
        var media = 0.0
        var videoMedia = 0.0
        for p in paths {
            switch try RecordingSource.open(path: p, limits: .default, media: MediaReaderOptions()) {
            case .audioFile(let file):
                let r = file.reader
                info.append(
                    "\(p): \(r.sampleRate) Hz, \(r.channelCount) ch, \(DecimalText.fixed(r.declaredDuration, places: 1)) s, \(r.formatDescription)"
                )
                audioPaths.append(p)
                media += r.declaredDuration
            case .container(let container):
                let r = container.reader
                var parts = [r.formatName, "\(DecimalText.fixed(r.duration ?? 0, places: 1)) s"]
                if let v = r.video { parts.append("video \(v.codecName) \(v.width)x\(v.height)") }
                if let a = r.audio { parts.append("audio \(a.codecName) \(a.sourceSampleRate) Hz, \(a.sourceChannels) ch") }
                info.append("\(p): " + parts.joined(separator: ", "))
                if r.audio != nil { (audioPaths, media) = (audioPaths + [p], media + (r.duration ?? 0)) }
                if r.video != nil { (videoPaths, videoMedia) = (videoPaths + [p], videoMedia + (r.duration ?? 0)) }
            }
        }
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
        // Video: decoding at the analysis frame rate, then with motion (the default configuration).
        if !videoPaths.isEmpty {
            for p in videoPaths { try Self.analyzeVideo(p, motion: true) }
            let fps = DecimalText.fixed(MediaReaderOptions().analysisFPS ?? 0, places: 0)
            rows.append(
                try best(name: "video decode at \(fps) fps", cores: 1, media: videoMedia, cpuClock: threadCPUSeconds) {
                    for p in videoPaths { try Self.analyzeVideo(p, motion: false) }
                })
            rows.append(
                try best(name: "video decode + motion", cores: 1, media: videoMedia, cpuClock: threadCPUSeconds) {
                    for p in videoPaths { try Self.analyzeVideo(p, motion: true) }
                })
        }
        paths = audioPaths
        guard !paths.isEmpty else {
            report(rows: rows, info: info, media: videoMedia, output: output)
            return
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
        report(rows: rows, info: info, media: media, output: output)
    }

    /// Writes the table (or JSON) of `rows`.
    private func report(rows: [SpeedRow], info: [String], media: Double, output: (String) -> Void) {
        func line(_ text: String) { output(text + "\n") }
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

    /// The audio of `path` (an audio file, or a container's audio stream).
    static func openAudio(_ path: String) throws -> any AudioSource {
        switch try RecordingSource.open(path: path, limits: .default, media: MediaReaderOptions(readsVideo: false)) {
        case .audioFile(let file): file
        case .container(let container): container
        }
    }

    static func decode(_ path: String) throws {
        let source = try openAudio(path)
        var buffer = [Float](repeating: 0, count: 65_536)
        while try buffer.withUnsafeMutableBufferPointer({ try source.read(into: $0) }) > 0 {}
    }

    static func analyze(_ path: String, triggers: Set<EventTriggerType>) throws {
        let source = try openAudio(path)
        let analyzer = AudioStreamAnalyzer(sampleRate: source.sampleRate, triggers: triggers)
        var buffer = [Float](repeating: 0, count: 65_536)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if n == 0 { break }
            _ = buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
        analyzer.finish()
    }

    /// Decodes the video of `path` at the default analysis frame rate, with the motion detector
    /// on every frame when `motion` is set.
    static func analyzeVideo(_ path: String, motion: Bool) throws {
        let source = try MediaContainerSource(path: path, options: MediaReaderOptions(readsAudio: false))
        let detector = motion ? MotionDetector(configuration: MotionConfiguration()) : nil
        while let frame = try source.nextFrame() {
            if let detector { _ = detector.process(frame.picture.luma, time: frame.time) }
        }
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
