/// Segment-based metrics, a faithful re-implementation of `sed_eval.sound_event.SegmentBasedMetrics`.
///
/// Each file is cut into segments of `timeResolution` seconds. An event makes its label active in segments
/// `floor(onset / r) ..< ceil(offset / r)` (the event roll). The file's length in segments is
/// `ceil(evaluatedLength / r)`, where the evaluated length defaults to the larger of the maximum reference
/// offset and the maximum estimated offset (0 for an empty file); rolls are padded or cut to it.
///
/// Counts are of (segment, class) cells. Per segment, overall S = min(Nref, Nsys) − Ntp,
/// D = max(0, Nref − Nsys), I = max(0, Nsys − Nref) are accumulated; ER = (S + D + I) / Nref.
/// Class-wise ER = (Nfn + Nfp) / Nref. Sensitivity, specificity, balanced accuracy and accuracy are
/// reported overall and class-wise.
package struct SegmentBasedMetrics: Sendable {
    /// Labels (classes), in report order (repeats removed). Every event must carry one of them.
    package let labels: [String]
    /// Segment length in seconds.
    package let timeResolution: Double
    /// `sed_eval`'s `empty_system_output_handling='zero_score'`: precision is 0 (not NaN) when Nsys = 0.
    package let zeroScoreOnEmptySystemOutput: Bool

    /// Accumulated overall counts.
    package private(set) var overallCounts = ScoreCounts()
    /// Accumulated counts per label.
    package private(set) var classCounts: [String: ScoreCounts]
    /// Number of files evaluated.
    package private(set) var evaluatedFiles = 0
    /// Sum of the evaluated lengths in seconds.
    package private(set) var evaluatedLength = 0.0
    /// Files evaluated with a given length (the others: up to their last offset).
    private var filesWithGivenLength = 0

    /// Creates empty metrics.
    ///
    /// - Precondition: `timeResolution > 0`.
    package init(labels: [String], timeResolution: Double = 1.0, zeroScoreOnEmptySystemOutput: Bool = false) {
        precondition(timeResolution > 0, "timeResolution must be > 0")
        self.labels = EventBasedMetrics.uniqueLabels(labels)
        self.timeResolution = timeResolution
        self.zeroScoreOnEmptySystemOutput = zeroScoreOnEmptySystemOutput
        self.classCounts = Dictionary(self.labels.map { ($0, ScoreCounts()) }, uniquingKeysWith: { a, _ in a })
    }

    /// The settings in words, for reports.
    package var settingsDescription: String {
        "segment-based, time resolution \(EventBasedMetrics.seconds(timeResolution))"
    }

    /// Scores one file and accumulates the counts.
    ///
    /// - Parameters:
    ///   - reference: reference events of one file.
    ///   - estimated: system events of the same file.
    ///   - evaluatedLength: the file's length in seconds; `nil` uses the maximum offset of both lists (as
    ///     `sed_eval`). Give the real duration so that trailing silence counts as true negatives and
    ///     events past the end are cut.
    /// - Throws: ``ScoringError/multipleFiles(list:files:)`` when a list mixes files,
    ///   ``ScoringError/unknownLabel(label:file:)`` for a label not in `labels` (both as `sed_eval`).
    package mutating func evaluate(
        reference: [ScoredEvent], estimated: [ScoredEvent], evaluatedLength: Double? = nil
    ) throws(ScoringError) {
        for (list, events) in [("reference", reference), ("estimated", estimated)] {
            if let first = events.first?.file, events.contains(where: { $0.file != first }) {
                throw .multipleFiles(list: list, files: Array(Set(events.map(\.file))).sorted())
            }
        }
        let refRoll = try eventRoll(reference)
        let sysRoll = try eventRoll(estimated)
        let length: Double
        if let evaluatedLength {
            length = evaluatedLength
        } else {
            length = max(Self.maxOffset(reference), Self.maxOffset(estimated))
        }
        let segments = Int((length * 1 / timeResolution).rounded(.up))
        self.evaluatedLength += length
        evaluatedFiles += 1
        if evaluatedLength != nil { filesWithGivenLength += 1 }

        let k = labels.count
        func cell(_ roll: [[Bool]], _ s: Int, _ c: Int) -> Bool { s < roll.count && roll[s][c] }
        var perClass = [ScoreCounts](repeating: ScoreCounts(), count: k)
        for s in 0..<max(0, segments) {
            var tp = 0, tn = 0, fp = 0, fn = 0, nRef = 0, nSys = 0
            for c in 0..<k {
                let r = cell(refRoll, s, c), e = cell(sysRoll, s, c)
                if r { nRef += 1; perClass[c].reference += 1 }
                if e { nSys += 1; perClass[c].system += 1 }
                switch (r, e) {
                case (true, true): tp += 1; perClass[c].truePositives += 1
                case (false, false): tn += 1; perClass[c].trueNegatives += 1
                case (false, true): fp += 1; perClass[c].falsePositives += 1
                case (true, false): fn += 1; perClass[c].falseNegatives += 1
                }
            }
            overallCounts += ScoreCounts(
                reference: nRef, system: nSys, truePositives: tp, trueNegatives: tn, falsePositives: fp,
                falseNegatives: fn, substitutions: min(nRef, nSys) - tp, deletions: max(0, nRef - nSys),
                insertions: max(0, nSys - nRef))
        }
        for (c, label) in labels.enumerated() {
            var counts = perClass[c]
            counts.deletions = counts.falseNegatives
            counts.insertions = counts.falsePositives
            classCounts[label]! += counts
        }
    }

    /// Overall, class-wise and class-wise-average results of everything evaluated so far.
    package func results() -> ScoringResults {
        let zero = zeroScoreOnEmptySystemOutput
        var classWise: [String: ScoreSummary] = [:]
        var ordered: [ScoreSummary] = []
        for label in labels {
            let s = SedEvalFormulas.classSummary(classCounts[label]!, zeroScore: zero, withAccuracy: true)
            classWise[label] = s
            ordered.append(s)
        }
        return ScoringResults(
            settings: settingsDescription, evaluatedFiles: evaluatedFiles, evaluatedLength: evaluatedLength,
            overall: SedEvalFormulas.overallSummary(overallCounts, zeroScore: zero, withAccuracy: true),
            labels: labels, classWise: classWise,
            classWiseAverage: SedEvalFormulas.averageSummary(ordered, withAccuracy: true), evaluatedLengthMeaning: evaluatedLengthMeaning)
    }

    /// Forgets all accumulated counts.
    package mutating func reset() {
        overallCounts = ScoreCounts()
        for label in labels { classCounts[label] = ScoreCounts() }
        evaluatedFiles = 0
        evaluatedLength = 0
        filesWithGivenLength = 0
    }

    /// What ``evaluatedLength`` sums, in words.
    var evaluatedLengthMeaning: String {
        let upToLastOffset = "up to its last reference or detected offset, as sed_eval counts it"
        if filesWithGivenLength == 0 { return "each file \(upToLastOffset)" }
        if filesWithGivenLength == evaluatedFiles { return "each file's given length" }
        return "each file's given length, or \(upToLastOffset)"
    }

    /// The binary activity matrix `[segment][class]` of `sed_eval.util.event_list_to_event_roll`,
    /// `ceil(maxOffset / r)` segments long, with numpy slice semantics for the fill.
    private func eventRoll(_ events: [ScoredEvent]) throws(ScoringError) -> [[Bool]] {
        let n = Int((Self.maxOffset(events) * 1 / timeResolution).rounded(.up))
        var roll = [[Bool]](repeating: [Bool](repeating: false, count: labels.count), count: max(0, n))
        for e in events {
            guard let c = labels.firstIndex(of: e.label) else {
                throw .unknownLabel(label: e.label, file: e.file)
            }
            let start = Self.sliceIndex(Int((e.onset * 1 / timeResolution).rounded(.down)), count: roll.count)
            let stop = Self.sliceIndex(Int((e.offset * 1 / timeResolution).rounded(.up)), count: roll.count)
            if start < stop { for s in start..<stop { roll[s][c] = true } }
        }
        return roll
    }

    /// Python slice bound normalisation (negative counts from the end, then clamp to 0...count).
    private static func sliceIndex(_ i: Int, count: Int) -> Int {
        let j = i < 0 ? i + count : i
        return min(max(j, 0), count)
    }

    /// `MetaDataContainer.max_offset`: the largest offset, at least 0.
    static func maxOffset(_ events: [ScoredEvent]) -> Double {
        events.reduce(0.0) { $1.offset > $0 ? $1.offset : $0 }
    }
}
