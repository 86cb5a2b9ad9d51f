import ArgumentParser
import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilVision

/// `vigil analyze`: offline analysis of recordings.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyze recordings and print the events the device would report.",
        discussion: """
            Video: --frames DIR (PNG sequence) or --video FILE|- (YUV4MPEG2, e.g. from ffmpeg) is one recording, \
            optionally with --audio FILE; motion is found in the device's activity zones (docs/video.md). In \
            images mode, --out DIR also receives DIR/<recording>/snapshots/<index>.png.

            INPUT is an audio file (any format libsndfile reads: WAV, FLAC, OGG, AIFF, ...; 8 to 192 kHz; \
            any channel count, mixed to mono) or a directory, searched recursively for audio files.

            Output goes to stdout: JSON Lines (one object per line, schema in docs/output-schema.md), TSV \
            (file, onset, offset, label) or a table. The default is a table when stdout is a terminal and \
            JSON Lines otherwise. Errors and warnings for single inputs go to stderr (and into JSON Lines as \
            "error"/"warning" records); the other inputs are still analyzed.

            Exit status: 0 when every input succeeded, 1 when some inputs failed, 2 for usage or \
            device-file errors.

            Examples:
              vigil analyze Samples/demo-scene.flac --device Samples/front-door.json --format table
              vigil analyze recordings/ --format jsonl > events.jsonl
              vigil analyze clip.wav --explain
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    @Argument(help: "Audio files or directories.")
    var inputs: [String] = []

    @Option(help: "A directory of PNG frames to analyze as one video recording (see docs/video.md).")
    var frames: String?

    @Option(help: "Frame rate of --frames; without it, frame times come from the numbers in the file names.")
    var fps: Double?

    @Option(help: "A YUV4MPEG2 (.y4m) video file to analyze, or - for stdin (ffmpeg -i x.mp4 -f yuv4mpegpipe -).")
    var video: String?

    @Option(help: "An audio file analyzed alongside --frames or --video as the same recording.")
    var audio: String?

    @Option(help: "Blob-to-zone rule for motion: anyPixel, bottomCentre or centroid (default anyPixel).")
    var anchor: BlobAnchor = .anyPixel

    @Option(help: "Device file (JSON, see docs/device-file.md). Without it, the built-in default device applies.")
    var device: String?

    @Option(help: "Output format: jsonl, tsv or table (default: table on a terminal, jsonl otherwise).")
    var format: Format?

    @Option(help: "Also write DIR/<recording>/events.jsonl and events.tsv for each recording.")
    var out: String?

    @Flag(help: "Also report every suppressed candidate with the rule that suppressed it.")
    var explain = false

    @Option(
        name: .customLong("sensitivity"),
        help: "Sound-detector sensitivity 1...10 for all sound triggers, or TRIGGER=N for one (repeatable). Default 5.")
    var sensitivities: [String] = []

    @Flag(help: "Do not show the progress bar.")
    var noProgress = false

    func validate() throws {
        try validateVideoOptions()
        if inputs.isEmpty && frames == nil && video == nil {
            throw ValidationError("give at least one input file or directory, --frames DIR or --video FILE")
        }
        _ = try parsedSensitivities()
    }

    /// Sensitivity overrides from `--sensitivity`.
    func parsedSensitivities() throws -> (all: Sensitivity?, perTrigger: [EventTriggerType: Sensitivity]) {
        var all: Sensitivity?
        var per: [EventTriggerType: Sensitivity] = [:]
        for text in sensitivities {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let levelText = parts.count == 2 ? parts[1] : parts[0]
            guard let level = Int(levelText), (1...10).contains(level) else {
                throw ValidationError("--sensitivity \(text): the level must be a whole number from 1 to 10")
            }
            if parts.count == 2 {
                guard let trigger = EventTriggerType(rawValue: parts[0]), trigger.isSound else {
                    throw ValidationError("--sensitivity \(text): '\(parts[0])' is not a sound trigger")
                }
                per[trigger] = Sensitivity(level)
            } else {
                all = Sensitivity(level)
            }
        }
        return (all, per)
    }

    func run() throws {
        let loaded: LoadedDevice
        do {
            loaded = try LoadedDevice.load(path: device)
        } catch let failure as DeviceLoadFailure {
            FileHandle.standardError.write(Data(failure.description.utf8))
            throw ExitCode(ExitStatus.usage)
        }
        for warning in loaded.warnings { Self.stderr("warning: \(warning)") }
        var settings = loaded.settings
        let overrides = try parsedSensitivities()
        if let all = overrides.all { settings.defaultSensitivity = all }
        settings.sensitivity.merge(overrides.perTrigger) { _, new in new }
        let plan = AnalysisPlan(policy: loaded.policy, settings: settings, explain: explain)
        if frames != nil || video != nil {
            try runVideo(plan: plan, device: loaded.device)
            return
        }

        let (recordings, problems) = InputDiscovery.expand(inputs)
        let outputFormat = format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .jsonl)
        let output = OutputSink(format: outputFormat)
        var failures = 0
        for problem in problems {
            failures += 1
            Self.stderr("error: \(problem)")
            output.emit([AnalysisRecord(file: problem.path, content: .error(kind: "unreadable", message: problem.description))])
        }
        if recordings.isEmpty && problems.isEmpty {
            Self.stderr("warning: no audio files found in \(inputs.joined(separator: ", "))")
        }

        let totalSeconds = recordings.reduce(0.0) { $0 + Self.declaredDuration($1.path) }
        let bar = ProgressBar(total: totalSeconds, unit: "s", enabled: !noProgress)
        let analyzer = RecordingAnalyzer(plan: plan)
        var doneSeconds = 0.0
        for recording in recordings {
            let outcome = analyzer.analyze(recording) { seconds in
                bar.update(done: doneSeconds + seconds, label: recording.displayName)
            }
            doneSeconds += Self.declaredDuration(recording.path)
            if outcome.failed { failures += 1 }
            bar.finish()
            for record in outcome.records {
                switch record.content {
                case .error(_, let message): Self.stderr("error: \(message)")
                case .warning(let message): Self.stderr("warning: \(record.file): \(message)")
                default: break
                }
            }
            output.emit(outcome.records)
            if let out {
                do {
                    try RecordingOutputWriter.write(outcome.records, for: recording, under: out)
                } catch {
                    failures += 1
                    Self.stderr("error: \(error)")
                }
            }
        }
        bar.finish()
        output.close()
        if failures > 0 { throw ExitCode(ExitStatus.someInputsFailed) }
    }

    private static func declaredDuration(_ path: String) -> Double {
        (try? AudioFileReader(path: path, blockFrames: 1))?.declaredDuration ?? 0
    }

    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Writes records to stdout in the chosen format. JSON Lines and TSV stream per recording;
/// the table is printed once at the end, sorted as produced.
final class OutputSink {
    let format: AnalyzeCommand.Format
    private var tableRecords: [AnalysisRecord] = []

    init(format: AnalyzeCommand.Format) { self.format = format }

    func emit(_ records: [AnalysisRecord]) {
        switch format {
        case .jsonl:
            var text = ""
            for r in records { text += RecordEncoder.jsonLine(r) + "\n" }
            FileHandle.standardOutput.write(Data(text.utf8))
        case .tsv:
            var text = ""
            for r in records { if let line = RecordEncoder.tsvLine(r) { text += line + "\n" } }
            FileHandle.standardOutput.write(Data(text.utf8))
        case .table:
            tableRecords += records
        }
    }

    func close() {
        if format == .table { FileHandle.standardOutput.write(Data(RecordEncoder.table(tableRecords).utf8)) }
    }
}

/// Writes per-recording output files atomically (temporary file, then rename).
enum RecordingOutputWriter {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): cannot write output: \(reason)" }
    }

    static func write(_ records: [AnalysisRecord], for recording: InputRecording, under directory: String) throws {
        let dir = (directory as NSString).appendingPathComponent(recording.displayName.replacingOccurrences(of: "../", with: "__/"))
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: dir, reason: error.localizedDescription)
        }
        let jsonl = records.map { RecordEncoder.jsonLine($0) + "\n" }.joined()
        let tsv = records.compactMap { RecordEncoder.tsvLine($0).map { $0 + "\n" } }.joined()
        try atomicWrite(jsonl, to: (dir as NSString).appendingPathComponent("events.jsonl"))
        try atomicWrite(tsv, to: (dir as NSString).appendingPathComponent("events.tsv"))
    }

    static func atomicWrite(_ text: String, to path: String) throws {
        let temporary = path + ".partial"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            throw WriteError(path: path, reason: error.localizedDescription)
        }
    }
}
