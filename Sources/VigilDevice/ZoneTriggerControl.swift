/// The motion lifecycle settings of one zone (Matter `ZoneTriggerControlStruct`). Durations in seconds.
public struct ZoneTriggerControl: Sendable, Hashable {
    /// The zone this trigger belongs to; it must exist and be a motion zone.
    public var zoneID: UInt16
    /// Active duration after the first detection, 1...65535 s.
    public var initialDuration: UInt32
    /// Added per further detection, at most initialDuration.
    public var augmentationDuration: UInt32
    /// Hard cap on the active duration, at least initialDuration.
    public var maxDuration: UInt32
    /// Detections are ignored this long after ZoneStopped (0: no blind period).
    public var blindDuration: UInt32
    /// Per-zone sensitivity 1...sensitivityMax; `nil` uses the device sensitivity.
    public var sensitivity: Int?

    /// Allowed initialDuration values.
    public static let initialDurationRange: ClosedRange<UInt32> = 1...65535

    /// Creates a trigger; the defaults are the spec's typical values (10, 5, 30, 30).
    public init(
        zoneID: UInt16, initialDuration: UInt32 = 10, augmentationDuration: UInt32 = 5, maxDuration: UInt32 = 30,
        blindDuration: UInt32 = 30, sensitivity: Int? = nil
    ) {
        self.zoneID = zoneID
        self.initialDuration = initialDuration
        self.augmentationDuration = augmentationDuration
        self.maxDuration = maxDuration
        self.blindDuration = blindDuration
        self.sensitivity = sensitivity
    }
}
