import ArgumentParser
import Foundation
import VigilBench
import VigilInference
import VigilPipeline
import VigilScoring
import VigilTraining

/// `vigil bench`: detector accuracy and speed.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure detector accuracy (sed_eval-compatible scoring) and speed.",
        discussion: "See BENCHMARKS.md for how the published figures were produced.",
        subcommands: [Accuracy.self, Speed.self, Kernels.self, Batch.self, Motion.self])
}

extension BenchCommand {
    /// `vigil bench accuracy`.
    struct Accuracy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the detectors on labeled recordings (or read a detection file) and score them.",
            discussion: """
                LABELS.tsv holds the references, `filename<TAB>onset<TAB>offset<TAB>label` (DCASE style; file \
                names relative to AUDIO_DIR). Every audio file under AUDIO_DIR is evaluated; files without a \
                reference are negative material. Reports per label: event-based precision, recall, F1 and error \
                rate (onset collar, default 0.5 s; and sed_eval's default setting), segment-based F1, false alarms \
                per hour and detection latency, as sed_eval computes them (docs/scoring.md). A PROVENANCE.tsv \
                beside LABELS.tsv marks voice-background material, not counted against personTalking.

                Examples:
                  vigil bench accuracy --labels ../shared/data/dev/labels.tsv ../shared/data/dev/audio
                  vigil bench accuracy --labels labels.tsv audio/ --system detections.tsv --json
                """)

        @Option(help: "Reference annotations (TSV).")
        var labels: String

        @Argument(help: "Directory with the recordings.")
        var audioDir: String

        @Option(help: "Onset collar in seconds for the main event-based scores.")
        var collar: Double = 0.5

        @Flag(help: "Also require offsets within max(collar, 50 % of the reference length).")
        var offsets = false

        @Option(help: "Segment length in seconds for segment-based scores.")
        var segment: Double = 1.0

        @Option(help: "Score this detection file (TSV, same format as the labels) instead of running the detectors.")
        var system: String?

        @Option(help: "Write the detectors' output as a TSV detection file (for sed_eval or --system).")
        var writeSystem: String?

        @Option(
            help: ArgumentHelp(
                "PROVENANCE.tsv saying which files hold voice-background material (default: beside LABELS.tsv, if present).",
                discussion: "Voices in children-playing, room-ambience and street-music material are not counted against personTalking."))
        var provenance: String?

        @Flag(help: "Count personTalking detections in voice-background material like any other (plain sed_eval).")
        var countVoiceBackground = false

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @Option(help: "Also draw a PNG chart of F1 per label (event-based and segment-based).")
        var chart: String?

        @Option(help: "Recordings analyzed in parallel (default: all cores).")
        var jobs: Int?

        @Flag(help: "Do not show the progress bar.")
        var noProgress = false

        @Flag(help: "List every file that has references but is not in AUDIO_DIR (otherwise only their count).")
        var verbose = false

        @OptionGroup(title: "Sound models")
        var modelOptions: ModelOptions

        func validate() throws {
            guard collar > 0 else { throw ValidationError("--collar must be positive") }
            guard segment > 0 else { throw ValidationError("--segment must be positive") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        }

        func run() throws {
            let models = try modelOptions.loadOrExit()
            do {
                _ = try AccuracyBench.readAnnotations(labels, option: "--labels")
                // Read before the detectors run, so that a bad provenance file does not cost the run.
                let provenanceRows = try TrainingInputs.provenance(named: provenance, labels: labels)
                var bench = AccuracyBench(
                    labels: labels, audioDirectory: audioDir,
                    settings: AccuracySettings(collar: collar, evaluateOffsets: offsets, segment: segment),
                    jobs: jobs ?? availableCores)
                (bench.system, bench.writeSystem, bench.provenance) = (system, writeSystem, provenanceRows)
                bench.countVoiceBackground = countVoiceBackground
                (bench.json, bench.chart, bench.showProgress, bench.verbose) = (json, chart, !noProgress, verbose)
                (bench.models, bench.learnedLabels) = (models, ModelReplacement.replaceable)
                let failures = try bench.run(output: { FileHandle.standardOutput.write(Data($0.utf8)) }, messages: AnalyzeCommand.stderr)
                if failures > 0 { throw ExitCode(ExitStatus.someInputsFailed) }
            } catch let error as AccuracyBench.InputError {
                throw ValidationError(error.description)
            } catch let error as TrainingInputError {
                throw ValidationError(error.description)
            }
        }
    }
}

extension BenchCommand {
    /// `vigil bench speed`.
    struct Speed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure how many times real time the detectors run, per detector and together.",
            discussion: """
                Times decoding, the shared STFT and each detector alone and together, on one core (thread CPU \
                time) and on all cores, per CPU second and per wall second, best of --repeat runs, and peak memory. \
                Camera recordings add their video: decoding at 5 fps, and with motion. Without FILES, a 10-minute \
                44.1 kHz mono scene is synthesized into a temporary WAV (BENCHMARKS.md).
                """)

        @Argument(help: "Recordings to time (default: a synthesized 10-minute 44.1 kHz mono scene).")
        var files: [String] = []

        @Option(name: .customLong("repeat"), help: "Runs per measurement; the best is reported.")
        var runs: Int = 3

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            guard runs >= 1 else { throw ValidationError("--repeat must be at least 1") }
        }

        func run() throws {
            do {
                try SpeedBench(files: files, runs: runs, json: json).run { FileHandle.standardOutput.write(Data($0.utf8)) }
            } catch let failure as SpeedBench.Failure {
                throw ValidationError(failure.description)
            }
        }
    }
}

extension BenchCommand {
    /// `vigil bench kernels`.
    struct Kernels: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time the hot kernels and print JSON.",
            discussion: """
                STFT frames per second, point-in-polygon points per second and motion plus zone attribution \
                frames per second at 640x360, 1280x720 and 1920x1080, each on one core, best of --repeat runs of at \
                least --seconds each: the workloads of the package-benchmark suites in Benchmarks/ (BENCHMARKS.md).
                """)

        @Option(name: .customLong("repeat"), help: "Runs per kernel; the best is reported.")
        var runs: Int = 3

        @Option(help: "Minimum seconds per run.")
        var seconds: Double = 0.5

        @Option(help: "Run only this kernel: stft, pip, motion640, motion1280 or motion1920.")
        var only: KernelBench.Kernel?

        @Option(
            help: """
                Fixed work instead of timed runs: exactly N units per kernel (10 s of 44.1 kHz audio, 1 Mi points, one frame), \
                once. For instruction counts under valgrind --tool=callgrind (make bench-instructions).
                """)
        var iterations: Int?

        func validate() throws {
            if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        }

        func run() throws {
            let bench = KernelBench(
                kernels: only.map { [$0] } ?? KernelBench.Kernel.allCases, runs: runs, seconds: seconds, iterations: iterations)
            print(bench.run().serialized(.pretty))
        }
    }
}

extension KernelBench.Kernel: ExpressibleByArgument {}
