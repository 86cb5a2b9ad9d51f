import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDevice
import VigilMedia
import VigilVision

/// `vigil analyze`'s work: the audio recordings of `inputs` as a batch, or one video recording
/// (``VideoInput``), through an ``AnalysisRun`` into the sinks. The command parses its options
/// into this, and maps the outcome and a ``OfflineAnalysisFailure`` to its exit status.
public struct OfflineAnalysis {
    /// One video recording: a PNG sequence, a y4m file (or `-`) or a container file (`video` with
    /// another extension than `.y4m`), with an optional audio file.
    public struct VideoInput: Sendable {
        /// A directory of PNG frames, or nil for a y4m input.
        public var frames: String?
        /// The y4m file or `-`, used when `frames` is nil.
        public var video: String?
        /// Frame rate of `frames`; nil: frame times from the numbers in the file names.
        public var framesPerSecond: Double?
        /// An audio file analyzed as the same recording.
        public var audio: String?
        /// Where to write one motion mask PNG per frame.
        public var motionMasks: String?
        /// Where to write the per-frame, per-zone motion trace TSV.
        public var motionTrace: String?

        /// A video input; give `frames` or `video`.
        public init(frames: String?, video: String?) {
            self.frames = frames
            self.video = video
        }
    }

    /// How the run went.
    public enum Outcome: Sendable {
        /// Every input succeeded.
        case succeeded
        /// Some inputs failed, each reported; the others were analyzed.
        case someInputsFailed
    }

    /// Recording files (audio or containers) or directories (empty with a video input).
    public var inputs: [String] = []
    /// What to read from container files: audio, video (`--no-audio`, `--no-video`), the
    /// analysis frame rate (`--analysis-fps`).
    public var media = MediaReaderOptions()
    /// The blob-to-zone rule for motion.
    public var anchor: BlobAnchor = .anyPixel
    /// The video recording, if any.
    public var videoInput: VideoInput?
    /// `--out`: the per-recording output folder.
    public var outputDirectory: String?
    /// Draw `report.png` in the output folder.
    public var drawReport = true
    /// Recordings analyzed in parallel.
    public var jobs = 1
    /// Analyze again recordings whose outputs are complete.
    public var force = false
    /// Only this shard of the inputs.
    public var shard: InputShard?
    /// Show the progress bar.
    public var showsProgress = true
    /// Receives each error and warning line.
    public var messages: @Sendable (String) -> Void

    /// An analysis whose problems go to `messages`.
    public init(messages: @escaping @Sendable (String) -> Void) { self.messages = messages }

    /// The first problem with these settings, naming the option, or nil when they can run.
    public func problem() -> String? {
        if let input = videoInput {
            if input.frames != nil && input.video != nil { return "give either --frames or --video, not both" }
            if !inputs.isEmpty { return "--frames and --video analyze one recording; do not also give audio inputs (use --audio FILE)" }
            if input.framesPerSecond != nil && input.frames == nil { return "--fps goes with --frames" }
            if let fps = input.framesPerSecond, !(fps > 0 && fps.isFinite) { return "--fps must be a positive number" }
            if !media.readsVideo { return "--no-video with --frames or --video leaves nothing to analyze" }
            if !media.readsAudio && input.audio != nil { return "--no-audio with --audio: give one or the other" }
        } else if inputs.isEmpty {
            return "give at least one input file or directory, --frames DIR or --video FILE"
        }
        if !media.readsAudio && !media.readsVideo { return "--no-audio with --no-video leaves nothing to analyze" }
        if let fps = media.analysisFPS, !(fps.isFinite && fps > 0 && fps <= 1000) { return "--analysis-fps must be in (0, 1000]" }
        if jobs < 1 { return "--jobs must be at least 1" }
        if force && outputDirectory == nil { return "--force only applies with --out" }
        return nil
    }

    /// Runs the analysis with `plan` for `device` into the sinks that `makeSinks` makes (called
    /// once the inputs are known to be usable, so that nothing is written before a usage error).
    public func run(
        plan: AnalysisPlan, device: Device, limits: InputLimits, makeSinks: () throws -> [any EventSink]
    ) throws -> Outcome {
        if let videoInput { return try runVideo(videoInput, plan: plan, device: device, limits: limits, makeSinks: makeSinks) }
        var (recordings, problems) = InputDiscovery.expand(inputs)
        if let outputDirectory { try checkOwnership(of: outputDirectory, for: recordings) }
        if let shard { recordings = recordings.filter { shard.contains($0.displayName) } }
        let run = AnalysisRun(sinks: try makeSinks(), messages: messages)
        run.report(problems)
        if recordings.isEmpty && problems.isEmpty {
            messages(
                "warning: no audio files found in \(inputs.joined(separator: ", "))\(shard.map { " (shard \($0.index)/\($0.count))" } ?? "")"
            )
        }
        var batch = BatchAnalysis(
            plan: plan, limits: limits, jobs: jobs, outputDirectory: outputDirectory, force: force, drawReport: drawReport,
            runFingerprint: BatchAnalysis.runFingerprint(device: device, plan: plan, report: drawReport) + "\n" + mediaFingerprint)
        batch.media = media
        if media.readsVideo {
            batch.video = (motionConfiguration(device: device, plan: plan), ZoneOverlay(device: device))
            if outputDirectory == nil && plan.policy.recordingMode == .images && recordings.contains(where: Self.isContainer) {
                messages("warning: images mode: give --out DIR to write the snapshots")
            }
        }
        let totalSeconds = showsProgress ? recordings.reduce(0.0) { $0 + Self.declaredDuration(of: $1.path) } : 0
        let bar = ProgressBar(totalSeconds: totalSeconds, totalItems: recordings.count, enabled: showsProgress)
        run.analyze(recordings, with: batch, progress: bar)
        bar.finish()
        run.finish()
        if run.resumed > 0 {
            messages(
                "resumed: \(run.resumed) of \(recordings.count) recordings were already complete in \(outputDirectory ?? "") (use --force to redo them)"
            )
        }
        return run.failures > 0 ? .someInputsFailed : .succeeded
    }

