/// What the motion detector decided for one region (a motion zone, a privacy zone, or outside
/// every zone) in one frame: the per-frame trace a user tunes zones and sensitivity with.
/// Filled only when ``MotionDetector/recordsRegionDecisions`` is on.
public struct RegionDecision: Sendable, Hashable {
    /// The decision.
    public enum Outcome: String, Sendable, Hashable {
        /// The region moved: a motion detection is reported for it.
        case motion
        /// No moving pixels of an accepted blob in the region.
        case none
        /// The region is not reported although it may have moved; see ``Reason``.
        case suppressed
    }

    /// Why a region was suppressed (or, for ``Outcome/none``, why nothing was analysed).
    public enum Reason: String, Sendable, Hashable {
        /// The first frame only initialises the background.
        case initialising
        /// The fitted global gain or offset jumped (a light switched, an exposure step): the
        /// background was reset to this frame.
        case lightingChange
        /// A lighting or whole-frame change at which the picture switched between colour and
        /// monochrome: the camera's IR cut filter (night vision on or off). Background reset.
        case irSwitch
        /// A large or widespread change that a shift of the whole picture explains (camera
        /// shake): background reset.
        case wholeFrameChange
        /// Within the settle period after a lighting or whole-frame change.
        case settling
        /// A privacy zone: never analysed or reported.
        case privacy
        /// Moving pixels were found but fewer than the region's minimum area (or its share of the
        /// zone is below the minimum zone fraction).
        case tooSmall
    }

    /// The zone, or `nil` for outside every zone.
    public var zoneID: UInt16?
    /// Whether this is a privacy zone (then ``fraction`` is `nil`: nothing there is measured).
    public var isPrivacy: Bool
    /// Moving frame pixels of accepted blobs attributed to the region above its threshold.
    public var motionPixels: Int
    /// `motionPixels` over the region's area (`nil` for privacy zones).
    public var fraction: Double?
    /// The decision.
    public var outcome: Outcome
    /// The reason for a suppression (also set on frames that were not analysed).
    public var reason: Reason?

    /// Creates a decision record.
    public init(zoneID: UInt16?, isPrivacy: Bool = false, motionPixels: Int, fraction: Double?, outcome: Outcome, reason: Reason?) {
        self.zoneID = zoneID
        self.isPrivacy = isPrivacy
        self.motionPixels = motionPixels
        self.fraction = fraction
        self.outcome = outcome
        self.reason = reason
    }
}
