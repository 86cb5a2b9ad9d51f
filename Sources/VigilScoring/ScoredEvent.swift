/// One annotated or detected sound event, as scored by ``EventBasedMetrics`` and ``SegmentBasedMetrics``.
///
/// Times are seconds from the start of the file. `file` is the file (clip) the event belongs to;
/// the 3-column DCASE annotation form leaves it empty.
public struct ScoredEvent: Sendable, Hashable {
    /// File (clip) name; empty when unknown.
    public var file: String
    /// Onset in seconds.
    public var onset: Double
    /// Offset in seconds.
    public var offset: Double
    /// Event label (class), e.g. `smokeAlarm`.
    public var label: String

    /// Creates an event.
    public init(file: String = "", onset: Double, offset: Double, label: String) {
        self.file = file
        self.onset = onset
        self.offset = offset
        self.label = label
    }

    /// Duration `offset - onset` in seconds.
    public var duration: Double { offset - onset }
}
