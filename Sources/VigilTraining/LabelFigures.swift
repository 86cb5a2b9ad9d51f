import VigilScoring

/// An annotated or detected event (DCASE style): the scorer's ``ScoredEvent``.
public typealias LabelEvent = ScoredEvent

/// Class-wise figures of one label, computed by VigilScoring (the sed_eval-exact scorer).
public struct LabelFigures: Sendable, Hashable {
    /// The scorer's counts for the label.
    public var counts: ScoreCounts
    /// Precision (0 when the system output is empty).
    public var precision: Double
    /// Recall (0 when there is no reference).
    public var recall: Double
    /// F1 (0 when undefined).
    public var f1: Double

    /// The class-wise figures of `label` in `results`.
    public init(_ results: ScoringResults, label: String) {
        let summary = results.classWise[label]
        counts = summary?.counts ?? ScoreCounts()
        func finite(_ x: Double?) -> Double { x.map { $0.isFinite ? $0 : 0 } ?? 0 }
        precision = finite(summary?.precision)
        recall = finite(summary?.recall)
        f1 = finite(summary?.fMeasure)
    }

    /// True positives.
    public var truePositives: Int { counts.truePositives }
    /// False positives (insertions).
    public var falsePositives: Int { counts.falsePositives }
    /// False negatives (deletions).
    public var falseNegatives: Int { counts.falseNegatives }
}
