import VigilCore
import VigilEvents

/// Turns analysis records into the project's output formats: JSON Lines (schema version
/// ``schemaVersion``, documented in docs/output-schema.md), DCASE-style TSV, and a table for
/// people. Pure and deterministic: times are rounded to milliseconds, evidence keys sorted.
public enum RecordEncoder {
    /// The JSON Lines schema version, written as `"v"` on every line.
    public static let schemaVersion = 1

    /// Rounds `x` to `places` decimals so that output is stable and compact.
    public static func rounded(_ x: Double, places: Int = 3) -> JSONValue {
        guard x.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .number((x * scale).rounded() / scale)
    }

    /// The JSON object for one record.
    public static func json(_ record: AnalysisRecord) -> JSONValue {
        var members: [(String, JSONValue)] = [("v", .number(Double(schemaVersion))), ("type", .string(record.typeName))]
        members.append(("file", .string(record.file)))
        switch record.content {
        case .engine(.event(let event)):
            members.append(("id", .number(Double(event.id))))
            members.append(("trigger", .string(event.trigger.rawValue)))
            members.append(("start", rounded(event.start)))
            members.append(("end", rounded(event.end)))
            members.append(("detectedAt", rounded(event.detectedAt)))
            members.append(("confidence", rounded(event.confidence)))
            if let zone = event.zone { members.append(("zone", .number(Double(zone)))) }
            switch event.media {
            case .range(let start, let end)?:
                members.append(("clip", .object(JSONObject([("kind", "range"), ("start", rounded(start)), ("end", rounded(end))]))))
            case .clip(let id, let start, let end)?:
                members.append(
                    (
                        "clip",
                        .object(
                            JSONObject([("kind", "clip"), ("id", .number(Double(id))), ("start", rounded(start)), ("end", rounded(end))]))
                    ))
            case .snapshot(let time, let index)?:
                members.append(("snapshot", .object(JSONObject([("index", .number(Double(index))), ("time", rounded(time))]))))
            case nil:
                break
            }
            if !event.evidence.isEmpty { members.append(("evidence", evidence(event.evidence))) }
        case .engine(.eventStarted(let started)):
            members.append(("id", .number(Double(started.id))))
            members.append(("trigger", .string(started.trigger.rawValue)))
            members.append(("start", rounded(started.start)))
            members.append(("detectedAt", rounded(started.detectedAt)))
            members.append(("confidence", rounded(started.confidence)))
            if let zone = started.zone { members.append(("zone", .number(Double(zone)))) }
            switch started.media {
            case .range(let start)?:
                members.append(("clip", .object(JSONObject([("kind", "range"), ("start", rounded(start))]))))
            case .clip(let id, let start, let end)?:
                var clip: [(String, JSONValue)] = [("kind", "clip"), ("id", .number(Double(id))), ("start", rounded(start))]
                if let end { clip.append(("end", rounded(end))) }
                members.append(("clip", .object(JSONObject(clip))))
            case .snapshot(let time, let index)?:
                members.append(("snapshot", .object(JSONObject([("index", .number(Double(index))), ("time", rounded(time))]))))
            case nil:
                break
            }
            if !started.evidence.isEmpty { members.append(("evidence", evidence(started.evidence))) }
        case .engine(.zoneTriggered(let z)), .engine(.zoneStopped(let z)):
            members.append(("zone", .number(Double(z.zone))))
            members.append(("trigger", .string(z.trigger.rawValue)))
            members.append(("time", rounded(z.time)))
            members.append(("reason", .string(z.reasonName)))
            if z.stopReason != nil { members.append(("activationStart", rounded(z.activationStart))) }
        case .engine(.suppressed(let s)):
            members.append(("trigger", .string(s.trigger.rawValue)))
            if let zone = s.zone { members.append(("zone", .number(Double(zone)))) }
            members.append(("time", rounded(s.time)))
            members.append(("end", rounded(s.end)))
            members.append(("count", .number(Double(s.count))))
            members.append(("scope", .string(s.scope.rawValue)))
            members.append(("rule", .string(s.rule.name)))
            members.append(("reason", .string(s.reason)))
        case .warning(let message):
            members.append(("message", .string(message)))
        case .error(let kind, let message):
            members.append(("kind", .string(kind)))
            members.append(("message", .string(message)))
        }
        return .object(JSONObject(members))
    }

    /// Evidence as a JSON object with sorted keys.
    public static func evidence(_ evidence: [String: EvidenceValue]) -> JSONValue {
        .object(
            JSONObject(
                evidence.keys.sorted().map { key in
                    let value: JSONValue
                    switch evidence[key]! {
                    case .int(let i): value = .number(Double(i))
                    case .number(let d): value = rounded(d, places: 4)
                    case .string(let s): value = .string(s)
                    case .numbers(let xs): value = .array(xs.map { rounded($0, places: 4) })
                    }
                    return (key, value)
                }))
    }

