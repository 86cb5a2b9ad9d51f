/// One annotated or detected event (DCASE style).
public struct LabelEvent: Sendable, Hashable {
    /// File name.
    public var file: String
    /// Onset (seconds).
    public var onset: Double
    /// Offset (seconds).
    public var offset: Double
    /// Label (trigger name).
    public var label: String
    /// Creates an event.
    public init(file: String, onset: Double, offset: Double, label: String) {
        self.file = file
        self.onset = onset
        self.offset = offset
        self.label = label
    }
}

/// Counts and F1 of a scoring run.
public struct DetectionCounts: Sendable, Hashable {
    /// True positives.
    public var truePositives = 0
    /// False positives (insertions).
    public var falsePositives = 0
    /// False negatives (deletions).
    public var falseNegatives = 0
    /// Creates zero counts.
    public init() {}
    /// Precision.
    public var precision: Double { truePositives + falsePositives == 0 ? 0 : Double(truePositives) / Double(truePositives + falsePositives) }
    /// Recall.
    public var recall: Double { truePositives + falseNegatives == 0 ? 0 : Double(truePositives) / Double(truePositives + falseNegatives) }
    /// F1 = 2TP / (2TP + FP + FN).
    public var f1: Double {
        let d = 2 * truePositives + falsePositives + falseNegatives
        return d == 0 ? 1 : Double(2 * truePositives) / Double(d)
    }
}

/// A small sed_eval-compatible scorer used until the project's VigilScoring module is merged:
/// event-based (onset collar, offsets ignored, optimal one-to-one matching) and segment-based
/// (fixed segments; a segment is active when an event overlaps it).
public enum EventScoring {
    /// Event-based counts for one label; `reference` and `estimated` may span several files.
    public static func eventBased(reference: [LabelEvent], estimated: [LabelEvent], collar: Double = 0.5) -> DetectionCounts {
        var counts = DetectionCounts()
        let files = Set(reference.map(\.file)).union(estimated.map(\.file))
        for file in files.sorted() {
            let ref = reference.filter { $0.file == file }
            let est = estimated.filter { $0.file == file }
            let matched = maximumMatching(ref.count, est.count) { abs(ref[$0].onset - est[$1].onset) <= collar }
            counts.truePositives += matched
            counts.falseNegatives += ref.count - matched
            counts.falsePositives += est.count - matched
        }
        return counts
    }

    /// Segment-based counts for one label with `segment`-second segments; `durations` gives each
    /// file's length (files without events still count their segments as negatives).
    public static func segmentBased(
        reference: [LabelEvent], estimated: [LabelEvent], durations: [String: Double], segment: Double = 1
    ) -> DetectionCounts {
        var counts = DetectionCounts()
        let files = Set(durations.keys).union(reference.map(\.file)).union(estimated.map(\.file))
        for file in files.sorted() {
            let ref = reference.filter { $0.file == file }
            let est = estimated.filter { $0.file == file }
            let end = max(durations[file] ?? 0, (ref + est).map(\.offset).max() ?? 0)
            let n = Int((end / segment).rounded(.up))
            guard n > 0 else { continue }
            func roll(_ events: [LabelEvent]) -> [Bool] {
                var r = [Bool](repeating: false, count: n)
                for e in events {
                    let a = max(0, Int((e.onset / segment).rounded(.down)))
                    let b = min(n, Int((e.offset / segment).rounded(.up)))
                    if a < b { for i in a..<b { r[i] = true } }
                }
                return r
            }
            let r = roll(ref)
            let s = roll(est)
            for i in 0..<n {
                if r[i] && s[i] { counts.truePositives += 1 } else if r[i] { counts.falseNegatives += 1 } else if s[i] {
                    counts.falsePositives += 1
                }
            }
        }
        return counts
    }

    /// Size of a maximum bipartite matching (augmenting paths).
    static func maximumMatching(_ left: Int, _ right: Int, _ edge: (Int, Int) -> Bool) -> Int {
        var matchOfRight = [Int](repeating: -1, count: right)
        var adjacency = [[Int]](repeating: [], count: left)
        for i in 0..<left { for j in 0..<right where edge(i, j) { adjacency[i].append(j) } }
        func augment(_ i: Int, _ seen: inout [Bool]) -> Bool {
            for j in adjacency[i] where !seen[j] {
                seen[j] = true
                if matchOfRight[j] < 0 || augment(matchOfRight[j], &seen) {
                    matchOfRight[j] = i
                    return true
                }
            }
            return false
        }
        var total = 0
        for i in 0..<left {
            var seen = [Bool](repeating: false, count: right)
            if augment(i, &seen) { total += 1 }
        }
        return total
    }
}
