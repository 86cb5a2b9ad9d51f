/// A beep-length segment of a plain line of an ``AlarmPatternDetector``, kept in the detector's
/// pool so that a group whose beeps were split between several lines of one source (neighbouring
/// bins, the per-frame and the smoothed bank, odd harmonics of a square wave) can be assembled.
struct AlarmPooledBeep {
    var onset: Double
    var offset: Double
    /// Interpolated frequency of the segment's line (Hz).
    var frequency: Double
    /// Prominence (linear) of the segment at its peak.
    var prominence: Float
}
