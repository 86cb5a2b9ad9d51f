/// Picks the decoded frames that stand for the analysis times `0, 1/fps, 2/fps, ...`: the first
/// frame whose time reaches an analysis time (within half a millisecond of timestamp rounding)
/// is handed over, later frames before the next analysis time are not. Pure; one per stream.
public struct AnalysisFrameSelector: Sendable, Hashable {
    /// Analysis frames per second; `nil` selects every frame.
    public let fps: Double?
    /// The index of the next analysis time.
    public private(set) var nextSlot: Int64 = 0
    /// Timestamps may be rounded to the time base: a frame this close before a slot counts for it.
    public static let tolerance = 0.0005

    /// Creates a selector.
    public init(fps: Double?) { self.fps = fps }

    /// Whether the frame at `time` (seconds, increasing) is handed over.
    public mutating func select(time: Double) -> Bool {
        guard let fps else { return true }
        guard time.isFinite, time + Self.tolerance >= Double(nextSlot) / fps else { return false }
        // The next slot strictly after this frame: frames skip slots when the source rate is lower.
        nextSlot = Int64(((time + Self.tolerance) * fps).rounded(.down)) + 1
        return true
    }
}
