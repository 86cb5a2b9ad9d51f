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
struct RecordingAnalyzer {
    /// What to run.
    var plan: AnalysisPlan
    /// Samples decoded per block (bounds memory).
    var blockSize = 65_536
    /// Also draw report.png (spectrogram, level, events).
    var drawReport = false

    /// The outcome for one recording.
    struct Outcome {
        /// Output records (events, lifecycle records, suppressed candidates, warnings, errors).
        var records: [AnalysisRecord]
        /// Seconds of media analyzed.
        var mediaSeconds: Double
        /// Whether the input failed (fully or partly).
        var failed: Bool
        /// The detectors' raw detections (before the event engine), for scoring.
        var detections: [Detection] = []
        /// report.png, when asked for and the recording could be opened.
        var reportPNG: [UInt8]?
    }

    /// Analyzes `input`, reporting media seconds done through `progress`.
    func analyze(_ input: InputRecording, progress: (Double) -> Void = { _ in }) -> Outcome {
        let file = input.displayName
        let reader: AudioFileReader
        do {
            reader = try AudioFileReader(path: input.path)
        } catch let error as AudioFileError {
            return Outcome(records: [Self.errorRecord(file, error)], mediaSeconds: 0, failed: true)
        } catch {
            return Outcome(
                records: [AnalysisRecord(file: file, content: .error(kind: "unreadable", message: "\(input.path): \(error)"))],
                mediaSeconds: 0, failed: true)
        }
        let analyzer = AudioStreamAnalyzer(
            sampleRate: Double(reader.sampleRate), triggers: plan.detectorTriggers, settings: plan.settings)
        let collector = drawReport ? SpectrogramCollector(expectedDuration: reader.declaredDuration) : nil
        if let collector { analyzer.frameObserver = { collector.summary.add($0) } }
        var buffer = [Float](repeating: 0, count: blockSize)
        var failure: AnalysisRecord?
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                if n == 0 { break }
                buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                progress(analyzer.mediaTime)
            }
        } catch let error as AudioFileError {
            failure = Self.errorRecord(file, error)
        } catch {
            failure = AnalysisRecord(file: file, content: .error(kind: "decodeFailed", message: "\(input.path): \(error)"))
        }
        analyzer.finish()
        var records: [AnalysisRecord] = []
        if reader.nonFiniteSampleCount > 0 {
            records.append(
                AnalysisRecord(
                    file: file,
                    content: .warning("\(reader.nonFiniteSampleCount) non-finite samples (NaN or Inf) were replaced with silence")))
        }
        let frameLength = analyzer.configuration.fftSize
        if analyzer.sampleCount < Int64(frameLength) {
            records.append(
                AnalysisRecord(
                    file: file,
                    content: .warning(
                        "recording is shorter than one analysis frame (\(analyzer.sampleCount) samples, frame is \(frameLength)): too short to detect anything"
                    )))
        }
        records += plan.records(file: file, detections: analyzer.detections, endTime: analyzer.mediaTime)
        if let failure { records.append(failure) }
        var png: [UInt8]?
        if let collector {
            let report = RecordingReport(
                title: "\(file)  \(DecimalText.fixed(analyzer.mediaTime, places: 1)) S  \(reader.sampleRate) HZ",
                spectrogram: collector.summary, sampleRate: Double(reader.sampleRate),
                events: records.compactMap(Self.reportEvent), duration: analyzer.mediaTime)
            png = try? PNGCodec.encode(report.render(), destination: file)
        }
        return Outcome(
            records: records, mediaSeconds: analyzer.mediaTime, failed: failure != nil, detections: analyzer.detections,
            reportPNG: png)
    }

    private static func reportEvent(_ record: AnalysisRecord) -> ReportEvent? {
        guard case .engine(.event(let e)) = record.content else { return nil }
        return ReportEvent(trigger: e.trigger.rawValue, start: e.start, end: e.end, detectedAt: e.detectedAt, zone: e.zone.map(Int.init))
    }

    private static func errorRecord(_ file: String, _ error: AudioFileError) -> AnalysisRecord {
        AnalysisRecord(file: file, content: .error(kind: error.kind.rawValue, message: error.description))
    }
}

/// Holds the spectrogram summary the frame observer fills (one recording, one thread).
final class SpectrogramCollector {
    var summary: SpectrogramSummary
    init(expectedDuration: Double) { summary = SpectrogramSummary(expectedDuration: expectedDuration) }
}
