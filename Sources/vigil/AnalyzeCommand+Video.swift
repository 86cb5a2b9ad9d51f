import ArgumentParser
import Foundation
import VigilAnalysis
import VigilCore
import VigilDevice
import VigilPipeline
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
        let path = frames ?? video!
        let name = frames == nil && path == "-" ? "stdin" : path
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
        let run = AnalysisRun(sinks: try makeSinks(), messages: Self.stderr)
        let fingerprint = BatchAnalysis.runFingerprint(device: device, plan: plan, report: !noReport) + "\nvideo"
        run.analyzeVideo(
            frames.map { .pngSequence(directory: $0, framesPerSecond: fps) } ?? .y4m(path: path), as: recording, audioPath: audio,
            with: analyzer, snapshotDirectory: snapshotDirectory, fingerprint: String(InputShard.fnv1a(fingerprint), radix: 16),
            limits: limits)
        run.finish()
        if run.failures > 0 { throw ExitCode(ExitStatus.someInputsFailed) }
    }
}
