/// Accumulated intermediate counts, as `sed_eval` keeps them internally.
///
/// Event-based: `truePositives` are matched events; overall `substitutions` are unmatched reference/system
/// pairs that would match but for the label; `falsePositives` = Nsys − Ntp − Nsubs and
/// `falseNegatives` = Nref − Ntp − Nsubs, which are also the insertions and deletions.
/// Class-wise counts have no substitutions.
///
/// Segment-based: counts are of (segment, class) cells; overall `substitutions`, `deletions` and `insertions`
/// are computed segment by segment (S = min(Nref, Nsys) − Ntp, D = max(0, Nref − Nsys), I = max(0, Nsys − Nref)).
package struct ScoreCounts: Sendable, Hashable {
    /// Reference events (event-based) or active reference cells (segment-based).
    package var reference: Int = 0
    /// System output events or active system cells.
    package var system: Int = 0
    /// True positives.
    package var truePositives: Int = 0
    /// True negatives (segment-based only; 0 for event-based).
    package var trueNegatives: Int = 0
    /// False positives.
    package var falsePositives: Int = 0
    /// False negatives.
    package var falseNegatives: Int = 0
    /// Substitutions (overall only).
    package var substitutions: Int = 0
    /// Deletions used by the error rate.
    package var deletions: Int = 0
    /// Insertions used by the error rate.
    package var insertions: Int = 0

    /// Creates zero counts.
    package init() {}

    /// Creates counts with the given values.
    package init(
        reference: Int, system: Int, truePositives: Int, trueNegatives: Int = 0, falsePositives: Int,
        falseNegatives: Int, substitutions: Int = 0, deletions: Int, insertions: Int
    ) {
        self.reference = reference
        self.system = system
        self.truePositives = truePositives
        self.trueNegatives = trueNegatives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
    }

    /// Adds `other` field by field.
    package static func += (lhs: inout ScoreCounts, rhs: ScoreCounts) {
        lhs.reference += rhs.reference
        lhs.system += rhs.system
        lhs.truePositives += rhs.truePositives
        lhs.trueNegatives += rhs.trueNegatives
        lhs.falsePositives += rhs.falsePositives
        lhs.falseNegatives += rhs.falseNegatives
        lhs.substitutions += rhs.substitutions
        lhs.deletions += rhs.deletions
        lhs.insertions += rhs.insertions
    }
}
