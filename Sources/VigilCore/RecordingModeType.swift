/// Recording modes of the Google Home `RecordingModeTrait`. Raw values are the wire names.
public enum RecordingModeType: String, CaseIterable, Sendable, Hashable, Codable {
    /// Continuous video recording: events carry a range on the continuous timeline.
    case cvr
    /// Event-based recording: events carry a clip following the motion time control.
    case ebr
    /// Event-triggered recording: events carry a short fixed clip (the mode's maxDuration).
    case etr
    /// Still images instead of video.
    case images
    /// Live view only: all detectors are off, no events.
    case liveView
    /// Recording disabled: events are emitted without media.
    case disabled
}
