import VigilCore

/// A camera or doorbell as the detector emulates it: every setting that decides which events
/// it reports and what media they carry.
public struct Device: Sendable, Hashable {
    /// Display name.
    public var name: String
    /// Zones, zone triggers and sensitivity limits.
    public var zoneManagement: ZoneManagement
    /// Supported and enabled event triggers.
    public var eventTriggers: EventDetectionTriggers
    /// Recording modes and the selected one.
    public var recordingModes: RecordingModes
    /// Transport status and trigger options.
    public var transport: Transport
    /// Microphone settings.
    public var audio: AudioSettings
    /// Picture settings.
    public var video: VideoSettings

    /// Creates a device.
    public init(
        name: String, zoneManagement: ZoneManagement, eventTriggers: EventDetectionTriggers,
        recordingModes: RecordingModes, transport: Transport, audio: AudioSettings, video: VideoSettings
    ) {
        self.name = name
        self.zoneManagement = zoneManagement
        self.eventTriggers = eventTriggers
        self.recordingModes = recordingModes
        self.transport = transport
        self.audio = audio
        self.video = video
    }

    /// The sensitivity for motion in zone `zoneID`:
    /// 1. the zone trigger's `sensitivity`, if the zone has a trigger that sets one;
    /// 2. else, if the zone has a trigger, the device-level `sensitivity`;
    /// 3. else (no trigger for the zone) the rule for motion without a zone trigger,
    ///    ``motionSensitivityOutsideZones``.
    /// Levels 1...sensitivityMax come with maximum sensitivityMax, transport levels with maximum 10.
    public func sensitivity(forZone zoneID: UInt16) -> Sensitivity {
        let zones = zoneManagement
        if let trigger = zones.trigger(forZone: zoneID) {
            if let level = trigger.sensitivity ?? zones.sensitivity {
                return Sensitivity(level, maximum: zones.sensitivityMax)
            }
        }
        return motionSensitivityOutsideZones
    }

    /// The sensitivity for motion outside every zone (and in zones without a trigger): the
    /// transport's `motionSensitivity` (scale 1...10), else the device-level `sensitivity`
    /// (scale 1...sensitivityMax), else 10 of 10.
    public var motionSensitivityOutsideZones: Sensitivity {
        if let level = transport.triggerOptions.motionSensitivity { return Sensitivity(level, maximum: 10) }
        if let level = zoneManagement.sensitivity { return Sensitivity(level, maximum: zoneManagement.sensitivityMax) }
        return Sensitivity(10, maximum: 10)
    }

    /// Whether the device detects anything at all: transport active and a mode other than liveView.
    public var detectsEvents: Bool {
        transport.transportStatus == .active && recordingModes.selectedMode.recordingMode != .liveView
    }

    /// Whether `trigger` can fire: the device detects events, the trigger is enabled, and for
    /// sound triggers the microphone is not muted.
    public func canReport(_ trigger: EventTriggerType) -> Bool {
        detectsEvents && eventTriggers.isEnabled(trigger) && !(trigger.isSound && audio.microphoneMuted)
    }
}
