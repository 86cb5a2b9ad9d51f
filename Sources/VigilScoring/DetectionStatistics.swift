/// Figures the project reports besides `sed_eval`'s: false alarms per hour on negative material and
/// detection latency. Not part of `sed_eval`.
package enum DetectionStatistics {
    /// False alarms of `label` per hour of negative material.
    ///
    /// - Parameters:
    ///   - label: the label to count.
    ///   - estimated: system events of any files and labels; only `label` is used.
    ///   - fileDurations: duration in seconds of every evaluated file, keyed by file name. Detections on files
    ///     not listed are ignored.
    ///   - reference: reference events of any files and labels.
    ///   - negativeMaterial: ``FalseAlarmRate/NegativeMaterial/negativeFiles`` (default: whole files without
    ///     a reference of `label`) or ``FalseAlarmRate/NegativeMaterial/negativeTime`` (time outside the
    ///     references of `label`, clipped to the file).
    ///   - notCounted: regions that do not count against `label` (``VoiceBackground``): detections
    ///     there that overlap no reference are not false alarms, and the regions are not negative time.
    package static func falseAlarmsPerHour(
        label: String, estimated: [ScoredEvent], fileDurations: [String: Double], reference: [ScoredEvent],
        negativeMaterial: FalseAlarmRate.NegativeMaterial = .negativeFiles, notCounted: VoiceBackground = .none
    ) -> FalseAlarmRate {
        var refsByFile: [String: [ScoredEvent]] = [:]
        for r in reference where r.label == label { refsByFile[r.file, default: []].append(r) }
        var detsByFile: [String: [ScoredEvent]] = [:]
        for e in notCounted.counted(estimated.filter { $0.label == label }, reference: reference) {
            detsByFile[e.file, default: []].append(e)
        }

        var alarms = 0, files = 0
        var seconds = 0.0
        for file in fileDurations.keys.sorted() {
            let duration = fileDurations[file]!
            let refs = refsByFile[file] ?? []
            let dets = detsByFile[file] ?? []
            switch negativeMaterial {
            case .negativeFiles:
                guard refs.isEmpty else { continue }
                let negative = max(0, duration - notCounted.coveredSeconds(file: file, duration: duration))
                alarms += dets.count
                seconds += negative
                if negative > 0 { files += 1 }
            case .negativeTime:
                let covered = unionLength(
                    refs.map { (max(0, $0.onset), min(duration, $0.offset)) }
                        + (notCounted.regions[file] ?? []).map { (max(0, $0.lowerBound), min(duration, $0.upperBound)) })
                let negative = max(0, duration - covered)
                if negative > 0 { files += 1 }
                seconds += negative
                alarms += dets.filter { d in !refs.contains { overlaps(d, $0, collar: 0) } }.count
            }
        }
        return FalseAlarmRate(label: label, falseAlarms: alarms, negativeSeconds: seconds, negativeFiles: files)
    }

    /// For each reference event of `label`, the first detection of the same label and file that overlaps it.
    ///
    /// A detection overlaps a reference when `detection.onset < reference.offset + collar` and
    /// `detection.offset > reference.onset − collar`; among those the one with the earliest onset is taken
    /// (ties: first in `estimated`). Latency is measured from the reference onset to that detection's onset,
    /// so it is the time the detector's output says the sound started, not the time it was confirmed; a caller
    /// with confirmation times can pass detections whose onset is the confirmation time.
    ///
    /// - Returns: one record per reference event of `label`, in `reference` order.
    package static func detectionLatencies(
        reference: [ScoredEvent], estimated: [ScoredEvent], label: String, collar: Double = 0
    ) -> [DetectionLatency] {
        var detsByFile: [String: [ScoredEvent]] = [:]
        for e in estimated where e.label == label { detsByFile[e.file, default: []].append(e) }
        return reference.filter { $0.label == label }.map { r in
            var best: ScoredEvent?
            for d in detsByFile[r.file] ?? [] where overlaps(d, r, collar: collar) {
                if best == nil || d.onset < best!.onset { best = d }
            }
            return DetectionLatency(reference: r, detection: best)
        }
    }

    private static func overlaps(_ d: ScoredEvent, _ r: ScoredEvent, collar: Double) -> Bool {
        d.onset < r.offset + collar && d.offset > r.onset - collar
    }

    /// Total length of the union of intervals.
    private static func unionLength(_ intervals: [(Double, Double)]) -> Double {
        var total = 0.0
        var current: (Double, Double)?
        for (a, b) in intervals.filter({ $0.1 > $0.0 }).sorted(by: { $0.0 < $1.0 }) {
            if let c = current, a <= c.1 {
                current = (c.0, max(c.1, b))
            } else {
                if let c = current { total += c.1 - c.0 }
                current = (a, b)
            }
        }
        if let c = current { total += c.1 - c.0 }
        return total
    }
}
