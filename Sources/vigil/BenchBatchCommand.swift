import ArgumentParser
import Foundation
import VigilBench
import VigilPipeline

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
            let bench = BatchBench(
                directory: directory, count: count, seconds: seconds, jobs: jobs ?? availableCores, runs: runs, json: json)
            do {
                try bench.run { FileHandle.standardOutput.write(Data($0.utf8)) }
            } catch let error as BatchBench.InputError {
                throw ValidationError(error.description)
            }
        }
    }
}
