import VigilCore

/// What one recording produced: the line `summary.json` and `summary.tsv` keep per recording.
public struct RecordingSummary: Sendable, Hashable {
    /// The recording's reported name.
    public var file: String
    /// Whether the recording failed (fully or partly).
    public var failed: Bool
    /// Milliseconds of media analyzed: the exact unit summaries store and add. Integer totals do not
    /// depend on the order of addition, and the value reads back from `summary.json` or `done.json`
    /// unchanged, so fresh, resumed and merged runs give the same totals.
    public var mediaMilliseconds: Int64
    /// Seconds of media analyzed (`mediaMilliseconds` / 1000).
    public var mediaSeconds: Double { Double(mediaMilliseconds) / 1000 }
    /// Events per trigger name.
    public var events: [String: Int]
    /// Error messages.
    public var errors: [String]
    /// Warning messages.
    public var warnings: [String]

    /// Creates a summary; `mediaSeconds` is kept to the nearest millisecond.
    public init(file: String, failed: Bool, mediaSeconds: Double, events: [String: Int], errors: [String], warnings: [String]) {
        self.file = file
        self.failed = failed
        self.mediaMilliseconds = Self.milliseconds(mediaSeconds)
        self.events = events
        self.errors = errors
        self.warnings = warnings
    }

    /// The summary of `records` (records of one recording).
    public init(file: String, mediaSeconds: Double, records: [AnalysisRecord]) {
        var events: [String: Int] = [:]
        var errors: [String] = []
        var warnings: [String] = []
        for r in records {
            switch r.content {
            case .engine(.event(let e)): events[e.trigger.rawValue, default: 0] += 1
            case .error(_, let message): errors.append(message)
            case .warning(let message): warnings.append(message)
            default: break
            }
        }
        self.init(file: file, failed: !errors.isEmpty, mediaSeconds: mediaSeconds, events: events, errors: errors, warnings: warnings)
    }

    /// `seconds` to the nearest millisecond (0 for negative or non-finite values).
    public static func milliseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int64((seconds * 1000).rounded())
    }

    /// Total events.
    public var eventCount: Int { events.values.reduce(0, +) }

    /// JSON form (keys in a fixed order, triggers sorted).
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("file", .string(file)), ("status", .string(failed ? "failed" : "ok")),
                ("mediaSeconds", .number(mediaSeconds)), ("events", .number(Double(eventCount))),
                ("byTrigger", .object(JSONObject(events.keys.sorted().map { ($0, .number(Double(events[$0]!))) }))),
                ("errors", .array(errors.map { .string($0) })), ("warnings", .array(warnings.map { .string($0) })),
            ]))
    }

    /// Reads the JSON form back.
    public init?(json: JSONValue) {
        guard let file = json["file"]?.stringValue, let status = json["status"]?.stringValue,
            let seconds = json["mediaSeconds"]?.doubleValue, let byTrigger = json["byTrigger"]?.objectValue
        else { return nil }
        var events: [String: Int] = [:]
        for member in byTrigger { events[member.key] = member.value.intValue ?? 0 }
        self.init(
            file: file, failed: status != "ok", mediaSeconds: seconds, events: events,
            errors: json["errors"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            warnings: json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

/// The summary of a whole run (`summary.json`, `summary.tsv`): one entry per recording, sorted by
/// name, and totals. It holds nothing that depends on the wall clock or the number of jobs, so the
/// same inputs give the same summary, and the summaries of shards merge into that of the whole.
public struct RunSummary: Sendable, Hashable {
    /// Per-recording entries, sorted by file name.
    public private(set) var recordings: [RecordingSummary]

    /// Creates a summary; entries are sorted by file, and a later entry for the same file replaces an earlier one.
    public init(_ recordings: [RecordingSummary]) {
        var byFile: [String: RecordingSummary] = [:]
        for r in recordings { byFile[r.file] = r }
        self.recordings = byFile.keys.sorted().map { byFile[$0]! }
    }

    /// The merge of several summaries (shards): the union of their recordings.
    /// - Returns: the merged summary and the files that appeared in more than one input (the last wins).
    public static func merge(_ parts: [RunSummary]) -> (summary: RunSummary, duplicates: [String]) {
        var seen: Set<String> = []
        var duplicates: Set<String> = []
        for part in parts { for r in part.recordings where !seen.insert(r.file).inserted { duplicates.insert(r.file) } }
        return (RunSummary(parts.flatMap(\.recordings)), duplicates.sorted())
    }

    /// Recordings that failed.
    public var failedCount: Int { recordings.filter(\.failed).count }
    /// Milliseconds of media analyzed, summed exactly.
    public var mediaMilliseconds: Int64 { recordings.reduce(0) { $0 + $1.mediaMilliseconds } }
    /// Seconds of media analyzed.
    public var mediaSeconds: Double { Double(mediaMilliseconds) / 1000 }
    /// Events per trigger over all recordings.
    public var eventsByTrigger: [String: Int] {
        recordings.reduce(into: [:]) { total, r in for (k, v) in r.events { total[k, default: 0] += v } }
    }

    /// `summary.json`.
    public var jsonValue: JSONValue {
        let byTrigger = eventsByTrigger
        return .object(
            JSONObject([
                ("v", .number(Double(RecordEncoder.schemaVersion))), ("recordings", .number(Double(recordings.count))),
                ("failed", .number(Double(failedCount))), ("mediaSeconds", .number(mediaSeconds)),
                ("events", .number(Double(byTrigger.values.reduce(0, +)))),
                ("byTrigger", .object(JSONObject(byTrigger.keys.sorted().map { ($0, .number(Double(byTrigger[$0]!))) }))),
                ("files", .array(recordings.map(\.jsonValue))),
            ]))
    }

    /// Reads `summary.json` back.
    public init?(json: JSONValue) {
        guard let files = json["files"]?.arrayValue else { return nil }
        var entries: [RecordingSummary] = []
        for f in files {
            guard let entry = RecordingSummary(json: f) else { return nil }
            entries.append(entry)
        }
        self.init(entries)
    }

    /// `summary.tsv`: a header, then `file, status, mediaSeconds, events` and one column per trigger seen.
    public var tsv: String {
        let triggers = eventsByTrigger.keys.sorted()
        var out = (["file", "status", "mediaSeconds", "events"] + triggers).joined(separator: "\t") + "\n"
        for r in recordings {
            let cells =
                [r.file, r.failed ? "failed" : "ok", RecordEncoder.fixed(r.mediaSeconds), String(r.eventCount)]
                + triggers.map { String(r.events[$0] ?? 0) }
            out += cells.joined(separator: "\t") + "\n"
        }
        return out
    }
}
