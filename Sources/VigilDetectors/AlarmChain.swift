/// A chain of valid beep groups, one cycle apart, being followed by an ``AlarmPatternDetector``.
///
/// Groups seen at the same time on several lines (the odd harmonics of a square wave, the lines of
/// a comb) join one chain; later groups may come from any of those lines, so a harmonic masked by
/// the background in one cycle does not break the chain.
struct AlarmChain {
    /// Onset of the first beep of the first group.
    var start: Double
    /// First onset of the latest group.
    var lastGroupOnset: Double
    /// Offset of the last beep of the latest group.
    var end: Double
    /// Groups in the chain.
    var count: Int
    /// Media time at which the chain reached the confirmation count.
    var confirmedAt: Double?
    /// Set once no further group can extend the chain.
    var finished = false
    /// Set once the confirmed chain was reported as started (``AlarmPatternDetector/reportStarts(into:)``).
    var startReported = false
    /// Frequency of the most prominent line (Hz) and its prominence (linear).
    var toneHz: Double
    var prominence: Float
    /// Frequencies of every line that showed the groups.
    var lines: [Double]
    /// Measured beep durations, silences within groups, and cycles (first 16 of each).
    var onDurations: [Double]
    var offDurations: [Double]
    var cycles: [Double]
    /// Groups with every beep at full length (the others had beeps shortened by masking); a chain
    /// is confirmed only with at least one.
    var strongGroups: Int
    /// Whether the latest group was seen strong on some line.
    var lastGroupStrong: Bool
}
