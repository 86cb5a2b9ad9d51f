import ArgumentParser
import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDevice
import VigilSynth

extension BenchCommand {
    /// `vigil bench batch`.
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure batch throughput of vigil analyze --out on 1 core and on N cores.",
            discussion: """
                Runs the same batch as `vigil analyze DIR --out TMP --force` (every detector, report.png, \
                atomic outputs) with --jobs 1 and with --jobs N (default: all cores), best of --repeat runs each, \
                and reports recordings per second, times real time and the speed-up. Without DIR, --count \
                recordings of --seconds each (44.1 kHz mono scenes with alarms, tones and bursts) are \
                synthesized into a temporary directory.
                """)

        @Argument(help: "Directory of recordings (default: synthesized).")
        var directory: String?

        @Option(help: "Synthesized recordings.")
        var count = 16

        @Option(help: "Length of each synthesized recording in seconds.")
        var seconds = 60

        @Option(help: "Jobs for the parallel run (default: all cores).")
        var jobs: Int?

        @Option(name: .customLong("repeat"), help: "Runs per setting; the best is reported.")
        var runs = 2

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            guard count >= 1, seconds >= 1, runs >= 1 else { throw ValidationError("--count, --seconds and --repeat must be positive") }
        }

        func run() throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bench-batch-\(getpid())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            var inputDirectory = directory
            if inputDirectory == nil {
                let dir = scratch.appendingPathComponent("in")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                for k in 0..<count {
                    let minutes = max(1, seconds / 60)
                    try SpeedScene.write(to: dir.appendingPathComponent(String(format: "rec%03d.wav", k)).path, sampleRate: 44_100, minutes: minutes)
                }
                inputDirectory = dir.path
            }
            let (recordings, _) = InputDiscovery.expand([inputDirectory!])
            guard !recordings.isEmpty else { throw ValidationError("no recordings in \(inputDirectory!)") }
            let media = recordings.reduce(0.0) { $0 + ((try? AudioFileReader(path: $1.path, blockFrames: 1))?.declaredDuration ?? 0) }
            let loaded = LoadedDevice.builtIn
            let plan = AnalysisPlan(policy: loaded.policy, settings: loaded.settings)
            let parallelJobs = jobs ?? availableCores
            func time(jobs: Int) -> Double {
                var best = Double.infinity
                for _ in 0..<runs {
                    let out = scratch.appendingPathComponent("out-\(jobs)").path
                    let batch = BatchAnalysis(
                        plan: plan, jobs: jobs, outputDirectory: out, force: true,
                        runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
                    let start = ContinuousClock.now
                    _ = batch.run(recordings, progress: ProgressBar(totalSeconds: 0, totalItems: 0, enabled: false)) { _ in }
                    let d = ContinuousClock.now - start
                    best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
                }
                return best
            }
            // Warm-up: FFTW plans and the page cache.
            _ = time(jobs: parallelJobs)
            let one = time(jobs: 1)
            let many = time(jobs: parallelJobs)
            let speedup = one / many
            if json {
                print(
                    JSONValue.object(
                        JSONObject([
                            ("recordings", .number(Double(recordings.count))), ("mediaSeconds", .number(media)),
                            ("cores", .number(Double(availableCores))), ("jobs", .number(Double(parallelJobs))),
                            ("secondsOneJob", .number(one)), ("secondsParallel", .number(many)),
                            ("xRealTimeOneJob", .number((media / one).rounded())), ("xRealTimeParallel", .number((media / many).rounded())),
                            ("speedup", .number((speedup * 100).rounded() / 100)),
                        ])
                    ).serialized(.pretty))
            } else {
                print("\(recordings.count) recordings, \(DecimalText.fixed(media / 60, places: 1)) min of media; best of \(runs) runs; \(availableCores) cores")
                print("JOBS  SECONDS  RECORDINGS/S  X REAL TIME")
                for (j, t) in [(1, one), (parallelJobs, many)] {
                    print(String(j).leftPad(4) + "  " + DecimalText.fixed(t, places: 2).leftPad(7) + "  " + DecimalText.fixed(Double(recordings.count) / t, places: 1).leftPad(12) + "  " + DecimalText.fixed(media / t, places: 0).leftPad(11))
                }
                print("speed-up with \(parallelJobs) jobs: \(DecimalText.fixed(speedup, places: 2))x")
            }
        }
    }
}
