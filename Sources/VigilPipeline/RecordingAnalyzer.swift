import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilImaging
import VigilReport

/// Drives one recording from its file through the pure pipeline: decode in fixed blocks,
/// STFT and detectors, then the event engine. Failures become error records; whatever was
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
        let file = input.displayName
        var result = DecodedAudio()
        let source: FileAudioSource
        do {
            source = try FileAudioSource(path: input.path, limits: limits)
        } catch let error as AudioFileError {
            result.failure = Self.errorRecord(file, error)
            return result
        } catch {
            result.failure = AnalysisRecord(file: file, content: .error(kind: "unreadable", message: "\(input.path): \(error)"))
            return result
        }
        let reader = source.reader
        result.sampleRate = reader.sampleRate
        let analyzer = AudioStreamAnalyzer(
            sampleRate: Double(reader.sampleRate), triggers: plan.detectorTriggers, settings: plan.settings)
        let collector = drawReport ? SpectrogramCollector(expectedDuration: reader.declaredDuration) : nil
        if let collector { analyzer.frameObserver = { collector.summary.add($0) } }
        var buffer = [Float](repeating: 0, count: blockSize)
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
                if n == 0 { break }
                _ = buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                progress(analyzer.mediaTime)
            }
        } catch let error as AudioFileError {
            result.failure = Self.errorRecord(file, error)
        } catch {
            result.failure = AnalysisRecord(file: file, content: .error(kind: "decodeFailed", message: "\(input.path): \(error)"))
        }
        analyzer.finish()
        if reader.nonFiniteSampleCount > 0 {
            result.warnings.append(
                AnalysisRecord(
                    file: file,
                    content: .warning("\(reader.nonFiniteSampleCount) non-finite samples (NaN or Inf) were replaced with silence")))
        }
        let frameLength = analyzer.configuration.fftSize
        if analyzer.sampleCount < Int64(frameLength) {
            result.warnings.append(
                AnalysisRecord(
                    file: file,
                    content: .warning(
                        "recording is shorter than one analysis frame (\(analyzer.sampleCount) samples, frame is \(frameLength)): too short to detect anything"
                    )))
        }
        result.detections = analyzer.detections
        result.mediaSeconds = analyzer.mediaTime
        result.spectrogram = collector?.summary
        return result
    }

    /// Analyzes `input`, reporting media seconds done through `progress`.
    public func analyze(_ input: InputRecording, progress: (Double) -> Void = { _ in }) -> Outcome {
        let file = input.displayName
        let audio = decode(input, progress: progress)
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

    /// The report bar of an `event` record; nil for other records.
    public static func reportEvent(_ record: AnalysisRecord) -> ReportEvent? {
        guard case .engine(.event(let e)) = record.content else { return nil }
        return ReportEvent(trigger: e.trigger.rawValue, start: e.start, end: e.end, detectedAt: e.detectedAt, zone: e.zone.map(Int.init))
    }

    private static func errorRecord(_ file: String, _ error: AudioFileError) -> AnalysisRecord {
        AnalysisRecord(file: file, content: .error(kind: error.kind.rawValue, message: error.description))
    }
}

/// Holds the spectrogram summary the frame observer fills (one recording, one thread).
public final class SpectrogramCollector {
    /// The reduced spectrogram so far.
    public var summary: SpectrogramSummary
    /// A collector for a recording of about `expectedDuration` seconds.
    public init(expectedDuration: Double) { summary = SpectrogramSummary(expectedDuration: expectedDuration) }
}
