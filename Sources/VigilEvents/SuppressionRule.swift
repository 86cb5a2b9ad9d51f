/// The rule that suppressed a candidate. Raw values are the rule names used by `--explain`.
public enum SuppressionRule: String, Sendable, Hashable, CaseIterable {
    /// The detection's `detectedAt` is not a finite number (checked before every other rule).
    case invalidTime = "detection.detectedAt"
    /// The transport is inactive (camera video off).
    case transportInactive = "transport.transportStatus"
    /// The recording mode is liveView: all detectors are off.
    case liveView = "recordingMode.liveView"
    /// The trigger is not in `enabledEventTriggers`.
    case triggerDisabled = "enabledEventTriggers"
    /// The device enables the trigger, but the run's trigger selection (`vigil analyze
    /// --triggers`) leaves it out.
    case triggerNotSelected = "--triggers"
    /// A sound trigger while the microphone is muted.
    case microphoneMuted = "audio.microphoneMuted"
    /// A vision detection in a privacy zone.
    case privacyZone = "zones.privacy"
    /// A detection in the blind period of a zone trigger.
    case zoneTriggerBlind = "triggers.blindDuration"
    /// A detection (or, with scope clip, an event) in the blind period of the transport's
    /// motion time control.
    case motionTimeControlBlind = "transport.motionTimeControl.blindDuration"
    /// A generic `sound` during a safety alarm event (smokeAlarm, coAlarm): the alarm's event reports it.
    case subsumedBySafetyAlarm = "safetyAlarm.subsumesSound"
    /// With scope snapshot: an images-mode event after the end of the video has no frame to show.
    case videoEnded = "video.ended"

    /// The rule name.
    public var name: String { rawValue }
}
