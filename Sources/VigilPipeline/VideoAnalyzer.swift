import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDevice
import VigilEvents
import VigilFrameIO
import VigilImaging
import VigilMedia
import VigilReport
import VigilVision

/// Drives one video recording (a PNG sequence or a y4m stream, optionally with an audio file
/// analysed alongside, or a container's video and audio read in one pass) through the motion detector, the sound detectors and one event-engine
/// run. In images mode with an output directory, writes snapshots at peak motion.
public struct VideoAnalyzer {
    /// What to run.
    public var plan: AnalysisPlan
    /// The device's motion configuration.
    public var motion: MotionConfiguration
    /// The overlay for snapshots.
    public var overlay: ZoneOverlay
    /// Limits on the --audio file.
    public var limits: InputLimits = .default
    /// Also draw report.png (zone motion strip, a thumbnail with the zones, audio panels with --audio).
    public var drawReport = false
    /// Per-frame motion masks and the region trace (--motion-masks, --motion-trace).
    public var diagnostics: MotionDiagnosticsWriter?

    /// An analyzer running `plan` and the motion detector configured by `motion`.
    public init(
        plan: AnalysisPlan, motion: MotionConfiguration, overlay: ZoneOverlay, limits: InputLimits = .default, drawReport: Bool = false,
        diagnostics: MotionDiagnosticsWriter? = nil
    ) {
        self.plan = plan
        self.motion = motion
        self.overlay = overlay
        self.limits = limits
        self.drawReport = drawReport
        self.diagnostics = diagnostics
    }

    /// The outcome for one recording.
    public struct Outcome: Sendable {
        /// Output records (engine records, then warnings and errors).
        public var records: [AnalysisRecord]
        /// Whether the recording failed (fully or partly).
        public var failed: Bool
        /// Frames analyzed.
        public var frames: Int
        /// Snapshots written.
        public var snapshots: Int
        /// Seconds of media analyzed (the longer of video and audio).
        public var mediaSeconds: Double = 0
        /// report.png, when asked for.
        public var reportPNG: [UInt8]?
    }

    /// Analyses `source` as recording `name`, with `audioPath` if given; snapshots go to
    /// `snapshotDirectory` (images mode only).
    public func analyze(source: inout some FrameSource, name: String, audioPath: String?, snapshotDirectory: String?) -> Outcome {
        var audio: RecordingAnalyzer.DecodedAudio?
        if let audioPath {
            // Sound first (its detections are merged into the same engine run).
            audio = RecordingAnalyzer(plan: plan, limits: limits, drawReport: drawReport).decode(
                InputRecording(path: audioPath, displayName: name))
        }
        return run(source: &source, name: name, audio: audio, interleaved: nil, snapshotDirectory: snapshotDirectory)
    }

    /// Analyses a container's video and audio in one pass as recording `name`: the audio the
    /// source meets between frames goes through the sound detectors as it is read.
    public func analyze(container source: MediaContainerSource, name: String, snapshotDirectory: String?) -> Outcome {
        guard source.hasAudio else {
            var frames = source
            return run(source: &frames, name: name, audio: nil, interleaved: nil, snapshotDirectory: snapshotDirectory)
        }
        let analyzer = AudioStreamAnalyzer(sampleRate: source.sampleRate, triggers: plan.detectorTriggers, settings: plan.settings)
        let spectrogram = drawReport ? SpectrogramCollector(expectedDuration: source.reader.duration ?? 0) : nil
        if let spectrogram { analyzer.frameObserver = { spectrogram.summary.add($0) } }
        source.onAudio = { _ = analyzer.process($0) }
        defer { source.onAudio = nil }
        var frames = source
        return run(
            source: &frames, name: name, audio: nil, interleaved: (analyzer, spectrogram), snapshotDirectory: snapshotDirectory)
    }

