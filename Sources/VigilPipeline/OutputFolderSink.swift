import Foundation
import VigilAnalysis
import VigilCore

/// The `--out DIR` folder: per recording `DIR/<recording>/events.jsonl`, `events.tsv`,
/// `report.png` and the completion marker (``RecordingOutputWriter``), and for the run
/// `DIR/summary.json` and `DIR/summary.tsv`, every file written atomically. Recordings resumed
/// from an earlier run are not written again but count in the summary.
public final class OutputFolderSink: EventSink {
    /// The output directory.
    public let directory: String
    private var summaries: [RecordingSummary] = []

    /// A sink writing under `directory` (which must exist).
    public init(directory: String) { self.directory = directory }

    /// The per-recording files are written when the recording is finished.
    public func receive(_ records: [OutputRecord]) {}

    /// Writes the recording's folder (unless resumed) and keeps its summary.
    public func recordingFinished(_ recording: FinishedRecording) throws {
        summaries.append(recording.summary)
        guard !recording.resumed else { return }
        try RecordingOutputWriter.write(
            records: recording.records, summary: recording.summary, report: recording.report, fingerprint: recording.fingerprint,
            for: recording.recording, under: directory)
    }

    /// Writes `summary.json` and `summary.tsv`.
    public func finish() throws {
        try RecordingOutputWriter.writeSummary(RunSummary(summaries), to: directory)
    }
}
