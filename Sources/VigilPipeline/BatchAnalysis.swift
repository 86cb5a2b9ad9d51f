import Foundation
import VigilAnalysis
import VigilCore
import VigilDetectors
import VigilDevice
import VigilMedia
import VigilVision

/// Analyzes many recordings on several cores: results are handed over in input order (so output
/// is identical whatever the number of jobs), and a recording whose outputs under `--out` are
/// complete from an earlier run with the same fingerprint is taken from there (unless forced).
/// The sinks of an ``AnalysisRun`` write the results.
public struct BatchAnalysis: Sendable {
    /// What to run.
    public var plan: AnalysisPlan
    /// Limits on the inputs (audio duration and channels).
    public var limits: InputLimits = .default
    /// Recordings analyzed at once.
    public var jobs: Int
    /// The `--out` directory, if any.
    public var outputDirectory: String?
    /// Re-analyze recordings whose outputs are already complete.
    public var force: Bool
    /// Draw report.png for each recording under `--out` (off with `--no-report`).
    public var drawReport = true
    /// Identifies everything but the input file that affects results (version, device, options).
    public var runFingerprint: String
    /// What to read from container files (``RecordingSource``).
    public var media = MediaReaderOptions()
    /// The motion configuration and zone overlay for containers with video; nil: audio only.
    public var video: (motion: MotionConfiguration, overlay: ZoneOverlay)?

    /// Creates a batch analysis.
    public init(
        plan: AnalysisPlan, limits: InputLimits = .default, jobs: Int, outputDirectory: String? = nil, force: Bool = false,
        drawReport: Bool = true, runFingerprint: String
    ) {
        self.plan = plan
        self.limits = limits
        self.jobs = jobs
        self.outputDirectory = outputDirectory
        self.force = force
        self.drawReport = drawReport
        self.runFingerprint = runFingerprint
    }

    /// The fingerprint of a run: version, device, options (`report`: whether report.png is drawn).
    /// Deterministic (no hashing seeds, sorted keys).
    public static func runFingerprint(device: Device, plan: AnalysisPlan, report: Bool = true) -> String {
        let s = plan.settings
        let perTrigger = s.sensitivity.keys.sorted().map { "\($0.rawValue)=\(s.sensitivity[$0]!.level)" }.joined(separator: ",")
        return [
            "vigil \(VigilVersion.string)", DeviceFile.encode(device, style: .compact), "explain=\(plan.explain)",
            "enabled=\(plan.policy.enabledTriggers.sorted().map(\.rawValue).joined(separator: ","))",
            "sensitivity=\(s.defaultSensitivity.level);\(perTrigger)", "tolerance=\(s.alarmTimingTolerance)",
            "cycles=\(s.alarmConfirmationCycles)",
            "models=\(s.models.keys.sorted().map { "\($0.rawValue):\(String(InputShard.fnv1a(s.models[$0]!.fileText), radix: 16))" }.joined(separator: ","))",
            "detectors=\(DetectorRegistry.availableSoundTriggers.map(\.rawValue).joined(separator: ","))",
            "report=\(report)",
        ].joined(separator: "\n")
    }

    /// The fingerprint of one recording in this run: the run's plus the file's size and modification time.
    public func fingerprint(of recording: InputRecording) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: recording.path)
        let size = (attributes?[.size] as? Int) ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let text = "\(runFingerprint)\n\(recording.displayName)\n\(size)\n\(modified)"
        return String(InputShard.fnv1a(text), radix: 16)
    }

    /// Runs every recording, calling `emit` with each finished recording in input order (one call
    /// at a time). Nothing is written here: the sinks of an ``AnalysisRun`` write.
    public func run(_ recordings: [InputRecording], progress: ProgressBar, emit: @escaping @Sendable (FinishedRecording) -> Void) {
        if let outputDirectory { RecordingOutputWriter.removeStalePartials(under: outputDirectory) }
        var configured = RecordingAnalyzer(plan: plan, limits: limits, drawReport: outputDirectory != nil && drawReport)
        (configured.media, configured.video) = (media, video)
        let analyzer = configured
        orderedParallelForEach(
            recordings, jobs: jobs,
            emit: { _, result in
                progress.itemDone(label: result.recording.displayName)
                emit(result)
            }
        ) { recording in
            self.analyze(recording, with: analyzer, progress: progress)
        }
    }

    /// Analyzes one recording, or takes its complete outputs from an earlier run.
    private func analyze(_ recording: InputRecording, with analyzer: RecordingAnalyzer, progress: ProgressBar) -> FinishedRecording {
        let fingerprint = fingerprint(of: recording)
        if let outputDirectory, !force,
            let done = RecordingOutputWriter.completed(for: recording, under: outputDirectory, fingerprint: fingerprint)
        {
            progress.add(mediaSeconds: done.summary.mediaSeconds, label: recording.displayName)
            return FinishedRecording(
                recording: recording, records: done.records, summary: done.summary, fingerprint: fingerprint, resumed: true)
        }
        if let outputDirectory { RecordingOutputWriter.removePreviousOutputs(for: recording, under: outputDirectory) }
        var reported = 0.0
        var snapshots: String?
        if let outputDirectory, plan.policy.recordingMode == .images {
            snapshots = (RecordingOutputWriter.directory(for: recording, under: outputDirectory) as NSString).appendingPathComponent(
                "snapshots")
        }
        let outcome = analyzer.analyze(recording, snapshotDirectory: snapshots) { seconds in
            progress.add(mediaSeconds: seconds - reported, label: recording.displayName)
            reported = seconds
        }
        let summary = RecordingSummary(file: recording.displayName, mediaSeconds: outcome.mediaSeconds, records: outcome.records)
        return FinishedRecording(
            recording: recording, records: outcome.records.map(RecordEncoder.json), summary: summary, report: outcome.reportPNG,
            fingerprint: fingerprint)
    }
}