    /// The frame loop. Sound comes decoded beforehand (`audio`), or from `interleaved`, an
    /// analyzer the source feeds while frames are read (its detections are taken before each
    /// frame, and the rest when the source ends).
    private func run(
        source: inout some FrameSource, name: String, audio decoded: RecordingAnalyzer.DecodedAudio?,
        interleaved: (analyzer: AudioStreamAnalyzer, spectrogram: SpectrogramCollector?)?, snapshotDirectory: String?
    ) -> Outcome {
        var records: [AnalysisRecord] = []
        var failed = false
        var audioDetections: [Detection] = []
        var audioEnd = 0.0
        var audioReport = decoded
        if let decoded {
            audioDetections = decoded.detections
            audioEnd = decoded.mediaSeconds
            records += decoded.warnings
            if let failure = decoded.failure { records.append(failure) }
            failed = decoded.failure != nil
        }
        var lanes = overlay.items.filter { !$0.isPrivacy }.map { ZoneActivityTimeline.Lane(zoneID: $0.id, name: $0.name, color: $0.color) }
        lanes.append(ZoneActivityTimeline.Lane(zoneID: nil, name: "outside", color: RGBColor(red: 110, green: 110, blue: 110)))
        var timeline = drawReport ? ZoneActivityTimeline(lanes: lanes, expectedDuration: 0) : nil
        var peakPicture: FramePicture?
        var peakMotion = -1

        let detector = MotionDetector(configuration: motion)
        detector.recordsRegionDecisions = diagnostics?.tracesRegions ?? false
        var collector: SnapshotCollector?
        if plan.policy.recordingMode == .images {
            // Runs without an output directory too: it finds each activation's peak time.
            collector = SnapshotCollector(policy: plan.policy, overlay: overlay, directory: snapshotDirectory)
        }
        var motionDetections: [Detection] = []
        var audioCursor = 0
        var frames = 0
        var lastTime = 0.0
        var frameInterval = 0.0
        var lastPicture: FramePicture?
        var sizeChanged = false
        var firstSize: (Int, Int)?
        var lastChromaSpread: Double?
        do {
            while let frame = try source.nextFrame() {
                if frames > 0 { frameInterval = frame.time - lastTime }
                lastTime = frame.time
                frames += 1
                let size = (frame.picture.width, frame.picture.height)
                if let firstSize, firstSize != size { sizeChanged = true }
                if firstSize == nil { firstSize = size }
                let luma = frame.picture.luma
                var result = detector.process(luma, time: frame.time)
                if detector.recordsRegionDecisions {
                    // The trace tells an IR switch (colour <-> monochrome) from other whole-frame changes.
                    var spread: Double?
                    if case .ycbcr(let picture) = frame.picture { spread = ColourModeSwitch.chromaSpread(picture) }
                    if result.state == .globalChange && ColourModeSwitch.isSwitch(from: lastChromaSpread, to: spread) {
                        for i in result.decisions.indices where !result.decisions[i].isPrivacy { result.decisions[i].reason = .irSwitch }
                    }
                    lastChromaSpread = spread
                }
                if let diagnostics {
                    do {
                        try diagnostics.record(result, frameIndex: frames - 1, detector: detector, width: luma.width, height: luma.height)
                    } catch {
                        failed = true
                        records.append(AnalysisRecord(file: name, content: .error(kind: "unwritable", message: "\(error)")))
                        break
                    }
                }
                let detections = result.detections
                motionDetections += detections
                if drawReport {
                    var fractions: [UInt16?: Double] = [:]
                    for z in result.zones { fractions[z.zoneID] = z.fraction }
                    timeline?.add(time: frame.time, fractions: fractions)
                    if result.totalMotionPixels > peakMotion {
                        peakMotion = result.totalMotionPixels
                        peakPicture = frame.picture
                    }
                }
                if let collector {
                    if let analyzer = interleaved?.analyzer, analyzer.detections.count > audioDetections.count {
                        audioDetections += analyzer.detections[audioDetections.count...]
                    }
                    var due: [Detection] = []
                    while audioCursor < audioDetections.count && audioDetections[audioCursor].detectedAt <= frame.time {
                        due.append(audioDetections[audioCursor])
                        audioCursor += 1
                    }
                    collector.ingest(sounds: due, detections: detections, frame: frame.picture, time: frame.time, previous: lastPicture)
                }
                lastPicture = frame.picture
            }
        } catch {
            failed = true
            records.append(AnalysisRecord(file: name, content: .error(kind: error.kind.rawValue, message: error.description)))
        }
        if let (analyzer, spectrogram) = interleaved {
            _ = analyzer.finish()
            audioDetections += analyzer.detections[audioDetections.count...]
            audioEnd = analyzer.mediaTime
            records += RecordingAnalyzer.shortRecordingWarning(file: name, analyzer: analyzer)
            audioReport = RecordingAnalyzer.DecodedAudio(
                detections: [], mediaSeconds: audioEnd, sampleRate: Int(analyzer.configuration.sampleRate),
                spectrogram: spectrogram?.summary)
        }
        if let diagnostics {
            do {
                try diagnostics.finish()
            } catch {
                failed = true
                records.append(AnalysisRecord(file: name, content: .error(kind: "unwritable", message: "\(error)")))
            }
        }
        if frames == 0 && !failed {
            failed = true
            records.append(AnalysisRecord(file: name, content: .error(kind: "empty", message: "\(source.sourceName): no frames")))
        }
        if sizeChanged {
            records.append(
                AnalysisRecord(file: name, content: .warning("the frame size changed; the motion model restarted at each change")))
        }
        let videoEnd = frames > 0 ? lastTime + max(frameInterval, 0) : 0
        let endTime = max(videoEnd, audioEnd)
        if let collector {
            collector.finish(videoEnd: videoEnd, endTime: endTime, remaining: Array(audioDetections[audioCursor...]), last: lastPicture)
            for failure in collector.failures {
                failed = true
                records.append(AnalysisRecord(file: name, content: .error(kind: "unwritable", message: failure)))
            }
            // The snapshot time of each event is its activation's peak.
            let peaks = collector.peakTimes
            motionDetections = motionDetections.map { detection in
                var d = detection
                if let peak = peaks[.init(trigger: d.trigger, zone: d.zoneID, time: d.detectedAt)] {
                    d.evidence["peakTime"] = .number(peak)
                }
                return d
            }
        }
        // Motion events, zone activations and snapshots end with the video, clips with the recording.
        let engineRecords = plan.records(file: name, detections: audioDetections + motionDetections, endTime: endTime, visionEnd: videoEnd)
        var png: [UInt8]?
        if drawReport {
            let picture = peakPicture ?? lastPicture
            let thumbnail = picture.map { p -> RasterImage in
                let rgb = p.rgbImage()
                let size = RecordingReport.thumbnailSize(width: rgb.width, height: rgb.height)
                return overlay.thumbnail(of: rgb, width: size.width, height: size.height)
            }
            let all = engineRecords + records
            let report = RecordingReport(
                title: "\(name)  \(DecimalText.fixed(endTime, places: 1)) s  \(frames) frames",
                spectrogram: audioReport?.spectrogram ?? SpectrogramSummary(expectedDuration: 0),
                sampleRate: Double(audioReport?.sampleRate ?? 16_000), events: all.compactMap(RecordingAnalyzer.reportEvent),
                duration: endTime, zoneActivity: timeline, thumbnail: thumbnail)
            png = try? PNGCodec.encode(report.render(), destination: name)
        }
        return Outcome(
            records: engineRecords + records, failed: failed, frames: frames, snapshots: collector?.written ?? 0,
            mediaSeconds: endTime, reportPNG: png)
    }

}
