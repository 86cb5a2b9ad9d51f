/// The media attached to an event, depending on the recording mode.
public enum EventMedia: Sendable, Hashable {
    /// cvr: a range `start...end` (seconds) on the continuous recording timeline.
    case range(start: Double, end: Double)
    /// ebr or etr: clip number `id` (1, 2, 3, ... per stream) covering `start...end` seconds.
    case clip(id: Int, start: Double, end: Double)
    /// images: still image number `index` (1, 2, 3, ... per stream) taken at `time` seconds.
    case snapshot(time: Double, index: Int)
}
