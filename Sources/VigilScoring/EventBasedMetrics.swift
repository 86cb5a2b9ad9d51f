/// Event-based metrics, a faithful re-implementation of `sed_eval.sound_event.EventBasedMetrics`.
///
/// A system event matches a reference event of the same label when (if `evaluateOnset`)
/// `|ref.onset − sys.onset| ≤ tCollar` and (if `evaluateOffset`)
/// `|ref.offset − sys.offset| ≤ max(tCollar, percentageOfLength × (ref.offset − ref.onset))`.
/// Matching is one-to-one, either maximum bipartite (``EventMatching/optimal``) or greedy.
///
/// Call ``evaluate(reference:estimated:)`` once per file; counts accumulate. Overall (micro) figures come from
/// a matching over all labels; among the events left unmatched, a reference and a system event that would
/// match if labels were ignored count as one substitution (paired greedily, references in order).
/// Overall: Nfp = Nsys − Ntp − S (insertions), Nfn = Nref − Ntp − S (deletions), ER = (S + D + I) / Nref.
/// Class-wise figures come from a separate matching per label and have no substitutions (ER = (D + I) / Nref).
/// The class-wise average is the NaN-ignoring mean over the labels.
package struct EventBasedMetrics: Sendable {
    /// Labels scored class-wise, in report order (repeats removed). Events of other labels still count in the
    /// overall figures, as in `sed_eval`.
    package let labels: [String]
    /// Onset collar (and minimum offset collar) in seconds.
    package let tCollar: Double
    /// Offset collar as a fraction of the reference duration.
    package let percentageOfLength: Double
    /// Whether onsets must fall within the collar.
    package let evaluateOnset: Bool
    /// Whether offsets must fall within the offset collar.
    package let evaluateOffset: Bool
    /// One-to-one matching strategy.
    package let matching: EventMatching
    /// `sed_eval`'s `empty_system_output_handling='zero_score'`: precision is 0 (not NaN) when Nsys = 0.
    package let zeroScoreOnEmptySystemOutput: Bool

    /// Accumulated overall counts.
    package private(set) var overallCounts = ScoreCounts()
    /// Accumulated counts per label.
    package private(set) var classCounts: [String: ScoreCounts]
    /// Number of files evaluated.
    package private(set) var evaluatedFiles = 0
    /// Sum over files of the maximum reference offset, in seconds.
    package private(set) var evaluatedLength = 0.0

    /// Creates empty metrics.
    ///
    /// - Precondition: `tCollar > 0`, `0 ≤ percentageOfLength ≤ 1`, and at least one of `evaluateOnset`,
    ///   `evaluateOffset` (as `sed_eval` requires).
    package init(
        labels: [String], tCollar: Double = 0.2, percentageOfLength: Double = 0.5, evaluateOnset: Bool = true,
        evaluateOffset: Bool = true, matching: EventMatching = .optimal, zeroScoreOnEmptySystemOutput: Bool = false
    ) {
        precondition(tCollar > 0, "tCollar must be > 0")
        precondition((0...1).contains(percentageOfLength), "percentageOfLength must be in [0, 1]")
        precondition(evaluateOnset || evaluateOffset, "evaluateOnset and evaluateOffset cannot both be false")
        self.labels = Self.uniqueLabels(labels)
        self.tCollar = tCollar
        self.percentageOfLength = percentageOfLength
        self.evaluateOnset = evaluateOnset
        self.evaluateOffset = evaluateOffset
        self.matching = matching
        self.zeroScoreOnEmptySystemOutput = zeroScoreOnEmptySystemOutput
        self.classCounts = Dictionary(self.labels.map { ($0, ScoreCounts()) }, uniquingKeysWith: { a, _ in a })
    }

    /// DCASE 2017 task 2 (rare sound events) settings: onset collar 0.5 s, offsets ignored.
    package static func dcase2017(labels: [String], matching: EventMatching = .optimal) -> EventBasedMetrics {
        EventBasedMetrics(labels: labels, tCollar: 0.5, evaluateOnset: true, evaluateOffset: false, matching: matching)
    }

    /// `sed_eval` defaults: onset collar 0.2 s, offsets within max(0.2 s, 50 % of the reference duration).
    package static func sedEvalDefault(labels: [String], matching: EventMatching = .optimal) -> EventBasedMetrics {
        EventBasedMetrics(labels: labels, tCollar: 0.2, percentageOfLength: 0.5, matching: matching)
    }

    /// The settings in words, for reports.
    package var settingsDescription: String {
        var parts: [String] = ["event-based"]
        if evaluateOnset { parts.append("onset collar \(Self.seconds(tCollar))") }
        if evaluateOffset {
            parts.append("offset within max(\(Self.seconds(tCollar)), \(Self.percent(percentageOfLength)) of length)")
        } else {
            parts.append("offsets ignored")
        }
        parts.append("\(matching.rawValue) matching")
        return parts.joined(separator: ", ")
    }

    /// Whether `estimated` matches `reference` in time (labels not considered), per the settings.
    package func timesMatch(reference: ScoredEvent, estimated: ScoredEvent) -> Bool {
        if evaluateOnset && !(abs(reference.onset - estimated.onset) <= tCollar) { return false }
        if evaluateOffset {
            let annotatedLength = reference.offset - reference.onset
            let collar = max(tCollar, percentageOfLength * annotatedLength)
            if !(abs(reference.offset - estimated.offset) <= collar) { return false }
        }
        return true
    }

    /// Scores one file and accumulates the counts.
    ///
    /// - Parameters:
    ///   - reference: reference (ground-truth) events of one file, in annotation order.
    ///   - estimated: system events of the same file.
    /// - Throws: ``ScoringError/multipleFiles(list:files:)`` when a list mixes files (as `sed_eval`).
    package mutating func evaluate(reference: [ScoredEvent], estimated: [ScoredEvent]) throws(ScoringError) {
        try Self.checkSingleFile(reference, list: "reference")
        try Self.checkSingleFile(estimated, list: "estimated")
        evaluatedLength += reference.reduce(0.0) { $1.offset > $0 ? $1.offset : $0 }
        evaluatedFiles += 1

        // Overall, across labels.
        let nRef = reference.count, nSys = estimated.count
        var refCorrect = [Bool](repeating: false, count: nRef)
        var sysCorrect = [Bool](repeating: false, count: nSys)
        var tp = 0
        switch matching {
        case .optimal:
            let pairs = optimalMatching(reference, estimated, requireSameLabel: true)
            for (r, s) in pairs {
                refCorrect[r] = true
                sysCorrect[s] = true
            }
            tp = pairs.count
        case .greedy:
            for j in 0..<nRef {
                for i in 0..<nSys where !sysCorrect[i] {
                    if reference[j].label == estimated[i].label && timesMatch(reference: reference[j], estimated: estimated[i]) {
                        refCorrect[j] = true
                        sysCorrect[i] = true
                        break
                    }
                }
            }
            tp = sysCorrect.lazy.filter { $0 }.count
        }
        var subs = 0
        var sysCounted = [Bool](repeating: false, count: nSys)
        for j in 0..<nRef where !refCorrect[j] {
            for i in 0..<nSys where !sysCorrect[i] && !sysCounted[i] {
                if timesMatch(reference: reference[j], estimated: estimated[i]) {
                    sysCounted[i] = true
                    subs += 1
                    break
                }
            }
        }
        overallCounts += ScoreCounts(
            reference: nRef, system: nSys, truePositives: tp, falsePositives: nSys - tp - subs,
            falseNegatives: nRef - tp - subs, substitutions: subs, deletions: nRef - tp - subs,
            insertions: nSys - tp - subs)

        // Class-wise.
        for label in labels {
            let ref = reference.filter { $0.label == label }
            let sys = estimated.filter { $0.label == label }
            var classTP = 0
            switch matching {
            case .optimal:
                classTP = optimalMatching(ref, sys, requireSameLabel: false).count
            case .greedy:
                var counted = [Bool](repeating: false, count: sys.count)
                for r in ref {
                    for i in sys.indices where !counted[i] && timesMatch(reference: r, estimated: sys[i]) {
                        counted[i] = true
                        classTP += 1
                        break
                    }
                }
            }
            classCounts[label]! += ScoreCounts(
                reference: ref.count, system: sys.count, truePositives: classTP,
                falsePositives: sys.count - classTP, falseNegatives: ref.count - classTP,
                deletions: ref.count - classTP, insertions: sys.count - classTP)
        }
    }

    /// Overall, class-wise and class-wise-average results of everything evaluated so far.
    package func results() -> ScoringResults {
        let zero = zeroScoreOnEmptySystemOutput
        var classWise: [String: ScoreSummary] = [:]
        var ordered: [ScoreSummary] = []
        for label in labels {
            let s = SedEvalFormulas.classSummary(classCounts[label]!, zeroScore: zero, withAccuracy: false)
            classWise[label] = s
            ordered.append(s)
        }
        return ScoringResults(
            settings: settingsDescription, evaluatedFiles: evaluatedFiles, evaluatedLength: evaluatedLength,
            overall: SedEvalFormulas.overallSummary(overallCounts, zeroScore: zero, withAccuracy: false),
            labels: labels, classWise: classWise,
            classWiseAverage: SedEvalFormulas.averageSummary(ordered, withAccuracy: false),
            evaluatedLengthMeaning: "each file up to its last reference offset, as sed_eval counts it")
    }

    /// Forgets all accumulated counts.
    package mutating func reset() {
        overallCounts = ScoreCounts()
        for label in labels { classCounts[label] = ScoreCounts() }
        evaluatedFiles = 0
        evaluatedLength = 0
    }

    /// Labels without repeats, first occurrence kept.
    static func uniqueLabels(_ labels: [String]) -> [String] {
        var seen: Set<String> = []
        return labels.filter { seen.insert($0).inserted }
    }

    /// Maximum matching as `sed_eval` builds it: edges in row-major (reference-major) order,
    /// graph keyed by system event in order of first appearance. Returns (reference, system) index pairs.
    private func optimalMatching(
        _ reference: [ScoredEvent], _ estimated: [ScoredEvent], requireSameLabel: Bool
    ) -> [(Int, Int)] {
        var keys: [Int] = []
        var graph: [Int: [Int]] = [:]
        for j in reference.indices {
            for i in estimated.indices {
                if requireSameLabel && reference[j].label != estimated[i].label { continue }
                guard timesMatch(reference: reference[j], estimated: estimated[i]) else { continue }
                if graph[i] == nil { keys.append(i) }
                graph[i, default: []].append(j)
            }
        }
        let m = BipartiteMatcher.match(keys: keys, graph: graph)
        return m.map { ($0.key, $0.value) }
    }

    private static func checkSingleFile(_ events: [ScoredEvent], list: String) throws(ScoringError) {
        guard let first = events.first?.file else { return }
        if events.contains(where: { $0.file != first }) {
            throw .multipleFiles(list: list, files: Array(Set(events.map(\.file))).sorted())
        }
    }

    static func seconds(_ t: Double) -> String {
        t < 1 ? "\(formatNumber(t * 1000)) ms" : "\(formatNumber(t)) s"
    }

    static func percent(_ p: Double) -> String { "\(formatNumber(p * 100)) %" }

    static func formatNumber(_ x: Double) -> String {
        let r = (x * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : "\(r)"
    }
}
