import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilPipeline

/// `vigil bench batch`: the throughput of `vigil analyze DIR --out TMP --force` (every detector,
/// report.png, the output folder's atomic writes) with one job and with several, best of `runs`.
package struct BatchBench {
    /// A directory without recordings.
    package struct InputError: Error, CustomStringConvertible {
        /// What is wrong.
        package var description: String
    }

    /// The recordings' directory; nil: `count` synthesized scenes of `seconds` each.
    package var directory: String?
    /// Synthesized recordings.
    package var count: Int
    /// Length of each synthesized recording in seconds.
    package var seconds: Int
    /// Jobs of the parallel run.
    package var jobs: Int
    /// Runs per setting; the best is reported.
    package var runs: Int
    /// Print JSON instead of a table.
    package var json: Bool

    /// A benchmark of `directory` (or synthesized recordings).
    package init(directory: String?, count: Int, seconds: Int, jobs: Int, runs: Int, json: Bool) {
        (self.directory, self.count, self.seconds, self.jobs, self.runs, self.json) = (directory, count, seconds, jobs, runs, json)
    }

    /// Measures and writes the table (or JSON) to `output`.
    /// - Throws: ``InputError`` when the directory holds no recordings; an error writing the synthesized ones.
    package func run(output: (String) -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bench-batch-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var inputDirectory = directory
        if inputDirectory == nil {
            let dir = scratch.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for k in 0..<count {
                try SpeedScene.write(
                    to: dir.appendingPathComponent(String(format: "rec%03d.wav", k)).path, sampleRate: 44_100, minutes: max(1, seconds / 60)
                )
            }
            inputDirectory = dir.path
        }
        let (recordings, _) = InputDiscovery.expand([inputDirectory!])
        guard !recordings.isEmpty else { throw InputError(description: "no recordings in \(inputDirectory!)") }
        let media = recordings.reduce(0.0) { $0 + ((try? AudioFileReader(path: $1.path, blockFrames: 1))?.declaredDuration ?? 0) }
        let loaded = LoadedDevice.builtIn
        let plan = AnalysisPlan(policy: loaded.policy, settings: loaded.settings)
        func time(jobs: Int) -> Double {
            var best = Double.infinity
            for _ in 0..<runs {
                let out = scratch.appendingPathComponent("out-\(jobs)").path
                try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                let batch = BatchAnalysis(
                    plan: plan, jobs: jobs, outputDirectory: out, force: true,
                    runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
                let start = ContinuousClock.now
                let run = AnalysisRun(sinks: [OutputFolderSink(directory: out)], messages: { _ in })
                run.analyze(recordings, with: batch, progress: ProgressBar(totalSeconds: 0, totalItems: 0, enabled: false))
                run.finish()
                let d = ContinuousClock.now - start
                best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            return best
        }
        // Warm-up: FFTW plans and the page cache.
        _ = time(jobs: jobs)
        let one = time(jobs: 1)
        let many = time(jobs: jobs)
        let speedup = one / many
        if json {
            let value = JSONValue.object(
                JSONObject([
                    ("recordings", .number(Double(recordings.count))), ("mediaSeconds", .number(media)),
                    ("cores", .number(Double(availableCores))), ("jobs", .number(Double(jobs))),
                    ("secondsOneJob", .number(one)), ("secondsParallel", .number(many)),
                    ("xRealTimeOneJob", .number((media / one).rounded())), ("xRealTimeParallel", .number((media / many).rounded())),
                    ("speedup", .number((speedup * 100).rounded() / 100)),
                ]))
            output(value.serialized(.pretty) + "\n")
        } else {
            output(
                "\(recordings.count) recordings, \(DecimalText.fixed(media / 60, places: 1)) min of media; best of \(runs) runs; \(availableCores) cores\n"
            )
            output("JOBS  SECONDS  RECORDINGS/S  X REAL TIME\n")
            for (j, t) in [(1, one), (jobs, many)] {
                output(
                    String(j).leftPad(4) + "  " + DecimalText.fixed(t, places: 2).leftPad(7) + "  "
                        + DecimalText.fixed(Double(recordings.count) / t, places: 1).leftPad(12) + "  "
                        + DecimalText.fixed(media / t, places: 0).leftPad(11)
                        + "\n")
            }
            output("speed-up with \(jobs) jobs: \(DecimalText.fixed(speedup, places: 2))x\n")
        }
    }
}
