import VigilCore

/// What the motion detector found in one frame.
public struct FrameMotion: Sendable, Hashable {
    /// Why a frame reports no motion regardless of its pixels.
    public enum State: String, Sendable, Hashable {
        /// Normal analysis.
        case analysed
        /// The first frame: it only initialises the background.
        case initialising
        /// A whole-frame change (light switch, IR switch, exposure jump, shake): the background
        /// was reset to this frame.
        case globalChange
        /// Within the settle period after a whole-frame change.
        case settling
    }

    /// Frame time in seconds.
    public var time: Double
    /// The frame's state.
    public var state: State
    /// Fraction of analysed working pixels that moved (before any zone test).
    public var movingFraction: Double
    /// Fitted global gain and offset between the frame and the background.
    public var gain: Double
    /// See ``gain``.
    public var offset: Double
    /// Blobs that passed the minimum area (empty unless `state == .analysed`).
    public var blobs: [MotionBlob]
    /// Regions with reportable motion, in layout order (zones, then outside).
    public var zones: [ZoneMotion]
    /// Privacy zones in which motion was found and withheld (only with
    /// ``MotionConfiguration/reportsPrivacyMotion``).
    public var privacyZonesWithMotion: [UInt16]
    /// Per region (motion zones, outside when reportable, then privacy zones): the decision and
    /// its reason. Empty unless ``MotionDetector/recordsRegionDecisions``.
    public var decisions: [RegionDecision] = []

    /// Creates a frame result.
    public init(
        time: Double, state: State, movingFraction: Double, gain: Double, offset: Double, blobs: [MotionBlob], zones: [ZoneMotion],
        privacyZonesWithMotion: [UInt16] = []
    ) {
        self.privacyZonesWithMotion = privacyZonesWithMotion
        self.time = time
        self.state = state
        self.movingFraction = movingFraction
        self.gain = gain
        self.offset = offset
        self.blobs = blobs
        self.zones = zones
    }

    /// One point detection of trigger `motion` per region with motion, at ``time``, with
    /// evidence `motionFraction`, `motionPixels`, `blobs`, `boundingBox` (grid
    /// `[minX, minY, maxX, maxY]`) and `peakTime` (this frame's time; the caller may replace it
    /// with the time of the activation's peak). Then one detection per privacy zone with motion,
    /// without evidence, which the event engine suppresses (rule `zones.privacy`), so that
    /// `--explain` says motion there was withheld.
    public var detections: [Detection] {
        let withheld = privacyZonesWithMotion.map { Detection.point(.motion, zoneID: $0, at: time, confidence: 1, evidence: [:]) }
        return zones.map { zone in
            Detection.point(
                .motion, zoneID: zone.zoneID, at: time, confidence: zone.confidence,
                evidence: [
                    "motionFraction": .number((zone.fraction * 10_000).rounded() / 10_000),
                    "motionPixels": .int(zone.motionPixels),
                    "blobs": .int(zone.blobCount),
                    "boundingBox": .numbers(zone.gridBox.map { $0.rounded() }),
                    "peakTime": .number(time),
                ])
        } + withheld
    }

    /// The total moving pixels over all reported regions (a frame's "amount of motion").
    public var totalMotionPixels: Int { zones.reduce(0) { $0 + $1.motionPixels } }
}
