import ArgumentParser
import Foundation
import VigilAnalysis
import VigilCore
import VigilDevice
import VigilFrameIO
import VigilImaging
import VigilVision

extension BlobAnchor: ExpressibleByArgument {}

extension AnalyzeCommand {
    /// Checks the video options' combinations.
    func validateVideoOptions() throws {
        if frames != nil && video != nil { throw ValidationError("give either --frames or --video, not both") }
        if (frames != nil || video != nil) && !inputs.isEmpty {
            throw ValidationError("--frames and --video analyze one recording; do not also give audio inputs (use --audio FILE)")
        }
        if (motionMasks != nil || motionTrace != nil) && frames == nil && video == nil {
            throw ValidationError("--motion-masks and --motion-trace go with --frames or --video")
        }
        if audio != nil && frames == nil && video == nil { throw ValidationError("--audio goes with --frames or --video") }
        if fps != nil && frames == nil { throw ValidationError("--fps goes with --frames") }
        if let fps, !(fps > 0 && fps.isFinite) { throw ValidationError("--fps must be a positive number") }
    }

    /// Analyzes the --frames or --video recording (with --audio) and writes the output.
    func runVideo(plan: AnalysisPlan, device: Device, limits: InputLimits) throws {
        let outputFormat = format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .jsonl)
        let output = OutputSink(format: outputFormat)
        let name: String
        let path: String
        if let frames {
            name = frames
            path = frames
        } else {
            path = video!
            name = path == "-" ? "stdin" : path
        }
        let recording = InputRecording(path: path, displayName: name)
        var motion = MotionConfiguration(device: device, anchor: anchor)
        motion.reportsPrivacyMotion = plan.explain
        var diagnostics: MotionDiagnosticsWriter?
        do {
            diagnostics = try MotionDiagnosticsWriter(maskDirectory: motionMasks, tracePath: motionTrace)
        } catch {
            Self.stderr("error: \(error)")
            throw ExitCode(ExitStatus.usage)
        }
        let analyzer = VideoAnalyzer(
            plan: plan, motion: motion, overlay: ZoneOverlay(device: device),
            limits: limits, drawReport: out != nil && !noReport, diagnostics: diagnostics)
        let rotation = device.video.imageRotation
        if rotation % 90 != 0 {
            Self.stderr("warning: imageRotation \(rotation) is not a multiple of 90; zones are mapped as for \(GridMapping.normalizedRotation(rotation))")
        }
        var snapshotDirectory: String?
        if let out {
            try Self.checkOwnership(of: out, for: [recording])
            RecordingOutputWriter.removePreviousOutputs(for: recording, under: out)
            let dir = RecordingOutputWriter.directory(for: recording, under: out)
            snapshotDirectory = (dir as NSString).appendingPathComponent("snapshots")
        } else if plan.policy.recordingMode == .images {
            Self.stderr("warning: images mode: give --out DIR to write the snapshots")
        }
        let outcome = analyzeSource(analyzer: analyzer, name: name, path: path, snapshotDirectory: snapshotDirectory, limits: limits)
        for record in outcome.records {
            switch record.content {
            case .error(_, let message): Self.stderr("error: \(message)")
            case .warning(let message): Self.stderr("warning: \(record.file): \(message)")
            default: break
            }
        }
        let records = outcome.records.map(RecordEncoder.json)
        output.emit(records)
        var failed = outcome.failed
        if let out {
            let summary = RecordingSummary(file: name, mediaSeconds: outcome.mediaSeconds, records: outcome.records)
            do {
                try RecordingOutputWriter.write(
                    records: records, summary: summary, report: outcome.reportPNG,
                    fingerprint: String(InputShard.fnv1a(BatchAnalysis.runFingerprint(device: device, plan: plan, report: !noReport) + "\nvideo"), radix: 16),
                    for: recording, under: out)
                try RecordingOutputWriter.atomicWrite(
                    RunSummary([summary]).jsonValue.serialized(.pretty) + "\n", to: (out as NSString).appendingPathComponent("summary.json"))
                try RecordingOutputWriter.atomicWrite(RunSummary([summary]).tsv, to: (out as NSString).appendingPathComponent("summary.tsv"))
            } catch {
                failed = true
                Self.stderr("error: \(error)")
            }
        }
        output.close()
        if failed { throw ExitCode(ExitStatus.someInputsFailed) }
    }

    /// Opens the frame source and analyzes it; an unopenable source gives an error outcome.
    private func analyzeSource(
        analyzer: VideoAnalyzer, name: String, path: String, snapshotDirectory: String?, limits: InputLimits
    ) -> VideoAnalyzer.Outcome {
        func failure(_ error: FrameSourceError) -> VideoAnalyzer.Outcome {
            VideoAnalyzer.Outcome(
                records: [AnalysisRecord(file: name, content: .error(kind: error.kind.rawValue, message: error.description))],
                failed: true, frames: 0, snapshots: 0)
        }
        if let frames {
            let reader: PNGSequenceReader
            do {
                reader = try PNGSequenceReader(directory: frames, framesPerSecond: fps, limits: ImageLimits(limits))
            } catch {
                return failure(error)
            }
            var source = reader
            return analyzer.analyze(source: &source, name: name, audioPath: audio, snapshotDirectory: snapshotDirectory)
        }
        let reader: Y4MReader<FileDescriptorReader>
        do {
            reader = try Y4MReader(source: try FileDescriptorReader(path: path), name: name, limits: ImageLimits(limits))
        } catch {
            return failure(error)
        }
        var source = reader
        return analyzer.analyze(source: &source, name: name, audioPath: audio, snapshotDirectory: snapshotDirectory)
    }
}