    /// One JSON Lines line (no trailing newline).
    public static func jsonLine(_ record: AnalysisRecord) -> String { json(record).serialized(.compact) }

    /// One TSV line `file<TAB>onset<TAB>offset<TAB>label` for an event record; nil for other records.
    public static func tsvLine(_ record: AnalysisRecord) -> String? { tsvLine(json(record)) }

    /// One TSV line for an event record in its JSON form (as written to events.jsonl); nil otherwise.
    public static func tsvLine(_ record: JSONValue) -> String? {
        guard record["type"]?.stringValue == "event", let file = record["file"]?.stringValue,
            let start = record["start"]?.doubleValue, let end = record["end"]?.doubleValue,
            let trigger = record["trigger"]?.stringValue
        else { return nil }
        return "\(file)\t\(fixed(start))\t\(fixed(end))\t\(trigger)"
    }

    /// `x` with exactly `places` decimals.
    public static func fixed(_ x: Double, places: Int = 3) -> String { DecimalText.fixed(x, places: places) }

    /// A human-readable table of `records`: events and zone records in the given order, then
    /// suppressed candidates (when present), warnings and errors.
    public static func table(_ records: [AnalysisRecord]) -> String { table(records.map(json)) }

    /// The table for records in their JSON form (as written to events.jsonl).
    public static func table(_ records: [JSONValue]) -> String {
        var rows: [[String]] = [["FILE", "TRIGGER", "START", "END", "DETECTED", "CONF", "ZONE", "MEDIA"]]
        var suppressed: [[String]] = [["FILE", "TRIGGER", "TIME", "ZONE", "COUNT", "RULE", "REASON"]]
        var notes: [String] = []
        func number(_ r: JSONValue, _ key: String, _ places: Int = 3) -> String {
            r[key]?.doubleValue.map { fixed($0, places: places) } ?? ""
        }
        func zone(_ r: JSONValue) -> String { r["zone"]?.intValue.map(String.init) ?? "-" }
        for r in records {
            let file = r["file"]?.stringValue ?? ""
            switch r["type"]?.stringValue {
            case "event":
                rows.append([
                    file, r["trigger"]?.stringValue ?? "", number(r, "start"), number(r, "end"), number(r, "detectedAt"),
                    number(r, "confidence", 2), zone(r), mediaText(r),
                ])
            case "zoneTriggered", "zoneStopped":
                rows.append([
                    file, r["type"]?.stringValue ?? "", number(r, "time"), "", "", "", zone(r),
                    "\(r["trigger"]?.stringValue ?? ""), \(r["reason"]?.stringValue ?? "")",
                ])
            case "suppressed":
                suppressed.append([
                    file, (r["trigger"]?.stringValue ?? "") + (r["scope"]?.stringValue.map { $0 == "event" ? "" : " (\($0))" } ?? ""),
                    timeRange(r), zone(r), r["count"]?.intValue.map(String.init) ?? "1", r["rule"]?.stringValue ?? "",
                    r["reason"]?.stringValue ?? "",
                ])
            case "warning": notes.append("warning: \(file): \(r["message"]?.stringValue ?? "")")
            case "error": notes.append("error: \(r["message"]?.stringValue ?? "")")
            default: break
            }
        }
        var out = rows.count > 1 ? render(rows) : "no events\n"
        if suppressed.count > 1 { out += "\nsuppressed candidates (--explain):\n" + render(suppressed) }
        if !notes.isEmpty { out += "\n" + notes.joined(separator: "\n") + "\n" }
        return out
    }

    /// A suppression's time, or `first-last` for a group of detections.
    private static func timeRange(_ r: JSONValue) -> String {
        guard let time = r["time"]?.doubleValue else { return "" }
        guard let end = r["end"]?.doubleValue, end != time else { return fixed(time) }
        return "\(fixed(time))-\(fixed(end))"
    }

    private static func mediaText(_ r: JSONValue) -> String {
        if let clip = r["clip"], let start = clip["start"]?.doubleValue, let end = clip["end"]?.doubleValue {
            if let id = clip["id"]?.intValue { return "clip #\(id) \(fixed(start))-\(fixed(end))" }
            return "range \(fixed(start))-\(fixed(end))"
        }
        if let snapshot = r["snapshot"], let index = snapshot["index"]?.intValue, let time = snapshot["time"]?.doubleValue {
            return "snapshot #\(index) @\(fixed(time))"
        }
        return "-"
    }

    private static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        let numeric: Set<Int> =
            rows.first == ["FILE", "TRIGGER", "START", "END", "DETECTED", "CONF", "ZONE", "MEDIA"] ? [2, 3, 4, 5] : [2, 4]
        return rows.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == row.count - 1 ? cell : (numeric.contains(i) ? pad + cell : cell + pad)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
