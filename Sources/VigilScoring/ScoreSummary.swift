/// One block of metrics (overall, one class, or the class-wise average), mirroring a `sed_eval` results dict.
///
/// A field is `nil` when `sed_eval` does not report it for this block (e.g. no substitution rate class-wise,
/// no accuracy figures for event-based metrics, no counts for averages). A value is `.nan` where `sed_eval`
/// gives NaN: precision with no system output, recall with no references, and F1 from either.
/// Rates divide by `Nref + ε` with ε = 2.220446049250313e-16 (`numpy.spacing(1)`), exactly as `sed_eval`,
/// so insertions with no references give a huge finite rate rather than infinity.
package struct ScoreSummary: Sendable, Equatable {
    /// Counts behind the figures; `nil` for class-wise averages.
    package var counts: ScoreCounts?
    /// Precision Ntp / Nsys.
    package var precision: Double?
    /// Recall Ntp / Nref.
    package var recall: Double?
    /// F1 = 2PR / (P + R); 0 when P = R = 0.
    package var fMeasure: Double?
    /// ER = S + D + I rates.
    package var errorRate: Double?
    /// S / Nref (overall only).
    package var substitutionRate: Double?
    /// D / Nref.
    package var deletionRate: Double?
    /// I / Nref.
    package var insertionRate: Double?
    /// Ntp / (Ntp + Nfn + ε) (segment-based only).
    package var sensitivity: Double?
    /// Ntn / (Ntn + Nfp + ε) (segment-based only).
    package var specificity: Double?
    /// (sensitivity + specificity) / 2 (segment-based only).
    package var balancedAccuracy: Double?
    /// (Ntp + Ntn) / (Ntp + Ntn + Nfp + Nfn + ε) (segment-based only).
    package var accuracy: Double?

    /// Creates a summary; unspecified fields are `nil`.
    package init(
        counts: ScoreCounts? = nil, precision: Double? = nil, recall: Double? = nil, fMeasure: Double? = nil,
        errorRate: Double? = nil, substitutionRate: Double? = nil, deletionRate: Double? = nil,
        insertionRate: Double? = nil, sensitivity: Double? = nil, specificity: Double? = nil,
        balancedAccuracy: Double? = nil, accuracy: Double? = nil
    ) {
        self.counts = counts
        self.precision = precision
        self.recall = recall
        self.fMeasure = fMeasure
        self.errorRate = errorRate
        self.substitutionRate = substitutionRate
        self.deletionRate = deletionRate
        self.insertionRate = insertionRate
        self.sensitivity = sensitivity
        self.specificity = specificity
        self.balancedAccuracy = balancedAccuracy
        self.accuracy = accuracy
    }

    /// All reported metric values keyed by their `sed_eval` names (`f_measure`, `precision`, `recall`,
    /// `error_rate`, `substitution_rate`, `deletion_rate`, `insertion_rate`, `sensitivity`, `specificity`,
    /// `balanced_accuracy`, `accuracy`); absent fields are left out.
    package var sedEvalValues: [String: Double] {
        var d: [String: Double] = [:]
        let pairs: [(String, Double?)] = [
            ("f_measure", fMeasure), ("precision", precision), ("recall", recall), ("error_rate", errorRate),
            ("substitution_rate", substitutionRate), ("deletion_rate", deletionRate),
            ("insertion_rate", insertionRate), ("sensitivity", sensitivity), ("specificity", specificity),
            ("balanced_accuracy", balancedAccuracy), ("accuracy", accuracy),
        ]
        for (k, v) in pairs { if let v { d[k] = v } }
        return d
    }
}