    private func runVideo(
        _ input: VideoInput, plan: AnalysisPlan, device: Device, limits: InputLimits, makeSinks: () throws -> [any EventSink]
    ) throws -> Outcome {
        let path = input.frames ?? input.video ?? "-"
        let name = input.frames == nil && path == "-" ? "stdin" : path
        let recording = InputRecording(path: path, displayName: name)
        let motion = motionConfiguration(device: device, plan: plan)
        var diagnostics: MotionDiagnosticsWriter?
        do {
            diagnostics = try MotionDiagnosticsWriter(maskDirectory: input.motionMasks, tracePath: input.motionTrace)
        } catch {
            throw OfflineAnalysisFailure("error: \(error)")
        }
        let analyzer = VideoAnalyzer(
            plan: plan, motion: motion, overlay: ZoneOverlay(device: device),
            limits: limits, drawReport: outputDirectory != nil && drawReport, diagnostics: diagnostics)
        let rotation = device.video.imageRotation
        if rotation % 90 != 0 {
            messages(
                "warning: imageRotation \(rotation) is not a multiple of 90; zones are mapped as for \(GridMapping.normalizedRotation(rotation))"
            )
        }
        var snapshotDirectory: String?
        if let outputDirectory {
            try checkOwnership(of: outputDirectory, for: [recording])
            RecordingOutputWriter.removePreviousOutputs(for: recording, under: outputDirectory)
            let dir = RecordingOutputWriter.directory(for: recording, under: outputDirectory)
            snapshotDirectory = (dir as NSString).appendingPathComponent("snapshots")
        } else if plan.policy.recordingMode == .images {
            messages("warning: images mode: give --out DIR to write the snapshots")
        }
        let run = AnalysisRun(sinks: try makeSinks(), messages: messages)
        let fingerprint = BatchAnalysis.runFingerprint(device: device, plan: plan, report: drawReport) + "\nvideo"
        var source = AnalysisRun.VideoInput.y4m(path: path)
        if let frames = input.frames {
            source = .pngSequence(directory: frames, framesPerSecond: input.framesPerSecond)
        } else if path != "-" && (path as NSString).pathExtension.lowercased() != "y4m" {
            var options = media
            options.readsAudio = media.readsAudio && input.audio == nil
            source = .container(path: path, options: options)
        }
        run.analyzeVideo(
            source, as: recording,
            audioPath: input.audio, with: analyzer, snapshotDirectory: snapshotDirectory,
            fingerprint: String(InputShard.fnv1a(fingerprint), radix: 16), limits: limits)
        run.finish()
        return run.failures > 0 ? .someInputsFailed : .succeeded
    }

    /// The motion detector's configuration for `device`.
    private func motionConfiguration(device: Device, plan: AnalysisPlan) -> MotionConfiguration {
        var motion = MotionConfiguration(device: device, anchor: anchor)
        motion.reportsPrivacyMotion = plan.explain
        return motion
    }

    /// What the container settings add to the run's fingerprint.
    private var mediaFingerprint: String {
        "media=audio:\(media.readsAudio),video:\(media.readsVideo),fps:\(media.analysisFPS.map { "\($0)" } ?? "all")"
    }

    private static func isContainer(_ recording: InputRecording) -> Bool {
        RecordingSource.containerExtensions.contains((recording.path as NSString).pathExtension.lowercased())
    }

    /// The duration a recording's header declares (0 when it cannot be read), for the progress bar.
    private static func declaredDuration(of path: String) -> Double {
        if let reader = try? AudioFileReader(path: path, blockFrames: 1) { return reader.declaredDuration }
        return (try? MediaContainerReader(input: path))?.duration ?? 0
    }

    /// Checks that the output folder can take the results of `recordings` (every input, before
    /// sharding); a conflict is a usage failure: nothing is analyzed and nothing is removed.
    private func checkOwnership(of out: String, for recordings: [InputRecording]) throws(OfflineAnalysisFailure) {
        do {
            try RecordingOutputWriter.checkOwnership(of: out, for: recordings)
        } catch {
            throw OfflineAnalysisFailure("error: \(error)")
        }
    }
}

/// A usage problem found when the analysis starts (an output folder holding other results, an
/// unwritable motion-mask folder): nothing was analyzed. The description is the line to print.
public struct OfflineAnalysisFailure: Error, Sendable, CustomStringConvertible {
    /// The line to print.
    public var description: String
    /// A failure with this line.
    public init(_ description: String) { self.description = description }
}
