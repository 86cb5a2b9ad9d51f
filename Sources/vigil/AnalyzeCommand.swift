import ArgumentParser
import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilPipeline
import VigilVision

/// `vigil analyze`: offline analysis of recordings.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyze recordings and print the events the device would report.",
        discussion: """
            INPUT is an audio file (any format libsndfile reads: WAV, FLAC, OGG, AIFF, ...; 8 to 192 kHz; \
            any channel count, mixed to mono), a camera recording (MP4, MKV, MOV, WebM, MPEG-TS, ... read by \
            FFmpeg's libraries: its video and audio on one timeline, motion in the device's activity zones), or a \
            directory, searched recursively for both. Video is decoded at --analysis-fps frames per second.

            Video: --frames DIR (PNG sequence) or --video FILE|- (a container, or YUV4MPEG2) is one recording, \
            optionally with --audio FILE (docs/video.md). In images mode, --out DIR also receives \
            DIR/<recording>/snapshots/<index>.png.

            Output goes to stdout: JSON Lines (one object per line, schema in docs/output-schema.md), TSV \
            (file, onset, offset, label) or a table. The default is a table when stdout is a terminal and \
            JSON Lines otherwise. Errors and warnings for single inputs go to stderr (and into JSON Lines as \
            "error"/"warning" records); the other inputs are still analyzed.

            Exit status: 0 when every input succeeded, 1 when some inputs failed, 2 for usage or \
            device-file errors.

            Examples:
              vigil analyze Samples/demo-scene.flac --device Samples/front-door.json --format table
              vigil analyze porch.mp4 --device Samples/front-door.json --no-audio
              vigil analyze recordings/ --format jsonl > events.jsonl
              vigil analyze clip.wav --explain
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    @Argument(help: "Audio files, camera recordings (MP4, MKV, ...) or directories.")
    var inputs: [String] = []

    @Flag(help: "Do not analyze the video of camera recordings.")
    var noVideo = false

    @Flag(help: "Do not analyze the audio of camera recordings.")
    var noAudio = false

    @Option(help: "Video frames of camera recordings analyzed per second of media.")
    var analysisFps: Double = 5

    @Option(help: "A directory of PNG frames to analyze as one video recording (see docs/video.md).")
    var frames: String?

    @Option(help: "Frame rate of --frames; without it, frame times come from the numbers in the file names.")
    var fps: Double?

    @Option(help: "A video file to analyze: a container (MP4, MKV, ...), a YUV4MPEG2 (.y4m) file, or - for y4m on stdin.")
    var video: String?

    @Option(help: "An audio file analyzed alongside --frames or --video as the same recording.")
    var audio: String?

    @Option(help: "With --frames/--video: write DIR/NNNNNN.png per frame, 255 where the detector found motion (privacy zones 0).")
    var motionMasks: String?

    @Option(help: "With --frames/--video: write a TSV with each frame's motion fraction, decision and reason per zone.")
    var motionTrace: String?

    @Option(help: "Blob-to-zone rule for motion: anyPixel, bottomCentre or centroid (default anyPixel).")
    var anchor: BlobAnchor = .anyPixel

    @Option(help: "Device file (JSON, see docs/device-file.md). Without it, the built-in default device applies.")
    var device: String?

    @Option(help: "Output format: jsonl, tsv or table (default: table on a terminal, jsonl otherwise).")
    var format: Format?

    @Option(help: "Also write DIR/<recording>/events.jsonl, events.tsv and report.png for each recording, and DIR/summary.json.")
    var out: String?

    @Flag(help: "With --out: do not draw report.png (the slowest output).")
    var noReport = false

    @Flag(help: "Also report every suppressed candidate with the rule that suppressed it.")
    var explain = false

    @Option(
        name: .customLong("sensitivity"),
        help: "Sound-detector sensitivity 1...10 for all sound triggers, or TRIGGER=N for one (repeatable). Default 5.")
    var sensitivities: [String] = []

    @Option(
        help: ArgumentHelp(
            "Only report these triggers (comma-separated names, e.g. sound,smokeAlarm): narrows the device's enabled triggers.",
            valueName: "LIST"))
    var triggers: String?

    @Flag(help: "Do not show the progress bar.")
    var noProgress = false

    @Option(help: "Recordings analyzed in parallel (default: all cores). Output is identical whatever N is.")
    var jobs: Int?

    @Flag(help: "With --out: analyze again recordings whose outputs are already complete.")
    var force = false

    @Option(help: "Analyze only shard i of n (0 <= i < n) of the inputs, chosen by a hash of each recording's name.")
    var shard: InputShard?

    @OptionGroup(title: "Sound models")
    var modelOptions: ModelOptions

    @OptionGroup(title: "Input limits")
    var inputLimits: InputLimitOptions

    /// The analysis these options describe.
    var analysis: OfflineAnalysis {
        var analysis = OfflineAnalysis(messages: Self.stderr)
        (analysis.inputs, analysis.outputDirectory, analysis.drawReport, analysis.jobs) = (inputs, out, !noReport, jobs ?? availableCores)
        (analysis.force, analysis.shard, analysis.showsProgress) = (force, shard, !noProgress)
        (analysis.media.readsAudio, analysis.media.readsVideo, analysis.media.analysisFPS, analysis.anchor) = (
            !noAudio, !noVideo, analysisFps, anchor
        )
        if frames != nil || video != nil {
            var input = OfflineAnalysis.VideoInput(frames: frames, video: video)
            (input.framesPerSecond, input.audio) = (fps, audio)
            (input.motionMasks, input.motionTrace) = (motionMasks, motionTrace)
            analysis.videoInput = input
        }
        return analysis
    }

    func validate() throws {
        if frames == nil && video == nil {
            if motionMasks != nil || motionTrace != nil {
                throw ValidationError("--motion-masks and --motion-trace go with --frames or --video")
            }
            if audio != nil { throw ValidationError("--audio goes with --frames or --video") }
            if fps != nil { throw ValidationError("--fps goes with --frames") }
        }
        if let problem = analysis.problem() { throw ValidationError(problem) }
        if explain && format == .tsv {
            throw ValidationError(
                "--explain with --format tsv: TSV is the DCASE event list (file, onset, offset, label) and has no rows for "
                    + "suppressed candidates; use --format jsonl or table")
        }
        if noReport && out == nil { throw ValidationError("--no-report only applies with --out") }
        _ = try parsedSensitivities()
        _ = try parsedTriggers()
    }

    /// The `--triggers` filter, if given.
    func parsedTriggers() throws -> Set<EventTriggerType>? {
        do {
            return try triggers.map(AnalysisOptions.triggers)
        } catch {
            throw ValidationError("--triggers: \(error)")
        }
    }

    /// Sensitivity overrides from `--sensitivity`.
    func parsedSensitivities() throws -> AnalysisOptions.SensitivityOverrides {
        do {
            return try AnalysisOptions.sensitivities(sensitivities)
        } catch {
            throw ValidationError("--sensitivity \(error)")
        }
    }

    func run() throws {
        let loaded: LoadedDevice
        do {
            loaded = try LoadedDevice.load(path: device, limits: try inputLimits.limits)
        } catch let failure as DeviceLoadFailure {
            FileHandle.standardError.write(Data(failure.description.utf8))
            throw ExitCode(ExitStatus.usage)
        }
        for warning in loaded.warnings { Self.stderr("warning: \(warning)") }
        var plan = AnalysisOptions.plan(
            for: loaded, sensitivities: try parsedSensitivities(), triggers: try parsedTriggers(), explain: explain)
        plan.settings.models = try modelOptions.loadOrExit()
        do {
            let outcome = try analysis.run(plan: plan, device: loaded.device, limits: try inputLimits.limits, makeSinks: makeSinks)
            if outcome == .someInputsFailed { throw ExitCode(ExitStatus.someInputsFailed) }
        } catch let failure as OfflineAnalysisFailure {
            Self.stderr(failure.description)
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// The sinks of `--format` and `--out` (whose directory is created here).
    func makeSinks() throws -> [any EventSink] {
        let sink: any EventSink =
            switch format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .jsonl) {
            case .jsonl: JSONLinesSink()
            case .tsv: TSVSink()
            case .table: TableSink()
            }
        guard let out else { return [sink] }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("--out \(out): cannot create directory: \(error.localizedDescription)")
        }
        return [sink, OutputFolderSink(directory: out)]
    }

    @Sendable static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension BlobAnchor: ExpressibleByArgument {}
