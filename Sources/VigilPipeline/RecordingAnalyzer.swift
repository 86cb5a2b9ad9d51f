import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilImaging
import VigilMedia
import VigilReport
import VigilVision

/// Drives one recording from its file through the pure pipeline: decode in fixed blocks,
/// STFT and detectors, then the event engine (a container with video: ``VideoAnalyzer``). Failures become error records; whatever was
/// analyzed before a failure is kept.
public struct RecordingAnalyzer: Sendable {
    /// What to run.
    public var plan: AnalysisPlan
    /// Limits on the recording (duration, channels).
    public var limits: InputLimits = .default
    /// Samples decoded per block (bounds memory).
    public var blockSize = 65_536
    /// Also draw report.png (spectrogram, level, events).
    public var drawReport = false
    /// What to read from containers (``RecordingSource``): audio, video, the analysis frame rate.
    public var media = MediaReaderOptions()
    /// The device's motion configuration and zone overlay. With them a container's video stream is
    /// analyzed together with its audio (``VideoAnalyzer``); without them only its audio is.
    public var video: (motion: MotionConfiguration, overlay: ZoneOverlay)?

    /// An analyzer running `plan` on recordings within `limits`.
    public init(plan: AnalysisPlan, limits: InputLimits = .default, blockSize: Int = 65_536, drawReport: Bool = false) {
        self.plan = plan
        self.limits = limits
        self.blockSize = blockSize
        self.drawReport = drawReport
    }

    /// The outcome for one recording.
    public struct Outcome: Sendable {
        /// Output records (events, lifecycle records, suppressed candidates, warnings, errors).
        public var records: [AnalysisRecord]
        /// Seconds of media analyzed.
        public var mediaSeconds: Double
        /// Whether the input failed (fully or partly).
        public var failed: Bool
        /// The detectors' raw detections (before the event engine), for scoring.
        public var detections: [Detection] = []
        /// report.png, when asked for and the recording could be opened.
        public var reportPNG: [UInt8]?
    }

    /// A recording's audio after decoding and detection, before the event engine.
    public struct DecodedAudio: Sendable {
        /// The detectors' detections.
        public var detections: [Detection] = []
        /// Seconds of media decoded.
        public var mediaSeconds: Double = 0
        /// The file's sample rate (0 if it could not be opened).
        public var sampleRate = 0
        /// Warnings about the input.
        public var warnings: [AnalysisRecord] = []
        /// Why decoding failed or stopped early, if it did.
        public var failure: AnalysisRecord?
        /// The reduced spectrogram, when a report is drawn.
        public var spectrogram: SpectrogramSummary?
    }

    /// Decodes `input` in fixed blocks through the STFT and detectors, reporting media seconds
    /// done through `progress`. Whatever was decoded before a failure is kept.
    public func decode(_ input: InputRecording, progress: (Double) -> Void = { _ in }) -> DecodedAudio {
        var media = media
        media.readsVideo = false
        var result = DecodedAudio()
        do {
            return decode(input, from: try RecordingSource.open(path: input.path, limits: limits, media: media), progress: progress)
        } catch {
            result.failure = Self.errorRecord(input, error, kind: "unreadable")
            return result
        }
    }

