import Foundation
import VigilAnalysis
import VigilCore

/// Per-recording output under `--out DIR`: `DIR/<recording>/events.jsonl`, `events.tsv`,
/// `report.png`, and last a completion marker `done.json` (the recording's summary and the run fingerprint).
/// Every file is written atomically (a temporary file, then a rename), so an interrupted run
/// never leaves a half-written result, and a recording counts as complete only once its marker
/// exists and matches the current run's fingerprint. A recording analyzed again first loses its
/// previous outputs, so its folder holds only what this run wrote.
public enum RecordingOutputWriter {
    /// The files vigil writes in a recording's folder (snapshots are `snapshots/<index>.png`).
    public static let outputFileNames = ["done.json", "events.jsonl", "events.tsv", "report.png"]

    /// Why `--out DIR` cannot take this run's results.
    public enum Conflict: Error, CustomStringConvertible {
        /// Two inputs would write to the same result folder.
        case sameFolder(root: String, folder: String, inputs: [String])
        /// The directory holds results of recordings that are not inputs of this command.
        case foreignResults(root: String, folders: [String])

        public var description: String {
            switch self {
            case .sameFolder(let root, let folder, let inputs):
                return "--out \(root): \(inputs.joined(separator: " and ")) would both write their results to "
                    + "\((root as NSString).appendingPathComponent(folder)); analyze them into separate --out directories, "
                    + "or give their common directory as the input"
            case .foreignResults(let root, let folders):
                let shown = folders.prefix(5).joined(separator: ", ") + (folders.count > 5 ? " and \(folders.count - 5) more" : "")
                return "--out \(root) already holds results of \(folders.count) recording\(folders.count == 1 ? "" : "s") "
                    + "that \(folders.count == 1 ? "is" : "are") not inputs of this command (\(shown)), so its summary.json "
                    + "would not describe that folder; use another --out directory, give those recordings as inputs too, "
                    + "or remove their result folders"
            }
        }
    }

    /// A file that could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        /// The file or directory concerned.
        public var path: String
        /// Why it failed.
        public var reason: String
        public var description: String { "\(path): cannot write output: \(reason)" }
    }

    /// A completed recording found on disk.
    public struct Completed {
        /// The stored records, as JSON (events.jsonl).
        public var records: [JSONValue]
        /// The stored summary.
        public var summary: RecordingSummary
    }

    /// The output directory of `recording` under `root`: `root/<folder name>`.
    public static func directory(for recording: InputRecording, under root: String) -> String {
        (root as NSString).appendingPathComponent(folderName(for: recording))
    }

    /// The name of `recording`'s result folder, relative to the `--out` directory: its `outputName`,
    /// kept inside that directory even for odd names (`..` components become `__`).
    public static func folderName(for recording: InputRecording) -> String {
        let safe = recording.outputName.split(separator: "/").map { $0 == ".." ? "__" : String($0) }.joined(separator: "/")
        return safe.isEmpty ? "_" : safe
    }

    /// Checks that `root` can take the results of `recordings` (every input of the command, before
    /// sharding): no two share a result folder, and `root` holds no result folder of another recording.
    /// A result folder is one holding `done.json` or `events.jsonl`.
    public static func checkOwnership(of root: String, for recordings: [InputRecording]) throws {
        var inputsByFolder: [String: [String]] = [:]
        for recording in recordings {
            inputsByFolder[folderName(for: recording), default: []].append(recording.path)
        }
        if let (folder, inputs) = inputsByFolder.filter({ $0.value.count > 1 }).min(by: { $0.key < $1.key }) {
            throw Conflict.sameFolder(root: root, folder: folder, inputs: inputs)
        }
        let foreign = resultFolders(under: root).filter { inputsByFolder[$0] == nil }
        if !foreign.isEmpty { throw Conflict.foreignResults(root: root, folders: foreign) }
    }

    /// The result folders below `root` (relative paths, sorted).
    public static func resultFolders(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var folders: Set<String> = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name == "done.json" || name == "events.jsonl" {
                let folder = (relative as NSString).deletingLastPathComponent
                if !folder.isEmpty { folders.insert(folder) }
            }
        }
        return folders.sorted()
    }

    /// Removes what an earlier run wrote for `recording` (the marker first, then events, report and
    /// snapshots), so that its folder ends up holding only this run's outputs. Other files are kept.
    public static func removePreviousOutputs(for recording: InputRecording, under root: String) {
        let dir = directory(for: recording, under: root)
        let fm = FileManager.default
        for name in outputFileNames { try? fm.removeItem(atPath: (dir as NSString).appendingPathComponent(name)) }
        let snapshots = (dir as NSString).appendingPathComponent("snapshots")
        guard let names = try? fm.contentsOfDirectory(atPath: snapshots) else { return }
        for name in names where name.hasSuffix(".png") && Int(name.dropLast(4)) != nil {
            try? fm.removeItem(atPath: (snapshots as NSString).appendingPathComponent(name))
        }
        if (try? fm.contentsOfDirectory(atPath: snapshots))?.isEmpty == true { try? fm.removeItem(atPath: snapshots) }
    }

    /// Writes the outputs of one recording; the marker goes last.
    public static func write(
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
    public static func completed(for recording: InputRecording, under root: String, fingerprint: String) -> Completed? {
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

    /// A summary.json that cannot be used: names the file and the reason.
    public struct SummaryReadError: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// Why it cannot be used.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads the run summary `argument` names: a summary.json, or a directory holding one.
    public static func readSummary(_ argument: String) throws(SummaryReadError) -> RunSummary {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
        let path = isDirectory.boolValue ? (argument as NSString).appendingPathComponent("summary.json") : argument
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SummaryReadError(path: path, reason: "cannot read summary")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw SummaryReadError(path: path, reason: "not JSON: \(error)")
        }
        guard let summary = RunSummary(json: json) else {
            throw SummaryReadError(path: path, reason: "not a vigil summary.json (missing or malformed \"files\")")
        }
        return summary
    }

    /// Reads every summary named in `arguments` (a summary.json or its folder) and merges them;
    /// `duplicates` lists the files that appear in more than one (the last one is kept).
    public static func mergeSummaries(_ arguments: [String]) throws(SummaryReadError) -> (summary: RunSummary, duplicates: [String]) {
        var parts: [RunSummary] = []
        for argument in arguments { parts.append(try readSummary(argument)) }
        return RunSummary.merge(parts)
    }

    /// Writes `summary` as `directory/summary.json` and `directory/summary.tsv`, atomically.
    public static func writeSummary(_ summary: RunSummary, to directory: String) throws {
        try atomicWrite(summary.jsonValue.serialized(.pretty) + "\n", to: (directory as NSString).appendingPathComponent("summary.json"))
        try atomicWrite(summary.tsv, to: (directory as NSString).appendingPathComponent("summary.tsv"))
    }

    /// Writes `text` to `path` through a temporary file in the same directory and a rename.
    public static func atomicWrite(_ text: String, to path: String) throws { try atomicWrite(Data(text.utf8), to: path) }

    /// Writes `data` to `path` through a temporary file in the same directory and a rename.
    public static func atomicWrite(_ data: Data, to path: String) throws {
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
    public static func removeStalePartials(under root: String) {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = walker.nextObject() as? String {
            if (relative as NSString).lastPathComponent.contains(".partial-") {
                try? FileManager.default.removeItem(atPath: (root as NSString).appendingPathComponent(relative))
            }
        }
    }
}
