import Foundation
import VigilAnalysis
import VigilCore

/// Per-recording output under `--out DIR`: `DIR/<recording>/events.jsonl`, `events.tsv`,
/// `report.png`, and last a completion marker `done.json` (the recording's summary and the run fingerprint).
/// Every file is written atomically (a temporary file, then a rename), so an interrupted run
/// never leaves a half-written result, and a recording counts as complete only once its marker
/// exists and matches the current run's fingerprint.
enum RecordingOutputWriter {
    /// A file that could not be written.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): cannot write output: \(reason)" }
    }

    /// A completed recording found on disk.
    struct Completed {
        /// The stored records, as JSON (events.jsonl).
        var records: [JSONValue]
        /// The stored summary.
        var summary: RecordingSummary
    }

    /// The output directory of `recording` under `root`.
    static func directory(for recording: InputRecording, under root: String) -> String {
        // Keep outputs inside root even for names like ../x.wav or /abs/x.wav.
        let safe = recording.displayName.split(separator: "/").map { $0 == ".." ? "__" : String($0) }.joined(separator: "/")
        return (root as NSString).appendingPathComponent(safe.isEmpty ? "_" : safe)
    }

    /// Writes the outputs of one recording; the marker goes last.
    static func write(
        records: [JSONValue], summary: RecordingSummary, report: [UInt8]? = nil, fingerprint: String,
        for recording: InputRecording, under root: String
    ) throws {
        let dir = directory(for: recording, under: root)
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: dir, reason: error.localizedDescription)
        }
        let jsonl = records.map { $0.serialized(.compact) + "\n" }.joined()
        let tsv = records.compactMap { RecordEncoder.tsvLine($0).map { $0 + "\n" } }.joined()
        try atomicWrite(jsonl, to: (dir as NSString).appendingPathComponent("events.jsonl"))
        try atomicWrite(tsv, to: (dir as NSString).appendingPathComponent("events.tsv"))
        if let report { try atomicWrite(Data(report), to: (dir as NSString).appendingPathComponent("report.png")) }
        let marker = JSONValue.object(
            JSONObject([("v", .number(1)), ("fingerprint", .string(fingerprint)), ("summary", summary.jsonValue)]))
        try atomicWrite(marker.serialized(.compact) + "\n", to: (dir as NSString).appendingPathComponent("done.json"))
    }

    /// The stored result of `recording` if a previous run completed it with the same fingerprint.
    static func completed(for recording: InputRecording, under root: String, fingerprint: String) -> Completed? {
        let dir = directory(for: recording, under: root)
        guard let markerData = FileManager.default.contents(atPath: (dir as NSString).appendingPathComponent("done.json")),
            let marker = try? JSONValue.parse(markerData), marker["fingerprint"]?.stringValue == fingerprint,
            let summaryJSON = marker["summary"], let summary = RecordingSummary(json: summaryJSON),
            let data = FileManager.default.contents(atPath: (dir as NSString).appendingPathComponent("events.jsonl"))
        else { return nil }
        var records: [JSONValue] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let record = try? JSONValue.parse(String(line)) else { return nil }
            records.append(record)
        }
        return Completed(records: records, summary: summary)
    }

    /// Writes `text` to `path` through a temporary file in the same directory and a rename.
    static func atomicWrite(_ text: String, to path: String) throws { try atomicWrite(Data(text.utf8), to: path) }

    /// Writes `data` to `path` through a temporary file in the same directory and a rename.
    static func atomicWrite(_ data: Data, to path: String) throws {
        let temporary = path + ".partial-\(getpid())"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporary)
                throw WriteError(path: path, reason: reason)
            }
        } catch let error as WriteError {
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw WriteError(path: path, reason: error.localizedDescription)
        }
    }

    /// Removes temporary files an interrupted run left in `root` (names containing `.partial-`).
    static func removeStalePartials(under root: String) {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = walker.nextObject() as? String {
            if (relative as NSString).lastPathComponent.contains(".partial-") {
                try? FileManager.default.removeItem(atPath: (root as NSString).appendingPathComponent(relative))
            }
        }
    }
}
