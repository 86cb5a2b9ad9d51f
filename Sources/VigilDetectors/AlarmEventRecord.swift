/// An alarm event being built by an ``AlarmPatternDetector``: confirmed, not yet ended.
struct AlarmEventRecord {
    var start: Double
    var detectedAt: Double
    var end: Double
    /// First onset of the latest group that extended the event.
    var lastGroupOnset: Double
    var toneHz: Double
    var cycles: Int
    var onDurations: [Double]
    var offDurations: [Double]
    /// Frequencies of every line that confirmed the same pattern (harmonics, comb lines).
    var lineFrequencies: [Double]
    var prominenceDB: Double
}
