import VigilScoring

/// An annotated or detected event (DCASE style): the scorer's ``ScoredEvent``.
package typealias LabelEvent = ScoredEvent

/// Class-wise figures of one label, computed by VigilScoring (the sed_eval-exact scorer).
package struct LabelFigures: Sendable, Hashable {
    /// The scorer's counts for the label.
    package var counts: ScoreCounts
    /// Precision (0 when the system output is empty).
    package var precision: Double
    /// Recall (0 when there is no reference).
    package var recall: Double
    /// F1 (0 when undefined).
    package var f1: Double

    /// The class-wise figures of `label` in `results`.
    package init(_ results: ScoringResults, label: String) {
        let summary = results.classWise[label]
        counts = summary?.counts ?? ScoreCounts()
        func finite(_ x: Double?) -> Double { x.map { $0.isFinite ? $0 : 0 } ?? 0 }
        precision = finite(summary?.precision)
        recall = finite(summary?.recall)
        f1 = finite(summary?.fMeasure)
    }

    /// True positives.
    package var truePositives: Int { counts.truePositives }
    /// False positives (insertions).
    package var falsePositives: Int { counts.falsePositives }
    /// False negatives (deletions).
    package var falseNegatives: Int { counts.falseNegatives }
}
