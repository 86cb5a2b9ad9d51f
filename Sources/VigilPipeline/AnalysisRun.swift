import Foundation
import VigilAnalysis
import VigilCore
import VigilFrameIO
import VigilImaging
import VigilMedia

/// One analysis run: wires the sources through the analyzers and the event engine into the
/// sinks. Audio recordings go through ``BatchAnalysis`` (several at once, results in input
/// order); a video recording (a PNG sequence or a y4m stream, with an optional audio file)
/// through ``VideoAnalyzer``. Every sink gets the same records in the same order; problems go to
/// `messages` as the lines `vigil` prints on stderr. `vigil analyze` and `vigil bench batch`
/// use it; `vigil live` drives the same sinks from a ``MediaSource`` through its session.
public final class AnalysisRun: @unchecked Sendable {
    /// Where the records go.
    public let sinks: [any EventSink]
    /// Receives each error and warning line (`error: ...`, `warning: FILE: ...`).
    public let messages: @Sendable (String) -> Void
    /// Inputs that failed (fully or partly), or whose outputs could not be written.
    public private(set) var failures = 0
    /// Recordings whose complete outputs were taken from an earlier run.
    public private(set) var resumed = 0

    /// A run into `sinks`, reporting problems through `messages`.
    public init(sinks: [any EventSink], messages: @escaping @Sendable (String) -> Void) {
        self.sinks = sinks
        self.messages = messages
    }

    /// Reports inputs that could not be expanded (a missing path): an `error` record each.
    public func report(_ problems: [InputDiscovery.Problem]) {
        for problem in problems {
            failures += 1
            messages("error: \(problem)")
            let record = AnalysisRecord(file: problem.path, content: .error(kind: "unreadable", message: problem.description))
            deliver([RecordEncoder.json(record)])
        }
    }

    /// Analyzes audio `recordings` with `batch`, handing each to the sinks in input order.
    public func analyze(_ recordings: [InputRecording], with batch: BatchAnalysis, progress: ProgressBar) {
        batch.run(recordings, progress: progress) { finished in
            progress.clear()
            if finished.resumed { self.resumed += 1 }
            for message in finished.summary.errors { self.messages("error: \(message)") }
            for message in finished.summary.warnings { self.messages("warning: \(finished.recording.displayName): \(message)") }
            let written = self.deliver(finished)
            if finished.summary.failed || !written { self.failures += 1 }
        }
    }

    /// Where the frames of a video recording come from.
    public enum VideoInput: Sendable {
        /// A directory of PNG frames; without a rate, frame times come from the numbers in the file names.
        case pngSequence(directory: String, framesPerSecond: Double?)
        /// A YUV4MPEG2 file, or `-` for standard input.
        case y4m(path: String)
        /// A container read through FFmpeg's libraries: its video, and its audio when `options` reads it.
        case container(path: String, options: MediaReaderOptions)
    }

    /// Analyzes one video recording (`input`, with `audioPath` analysed alongside) as `recording`
    /// and hands it to the sinks; snapshots (images mode) go to `snapshotDirectory`.
    public func analyzeVideo(
        _ input: VideoInput, as recording: InputRecording, audioPath: String?, with analyzer: VideoAnalyzer, snapshotDirectory: String?,
        fingerprint: String, limits: InputLimits
    ) {
        let name = recording.displayName
        let outcome: VideoAnalyzer.Outcome
        do throws(FrameSourceError) {
            switch input {
            case .pngSequence(let directory, let rate):
                var source = try PNGSequenceReader(directory: directory, framesPerSecond: rate, limits: ImageLimits(limits))
                outcome = analyzer.analyze(source: &source, name: name, audioPath: audioPath, snapshotDirectory: snapshotDirectory)
            case .y4m(let path):
                var source = try Y4MReader(source: try FileDescriptorReader(path: path), name: name, limits: ImageLimits(limits))
                outcome = analyzer.analyze(source: &source, name: name, audioPath: audioPath, snapshotDirectory: snapshotDirectory)
            case .container(let path, let options):
                let source: MediaContainerSource
                do {
                    source = try MediaContainerSource(path: path, options: options)
                } catch {
                    throw FrameSourceError(.unreadable, source: name, reason: error.reason)
                }
                guard source.hasVideo else { throw FrameSourceError(.empty, source: name, reason: "no video stream") }
                if audioPath == nil {
                    outcome = analyzer.analyze(container: source, name: name, snapshotDirectory: snapshotDirectory)
                } else {
                    var frames = source
                    outcome = analyzer.analyze(source: &frames, name: name, audioPath: audioPath, snapshotDirectory: snapshotDirectory)
                }
            }
        } catch {
            outcome = VideoAnalyzer.Outcome(
                records: [AnalysisRecord(file: name, content: .error(kind: error.kind.rawValue, message: error.description))],
                failed: true, frames: 0, snapshots: 0)
        }
        for record in outcome.records {
            switch record.content {
            case .error(_, let message): messages("error: \(message)")
            case .warning(let message): messages("warning: \(record.file): \(message)")
            default: break
            }
        }
        let summary = RecordingSummary(file: name, mediaSeconds: outcome.mediaSeconds, records: outcome.records)
        let finished = FinishedRecording(
            recording: recording, records: outcome.records.map(RecordEncoder.json), summary: summary, report: outcome.reportPNG,
            fingerprint: fingerprint)
        let written = deliver(finished)
        if outcome.failed || !written { failures += 1 }
    }

    /// Ends the run: every sink writes what it holds back. A sink that fails counts as a failure.
    public func finish() {
        for sink in sinks {
            do {
                try sink.finish()
            } catch {
                failures += 1
                messages("error: \(error)")
            }
        }
    }

    private func deliver(_ records: [JSONValue]) {
        let output = records.map(OutputRecord.init)
        for sink in sinks { sink.receive(output) }
    }

    /// Hands a finished recording to every sink; false when one could not write it.
    private func deliver(_ finished: FinishedRecording) -> Bool {
        deliver(finished.records)
        var written = true
        for sink in sinks {
            do {
                try sink.recordingFinished(finished)
            } catch {
                written = false
                messages("error: \(error)")
            }
        }
        return written
    }
}
