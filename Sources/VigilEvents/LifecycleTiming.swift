/// The four durations that drive a ``TriggerLifecycle``, in seconds of media time.
///
/// The same shape serves a zone trigger (Matter `ZoneTriggerControlStruct`) and the
/// transport's clip timing (`TransportMotionTriggerTimeControlStruct`).
///
/// Values are stored as given. ``TriggerLifecycle`` reads them through ``sanitized``:
/// a negative or NaN duration counts as 0; `+infinity` is kept (an endless duration).
public struct LifecycleTiming: Sendable, Hashable {
    /// Active duration granted by the first detection (`initialDuration`).
    public var initialDuration: Double
    /// Duration added by each detection that may augment (`augmentationDuration`).
    public var augmentationDuration: Double
    /// Upper bound of an activation, measured from its first detection (`maxDuration`).
    public var maxDuration: Double
    /// Time after a stop during which detections are ignored (`blindDuration`); 0 = none.
    public var blindDuration: Double

    /// Creates a timing; all values in seconds.
    public init(initialDuration: Double, augmentationDuration: Double, maxDuration: Double, blindDuration: Double) {
        self.initialDuration = initialDuration
        self.augmentationDuration = augmentationDuration
        self.maxDuration = maxDuration
        self.blindDuration = blindDuration
    }

    /// The typical zone trigger defaults: initial 10, augmentation 5, max 30, blind 30.
    public static let zoneTriggerDefault = LifecycleTiming(
        initialDuration: 10, augmentationDuration: 5, maxDuration: 30, blindDuration: 30)

    /// The default transport motion time control: initial 10, augmentation 5, max 60, blind 10.
    public static let motionTimeControlDefault = LifecycleTiming(
        initialDuration: 10, augmentationDuration: 5, maxDuration: 60, blindDuration: 10)

    /// This timing with every negative or NaN duration replaced by 0.
    public var sanitized: LifecycleTiming {
        LifecycleTiming(
            initialDuration: Self.clean(initialDuration),
            augmentationDuration: Self.clean(augmentationDuration),
            maxDuration: Self.clean(maxDuration),
            blindDuration: Self.clean(blindDuration))
    }

    /// This timing with `maxDuration` lowered to `cap` when `cap > 0`.
    public func capped(at cap: Double) -> LifecycleTiming {
        guard cap > 0 else { return self }
        var copy = self
        copy.maxDuration = Swift.min(maxDuration, cap)
        return copy
    }

    private static func clean(_ value: Double) -> Double {
        value.isNaN || value < 0 ? 0 : value
    }
}
