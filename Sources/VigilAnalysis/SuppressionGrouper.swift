import VigilCore
import VigilEvents

/// Makes `--explain` output readable on video: the engine suppresses vision detections one per
/// frame, so consecutive suppressed detections of the same trigger, zone, rule and reason (the
/// reason names the blind period, so each period is its own group), at most ``maximumGap``
/// seconds apart, become one suppression with the first time, the last time (`end`) and the
/// count. Sound suppressions (one per detected sound) and clip suppressions stay as they are.
/// Pure: the records keep their order, a group standing where its first detection stood.
public enum SuppressionGrouper {
    /// A pause longer than this (seconds) between two suppressed detections starts a new group,
    /// so separate activities stay separate rows (frames of one activity are 1 / fps apart).
    public static let maximumGap = 2.0

    private struct Key: Hashable {
        var trigger: EventTriggerType
        var zone: UInt16?
        var rule: SuppressionRule
        var reason: String
    }

    /// `records` with consecutive suppressed vision detections grouped.
    public static func grouped(_ records: [EngineRecord]) -> [EngineRecord] {
        var out: [EngineRecord] = []
        var open: [Key: Int] = [:]
        for record in records {
            guard case .suppressed(let suppression) = record, suppression.trigger.isVision, suppression.scope == .event else {
                out.append(record)
                continue
            }
            let key = Key(trigger: suppression.trigger, zone: suppression.zone, rule: suppression.rule, reason: suppression.reason)
            if let index = open[key], case .suppressed(var group) = out[index], suppression.time - group.end <= maximumGap {
                group.end = max(group.end, suppression.end)
                group.count += suppression.count
                out[index] = .suppressed(group)
                continue
            }
            open[key] = out.count
            out.append(record)
        }
        return out
    }
}
