import VigilCore
import VigilDevice

extension LifecycleTiming {
    /// The timing of a zone trigger (seconds).
    public init(_ control: ZoneTriggerControl) {
        self.init(
            initialDuration: Double(control.initialDuration), augmentationDuration: Double(control.augmentationDuration),
            maxDuration: Double(control.maxDuration), blindDuration: Double(control.blindDuration))
    }

    /// The timing of the transport's motion time control (seconds).
    public init(_ control: TransportMotionTimeControl) {
        self.init(
            initialDuration: Double(control.initialDuration), augmentationDuration: Double(control.augmentationDuration),
            maxDuration: Double(control.maxDuration), blindDuration: Double(control.blindDuration))
    }
}

extension EventPolicy {
    /// The event policy of `device`: transport status, microphone, selected recording mode,
    /// enabled triggers, zone triggers, privacy zones, and the transport's trigger options
    /// (motion time control, pre-roll, motion zones). Fields the device leaves unset take
    /// ``EventPolicy/init(transportActive:microphoneMuted:recordingMode:recordingModeMaxDuration:enabledTriggers:zoneTriggers:privacyZones:motionTimeControl:maxPreRoll:motionZones:)``'s
    /// defaults, except a missing pre-roll, which is 0.
    public init(device: Device) {
        let options = device.transport.triggerOptions
        let mode = device.recordingModes.selectedMode
        var zoneTriggers: [UInt16: LifecycleTiming] = [:]
        for control in device.zoneManagement.triggers { zoneTriggers[control.zoneID] = LifecycleTiming(control) }
        let privacy = Set(device.zoneManagement.zones.filter { $0.zone.isPrivacyZone }.map(\.zoneID))
        self.init(
            transportActive: device.transport.transportStatus == .active,
            microphoneMuted: device.audio.microphoneMuted,
            recordingMode: mode.recordingMode,
            recordingModeMaxDuration: Double(mode.maxDuration),
            enabledTriggers: device.eventTriggers.enabled,
            zoneTriggers: zoneTriggers,
            privacyZones: privacy,
            motionTimeControl: options.motionTimeControl.map(LifecycleTiming.init) ?? .motionTimeControlDefault,
            maxPreRoll: Double(options.maxPreRollLen ?? 0) / 1000,
            motionZones: options.motionZones.map { $0.map(\.zone) })
    }
}
