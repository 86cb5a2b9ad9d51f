import VigilCore

/// Everything the event engine needs to know about the device, as plain values.
///
/// Independent of the device model: an adapter fills it from the device state.
/// All durations are seconds of media time.
public struct EventPolicy: Sendable, Hashable {
    /// `transportStatus == active`. When `false` ("camera video off") nothing is detected.
    public var transportActive: Bool
    /// `microphoneMuted`: sound triggers cannot fire.
    public var microphoneMuted: Bool
    /// The selected recording mode.
    public var recordingMode: RecordingModeType
    /// The selected mode's `maxDuration` in seconds; 0 means none.
    public var recordingModeMaxDuration: Double
    /// `enabledEventTriggers`, narrowed by the run's trigger selection (see ``narrowed(to:)``).
    public var enabledTriggers: Set<EventTriggerType>
    /// Triggers the device enables that the run's trigger selection (`--triggers`) left out:
    /// their detections are suppressed with rule ``SuppressionRule/triggerNotSelected``.
    public var unselectedTriggers: Set<EventTriggerType> = []
    /// Zone trigger control per zone ID (`triggers`).
    public var zoneTriggers: [UInt16: LifecycleTiming]
    /// IDs of privacy zones: vision detections there are never reported.
    public var privacyZones: Set<UInt16>
    /// The transport's `motionTimeControl`: ebr clip timing, and grouping of vision
    /// detections that have no zone trigger.
    public var motionTimeControl: LifecycleTiming
    /// The transport's `maxPreRollLen`, in seconds.
    public var maxPreRoll: Double
    /// The transport's `motionZones`: `nil` or empty means anywhere; a `nil` element means
    /// outside every zone. Vision events elsewhere are still emitted but start no ebr clip.
    public var motionZones: [UInt16?]?

    /// Creates a policy. The defaults describe an active transport recording in ebr mode
    /// (maxDuration 60 s), every trigger enabled, no zones, motion time control 10/5/60/10
    /// and a 4 s pre-roll.
    public init(
        transportActive: Bool = true,
        microphoneMuted: Bool = false,
        recordingMode: RecordingModeType = .ebr,
        recordingModeMaxDuration: Double = 60,
        enabledTriggers: Set<EventTriggerType> = Set(EventTriggerType.allCases),
        zoneTriggers: [UInt16: LifecycleTiming] = [:],
        privacyZones: Set<UInt16> = [],
        motionTimeControl: LifecycleTiming = .motionTimeControlDefault,
        maxPreRoll: Double = 4,
        motionZones: [UInt16?]? = nil
    ) {
        self.transportActive = transportActive
        self.microphoneMuted = microphoneMuted
        self.recordingMode = recordingMode
        self.recordingModeMaxDuration = recordingModeMaxDuration
        self.enabledTriggers = enabledTriggers
        self.zoneTriggers = zoneTriggers
        self.privacyZones = privacyZones
        self.motionTimeControl = motionTimeControl
        self.maxPreRoll = maxPreRoll
        self.motionZones = motionZones
    }

    /// The policy with only `selection` of its enabled triggers enabled (`vigil analyze
    /// --triggers`); the enabled triggers left out are remembered in ``unselectedTriggers`` so
    /// that `--explain` names the selection, not the device, as the reason.
    public func narrowed(to selection: Set<EventTriggerType>) -> EventPolicy {
        var policy = self
        policy.unselectedTriggers.formUnion(enabledTriggers.subtracting(selection))
        policy.enabledTriggers.formIntersection(selection)
        return policy
    }

    /// Whether a vision detection in `zone` (`nil` = outside every zone) lies in `motionZones`.
    public func isInMotionZones(_ zone: UInt16?) -> Bool {
        guard let motionZones, !motionZones.isEmpty else { return true }
        return motionZones.contains(zone)
    }

    /// The ebr clip timing: `motionTimeControl` with its max lowered to
    /// `recordingModeMaxDuration` when that is positive.
    public var clipTiming: LifecycleTiming {
        motionTimeControl.capped(at: recordingModeMaxDuration)
    }

    /// The length of an etr clip: `recordingModeMaxDuration`, or 10 s when that is not positive.
    public var etrClipLength: Double {
        recordingModeMaxDuration > 0 ? recordingModeMaxDuration : 10
    }
}