    /// Decodes the audio of `opened` (the recording `input`) as ``decode(_:progress:)`` does.
    private func decode(_ input: InputRecording, from opened: RecordingSource, progress: (Double) -> Void) -> DecodedAudio {
        let file = input.displayName
        var result = DecodedAudio()
        let source: any AudioSource
        let declaredDuration: Double
        switch opened {
        case .audioFile(let audioFile): (source, declaredDuration) = (audioFile, audioFile.reader.declaredDuration)
        case .container(let container):
            guard container.hasAudio else {
                result.failure = AnalysisRecord(
                    file: file, content: .error(kind: "noStreams", message: "\(input.path): no audio stream to analyze"))
                return result
            }
            (source, declaredDuration) = (container, container.reader.duration ?? 0)
        }
        result.sampleRate = Int(opened.sampleRate)
        let analyzer = AudioStreamAnalyzer(sampleRate: opened.sampleRate, triggers: plan.detectorTriggers, settings: plan.settings)
        let collector = drawReport ? SpectrogramCollector(expectedDuration: declaredDuration) : nil
        if let collector { analyzer.frameObserver = { collector.summary.add($0) } }
        var buffer = [Float](repeating: 0, count: blockSize)
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
                if n == 0 { break }
                _ = buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                progress(analyzer.mediaTime)
            }
        } catch {
            result.failure = Self.errorRecord(input, error, kind: "decodeFailed")
        }
        analyzer.finish()
        if case .audioFile(let audioFile) = opened, audioFile.reader.nonFiniteSampleCount > 0 {
            result.warnings.append(
                AnalysisRecord(
                    file: file,
                    content: .warning(
                        "\(audioFile.reader.nonFiniteSampleCount) non-finite samples (NaN or Inf) were replaced with silence")))
        }
        result.warnings += Self.shortRecordingWarning(file: file, analyzer: analyzer)
        result.detections = analyzer.detections
        result.mediaSeconds = analyzer.mediaTime
        result.spectrogram = collector?.summary
        return result
    }

    /// Analyzes `input`, reporting media seconds done through `progress`. A container with a
    /// video stream is analyzed as video when ``video`` is set (snapshots in images mode go to
    /// `snapshotDirectory`).
    public func analyze(_ input: InputRecording, snapshotDirectory: String? = nil, progress: (Double) -> Void = { _ in }) -> Outcome {
        let file = input.displayName
        var media = media
        media.readsVideo = media.readsVideo && video != nil
        let opened: RecordingSource
        do {
            opened = try RecordingSource.open(path: input.path, limits: limits, media: media)
        } catch {
            return Outcome(records: [Self.errorRecord(input, error, kind: "unreadable")], mediaSeconds: 0, failed: true)
        }
        if case .container(let container) = opened, container.hasVideo, let video {
            let analyzer = VideoAnalyzer(
                plan: plan, motion: video.motion, overlay: video.overlay, limits: limits, drawReport: drawReport)
            let outcome = analyzer.analyze(container: container, name: file, snapshotDirectory: snapshotDirectory)
            progress(outcome.mediaSeconds)
            return Outcome(
                records: outcome.records, mediaSeconds: outcome.mediaSeconds, failed: outcome.failed, reportPNG: outcome.reportPNG)
        }
        if case .container(let container) = opened, !container.hasAudio {
            let reason = media.readsAudio ? "no audio or video stream to analyze" : "no video stream to analyze (--no-audio)"
            let record = AnalysisRecord(file: file, content: .error(kind: "noStreams", message: "\(input.path): \(reason)"))
            return Outcome(records: [record], mediaSeconds: 0, failed: true)
        }
        let audio = decode(input, from: opened, progress: progress)
        if audio.sampleRate == 0, let failure = audio.failure {
            return Outcome(records: [failure], mediaSeconds: 0, failed: true)
        }
        var records = audio.warnings
        records += plan.records(file: file, detections: audio.detections, endTime: audio.mediaSeconds)
        if let failure = audio.failure { records.append(failure) }
        var png: [UInt8]?
        if let spectrogram = audio.spectrogram {
            let report = RecordingReport(
                title: "\(file)  \(DecimalText.fixed(audio.mediaSeconds, places: 1)) s  \(audio.sampleRate) Hz",
                spectrogram: spectrogram, sampleRate: Double(audio.sampleRate),
                events: records.compactMap(Self.reportEvent), duration: audio.mediaSeconds)
            png = try? PNGCodec.encode(report.render(), destination: file)
        }
        return Outcome(
            records: records, mediaSeconds: audio.mediaSeconds, failed: audio.failure != nil, detections: audio.detections,
            reportPNG: png)
    }

    /// A warning when `analyzer` has seen less than one analysis frame of audio.
    static func shortRecordingWarning(file: String, analyzer: AudioStreamAnalyzer) -> [AnalysisRecord] {
        let frameLength = analyzer.configuration.fftSize
        guard analyzer.sampleCount < Int64(frameLength) else { return [] }
        return [
            AnalysisRecord(
                file: file,
                content: .warning(
                    "recording is shorter than one analysis frame (\(analyzer.sampleCount) samples, frame is \(frameLength)): too short to detect anything"
                ))
        ]
    }

    /// The report bar of an `event` record; nil for other records.
    public static func reportEvent(_ record: AnalysisRecord) -> ReportEvent? {
        guard case .engine(.event(let e)) = record.content else { return nil }
        return ReportEvent(trigger: e.trigger.rawValue, start: e.start, end: e.end, detectedAt: e.detectedAt, zone: e.zone.map(Int.init))
    }

    /// The error record of `error` for `input`; `kind` for errors of no known type.
    private static func errorRecord(_ input: InputRecording, _ error: any Error, kind: String) -> AnalysisRecord {
        let file = input.displayName
        switch error {
        case let error as AudioFileError:
            return AnalysisRecord(file: file, content: .error(kind: error.kind.rawValue, message: error.description))
        case let error as MediaReadError:
            return AnalysisRecord(file: file, content: .error(kind: error.kind.rawValue, message: error.description))
        default: return AnalysisRecord(file: file, content: .error(kind: kind, message: "\(input.path): \(error)"))
        }
    }
}

/// Holds the spectrogram summary the frame observer fills (one recording, one thread).
public final class SpectrogramCollector {
    /// The reduced spectrogram so far.
    public var summary: SpectrogramSummary
    /// A collector for a recording of about `expectedDuration` seconds.
    public init(expectedDuration: Double) { summary = SpectrogramSummary(expectedDuration: expectedDuration) }
}
