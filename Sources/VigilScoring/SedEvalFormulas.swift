/// The metric formulas of `sed_eval.metric`, reproduced operation for operation so that results agree
/// bit for bit where possible.
enum SedEvalFormulas {
    /// `numpy.spacing(1)`.
    static let eps = 2.220446049250313e-16

    static func precision(tp: Int, sys: Int) -> Double {
        sys == 0 ? .nan : Double(tp) / Double(sys)
    }

    static func recall(tp: Int, ref: Int) -> Double {
        ref == 0 ? .nan : Double(tp) / Double(ref)
    }

    static func fMeasure(precision: Double, recall: Double) -> Double {
        if precision == 0 && recall == 0 { return 0 }
        return 2.0 * precision * recall / (1.0 * precision + recall)
    }

    /// Substitution, deletion and insertion rates all use this form.
    static func rate(_ n: Int, ref: Int) -> Double {
        Double(n) / (Double(ref) + eps)
    }

    static func sensitivity(tp: Int, fn: Int) -> Double {
        Double(tp) / (Double(tp + fn) + eps)
    }

    static func specificity(tn: Int, fp: Int) -> Double {
        Double(tn) / (Double(tn + fp) + eps)
    }

    static func balancedAccuracy(sensitivity: Double, specificity: Double, factor: Double = 0.5) -> Double {
        (1 - factor) * sensitivity + factor * specificity
    }

    static func accuracy(tp: Int, tn: Int, fp: Int, fn: Int) -> Double {
        Double(tp + tn) / (Double(tp + tn + fn + fp) + eps)
    }

    /// `numpy.nanmean`: mean of the non-NaN values, NaN when there are none.
    static func nanMean(_ values: [Double]) -> Double {
        var sum = 0.0
        var n = 0
        for v in values where !v.isNaN {
            sum += v
            n += 1
        }
        return n == 0 ? .nan : sum / Double(n)
    }

    /// Precision, recall and F1 from counts, honouring `zeroScoreOnEmptySystemOutput`.
    static func fScores(_ c: ScoreCounts, zeroScoreOnEmptySystemOutput: Bool) -> (p: Double, r: Double, f: Double) {
        let p = (c.system == 0 && zeroScoreOnEmptySystemOutput) ? 0 : precision(tp: c.truePositives, sys: c.system)
        let r = recall(tp: c.truePositives, ref: c.reference)
        return (p, r, fMeasure(precision: p, recall: r))
    }

    /// Overall block: F-scores and the error rate with substitutions.
    static func overallSummary(_ c: ScoreCounts, zeroScore: Bool, withAccuracy: Bool) -> ScoreSummary {
        let (p, r, f) = fScores(c, zeroScoreOnEmptySystemOutput: zeroScore)
        let s = rate(c.substitutions, ref: c.reference)
        let d = rate(c.deletions, ref: c.reference)
        let i = rate(c.insertions, ref: c.reference)
        var summary = ScoreSummary(
            counts: c, precision: p, recall: r, fMeasure: f, errorRate: s + d + i, substitutionRate: s,
            deletionRate: d, insertionRate: i)
        if withAccuracy { addAccuracy(&summary, c) }
        return summary
    }

    /// Class-wise block: F-scores and the error rate from deletions and insertions only.
    static func classSummary(_ c: ScoreCounts, zeroScore: Bool, withAccuracy: Bool) -> ScoreSummary {
        let (p, r, f) = fScores(c, zeroScoreOnEmptySystemOutput: zeroScore)
        let d = rate(c.deletions, ref: c.reference)
        let i = rate(c.insertions, ref: c.reference)
        var summary = ScoreSummary(
            counts: c, precision: p, recall: r, fMeasure: f, errorRate: 0.0 + d + i, deletionRate: d,
            insertionRate: i)
        if withAccuracy { addAccuracy(&summary, c) }
        return summary
    }

    /// Class-wise average block (NaN-ignoring means over the classes, in label order).
    static func averageSummary(_ classes: [ScoreSummary], withAccuracy: Bool) -> ScoreSummary {
        guard !classes.isEmpty else { return ScoreSummary() }
        func mean(_ key: KeyPath<ScoreSummary, Double?>) -> Double {
            nanMean(classes.map { $0[keyPath: key] ?? .nan })
        }
        var summary = ScoreSummary(
            precision: mean(\.precision), recall: mean(\.recall), fMeasure: mean(\.fMeasure),
            errorRate: mean(\.errorRate), deletionRate: mean(\.deletionRate), insertionRate: mean(\.insertionRate))
        if withAccuracy {
            summary.sensitivity = mean(\.sensitivity)
            summary.specificity = mean(\.specificity)
            summary.balancedAccuracy = mean(\.balancedAccuracy)
            summary.accuracy = mean(\.accuracy)
        }
        return summary
    }

    private static func addAccuracy(_ s: inout ScoreSummary, _ c: ScoreCounts) {
        let sens = sensitivity(tp: c.truePositives, fn: c.falseNegatives)
        let spec = specificity(tn: c.trueNegatives, fp: c.falsePositives)
        s.sensitivity = sens
        s.specificity = spec
        s.balancedAccuracy = balancedAccuracy(sensitivity: sens, specificity: spec)
        s.accuracy = accuracy(
            tp: c.truePositives, tn: c.trueNegatives, fp: c.falsePositives, fn: c.falseNegatives)
    }
}
