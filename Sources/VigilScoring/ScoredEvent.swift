/// One annotated or detected sound event, as scored by ``EventBasedMetrics`` and ``SegmentBasedMetrics``.
///
/// Times are seconds from the start of the file. `file` is the file (clip) the event belongs to;
/// the 3-column DCASE annotation form leaves it empty.
package struct ScoredEvent: Sendable, Hashable {
    /// File (clip) name; empty when unknown.
    package var file: String
    /// Onset in seconds.
    package var onset: Double
    /// Offset in seconds.
    package var offset: Double
    /// Event label (class), e.g. `smokeAlarm`.
    package var label: String

    /// Creates an event.
    package init(file: String = "", onset: Double, offset: Double, label: String) {
        self.file = file
        self.onset = onset
        self.offset = offset
        self.label = label
    }

    /// Duration `offset - onset` in seconds.
    package var duration: Double { offset - onset }
}
