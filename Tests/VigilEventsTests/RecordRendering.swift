import VigilCore
import VigilEvents

/// Compact, exact text forms of engine records so that test tables stay readable.
///
/// - `event#1 motion z1 0..15 @0 c1 n2 none`
/// - `event#2 glassBreak z- 4.5..5.5 @5 c0.8 clip#1 1..15 peakTime=5`
/// - `started#3 sound z- 1.9.. @2 range 1.9..` (an event start; ebr: `clip#1 0..`)
/// - `triggered z1 motion @0`, `stopped z1 motion @15 actionStopped`
/// - `suppressed motion z1 @11 triggers.blindDuration event`
enum RecordRendering {
    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e12 { return String(Int(value)) }
        return "\(value)"
    }

    static func zone(_ zone: UInt16?) -> String { zone.map { "z\($0)" } ?? "z-" }

    static func media(_ media: EventMedia?) -> String {
        switch media {
        case nil: return "none"
        case .range(let start, let end)?: return "range \(number(start))..\(number(end))"
        case .clip(let id, let start, let end)?: return "clip#\(id) \(number(start))..\(number(end))"
        case .snapshot(let time, let index)?: return "snap#\(index) @\(number(time))"
        }
    }

    static func evidence(_ value: EvidenceValue) -> String {
        switch value {
        case .int(let int): return String(int)
        case .number(let double): return number(double)
        case .string(let string): return string
        case .numbers(let list): return "[" + list.map(number).joined(separator: ",") + "]"
        }
    }

    static func render(_ record: EngineRecord) -> String {
        switch record {
        case .event(let event):
            var text =
                "event#\(event.id) \(event.trigger.rawValue) \(zone(event.zone)) "
                + "\(number(event.start))..\(number(event.end)) @\(number(event.detectedAt)) c\(number(event.confidence))"
            if case .int(let count)? = event.evidence["detections"] { text += " n\(count)" }
            text += " " + media(event.media)
            for key in event.evidence.keys.sorted() where key != "detections" {
                text += " \(key)=\(evidence(event.evidence[key]!))"
            }
            return text
        case .eventStarted(let started):
            let media: String
            switch started.media {
            case nil: media = "none"
            case .range(let start)?: media = "range \(number(start)).."
            case .clip(let id, let start, let end)?: media = "clip#\(id) \(number(start))..\(end.map(number) ?? "")"
            case .snapshot(let time, let index)?: media = "snap#\(index) @\(number(time))"
            }
            return "started#\(started.id) \(started.trigger.rawValue) \(zone(started.zone)) "
                + "\(number(started.start)).. @\(number(started.detectedAt)) \(media)"
        case .zoneTriggered(let record):
            return "triggered \(zone(record.zone)) \(record.trigger.rawValue) @\(number(record.time))"
        case .zoneStopped(let record):
            return "stopped \(zone(record.zone)) \(record.trigger.rawValue) @\(number(record.time)) \(record.reasonName)"
        case .suppressed(let suppression):
            return "suppressed \(suppression.trigger.rawValue) \(zone(suppression.zone)) @\(number(suppression.time)) "
                + "\(suppression.rule.name) \(suppression.scope.rawValue)"
        }
    }
}
