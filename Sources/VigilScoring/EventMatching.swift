/// How reference and system events are paired one-to-one in ``EventBasedMetrics``.
package enum EventMatching: String, Sendable, Hashable, CaseIterable {
    /// Maximum bipartite matching (`sed_eval` `event_matching_type='optimal'`, the default).
    case optimal
    /// For each reference in order, the first unmatched system event that fits
    /// (`event_matching_type='greedy'`, kept in `sed_eval` for backward compatibility).
    case greedy
}
