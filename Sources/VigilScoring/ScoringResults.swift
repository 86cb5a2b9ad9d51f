/// All results of a metric: overall (micro-averaged), class-wise, and class-wise average (macro-averaged),
/// as `sed_eval`'s `results()`.
public struct ScoringResults: Sendable, Equatable {
    /// Human-readable description of the settings (to report next to every figure).
    public var settings: String
    /// Number of `evaluate` calls (files).
    public var evaluatedFiles: Int
    /// Evaluated length in seconds: event-based sums each file's maximum reference offset; segment-based sums
    /// each file's evaluated length.
    public var evaluatedLength: Double
    /// What ``evaluatedLength`` sums, in words (for reports, beside the figure).
    public var evaluatedLengthMeaning: String
    /// Overall (micro-averaged) metrics.
    public var overall: ScoreSummary
    /// Class labels, in the metric's label order.
    public var labels: [String]
    /// Class-wise metrics keyed by label.
    public var classWise: [String: ScoreSummary]
    /// Class-wise average (macro-averaged, NaN-ignoring mean over classes) metrics.
    public var classWiseAverage: ScoreSummary

    /// Creates results.
    public init(
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
