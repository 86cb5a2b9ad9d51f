import Foundation
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors

/// Shared helpers of the alarm detector tests: running detectors over samples and files, and
/// locating the shared development data.
enum AlarmTestSupport {
    /// The package root (this file is Tests/VigilDetectorsTests/AlarmTestSupport.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data/dev` next to the package root (or `VIGIL_SHARED_DATA`/dev when set).
    static let devDirectory: URL = {
        if let custom = ProcessInfo.processInfo.environment["VIGIL_SHARED_DATA"] {
            return URL(fileURLWithPath: custom).appendingPathComponent("dev")
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/dev")
    }()

    /// True when the development recordings and labels are present.
    static var hasDevData: Bool {
        FileManager.default.fileExists(atPath: devDirectory.appendingPathComponent("labels.tsv").path)
            && FileManager.default.fileExists(atPath: devDirectory.appendingPathComponent("audio").path)
    }

    /// Runs `detectors` over `samples` at `sampleRate` (shared STFT, as in the pipeline).
    static func run(
        _ detectors: [any SpectralDetector], samples: [Float], sampleRate: Double, block: Int = 4096
    ) -> [Detection] {
        let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: sampleRate))
        var detections: [Detection] = []
        samples.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let n = min(block, all.count - offset)
                stft.process(UnsafeBufferPointer(rebasing: all[offset..<(offset + n)])) { frame in
                    for d in detectors { d.process(frame, into: &detections) }
                }
                offset += n
            }
        }
        stft.finish { frame in for d in detectors { d.process(frame, into: &detections) } }
        let end = Double(samples.count) / sampleRate
        for d in detectors { d.finish(at: end, into: &detections) }
        return detections
    }

    /// Smoke and CO detectors for `sampleRate` with `settings`.
    static func alarmDetectors(sampleRate: Double, settings: DetectorSettings = DetectorSettings()) -> [any SpectralDetector] {
        let configuration = STFTConfiguration.standard(sampleRate: sampleRate)
        return [EventTriggerType.smokeAlarm, .coAlarm].compactMap {
            DetectorRegistry.makeDetector(for: $0, configuration: configuration, settings: settings)
        }
    }

    /// Decodes and runs the alarm detectors over the file at `path`, streaming.
    static func runFile(_ path: String, settings: DetectorSettings = DetectorSettings()) throws -> [Detection] {
        let reader = try AudioFileReader(path: path)
        let rate = Double(reader.sampleRate)
        let detectors = alarmDetectors(sampleRate: rate, settings: settings)
        let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
        var detections: [Detection] = []
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 16384)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let n = try reader.readMono(into: buffer)
            if n == 0 { break }
            total += n
            stft.process(UnsafeBufferPointer(rebasing: buffer[0..<n])) { frame in
                for d in detectors { d.process(frame, into: &detections) }
            }
        }
        stft.finish { frame in for d in detectors { d.process(frame, into: &detections) } }
        for d in detectors { d.finish(at: Double(total) / rate, into: &detections) }
        return detections
    }

    /// One labelled event of the development set.
    struct Reference {
        var file: String
        var onset: Double
        var offset: Double
        var label: String
        var eventToBackgroundDB: Double?
    }

    /// Reads `labels_meta.tsv` (falls back to `labels.tsv`) of the development set.
    static func loadReferences() throws -> [Reference] {
        let metaURL = devDirectory.appendingPathComponent("labels_meta.tsv")
        var refs: [Reference] = []
        var seen = Set<String>()
        let text = try String(contentsOf: metaURL, encoding: .utf8)
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if i == 0 && cols.first == "filename" { continue }
            guard cols.count >= 4, let on = Double(cols[1]), let off = Double(cols[2]) else { continue }
            let key = "\(cols[0])|\(cols[1])|\(cols[3])"
            if seen.contains(key) { continue }  // the meta file repeats some rows
            seen.insert(key)
            let db = cols.count >= 6 ? Double(cols[5].replacingOccurrences(of: "+", with: "")) : nil
            refs.append(Reference(file: cols[0], onset: on, offset: off, label: cols[3], eventToBackgroundDB: db))
        }
        return refs
    }

    /// Every audio file of the development set, sorted.
    static func devFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: devDirectory.appendingPathComponent("audio").path)
            .filter { $0.hasSuffix(".flac") }.sorted()
    }
}

extension AlarmTestSupport {
    /// Duration in seconds of the audio file at `path` (from its header).
    static func duration(of path: String) throws -> Double {
        try AudioFileReader(path: path).declaredDuration
    }
}
