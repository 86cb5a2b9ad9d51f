/// All results of a metric: overall (micro-averaged), class-wise, and class-wise average (macro-averaged),
/// as `sed_eval`'s `results()`.
package struct ScoringResults: Sendable, Equatable {
    /// Human-readable description of the settings (to report next to every figure).
    package var settings: String
    /// Number of `evaluate` calls (files).
    package var evaluatedFiles: Int
    /// Evaluated length in seconds: event-based sums each file's maximum reference offset; segment-based sums
    /// each file's evaluated length.
    package var evaluatedLength: Double
    /// What ``evaluatedLength`` sums, in words (for reports, beside the figure).
    package var evaluatedLengthMeaning: String
    /// Overall (micro-averaged) metrics.
    package var overall: ScoreSummary
    /// Class labels, in the metric's label order.
    package var labels: [String]
    /// Class-wise metrics keyed by label.
    package var classWise: [String: ScoreSummary]
    /// Class-wise average (macro-averaged, NaN-ignoring mean over classes) metrics.
    package var classWiseAverage: ScoreSummary

    /// Creates results.
    package init(
        settings: String, evaluatedFiles: Int, evaluatedLength: Double, overall: ScoreSummary, labels: [String],
        classWise: [String: ScoreSummary], classWiseAverage: ScoreSummary, evaluatedLengthMeaning: String = ""
    ) {
        self.evaluatedLengthMeaning = evaluatedLengthMeaning
        self.settings = settings
        self.evaluatedFiles = evaluatedFiles
        self.evaluatedLength = evaluatedLength
        self.overall = overall
        self.labels = labels
        self.classWise = classWise
        self.classWiseAverage = classWiseAverage
    }
}
