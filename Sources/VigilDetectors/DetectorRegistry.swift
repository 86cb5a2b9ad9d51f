import VigilCore
import VigilDSP

/// Builds the sound detectors for a stream: the one place that knows which trigger is
/// implemented by which detector type.
public enum DetectorRegistry {
    /// Sound triggers this build can detect.
    public static var availableSoundTriggers: [EventTriggerType] {
        EventTriggerType.allCases.filter {
            makeDetector(for: $0, configuration: .standard(sampleRate: 44_100), settings: DetectorSettings()) != nil
        }
    }

    /// Vision triggers this build can detect: `motion`, found by `VigilVision.MotionDetector`.
    /// There is no person, vehicle, animal or package detector.
    public static let availableVisionTriggers: [EventTriggerType] = [.motion]

    /// Every trigger this build can detect (vision and sound), in declaration order. A trigger
    /// outside this list never fires, whatever the device enables.
    public static var detectableTriggers: [EventTriggerType] {
        (availableVisionTriggers + availableSoundTriggers).sorted()
    }

    /// A new detector for `trigger`, or nil if none exists for it yet.
    public static func makeDetector(
        for trigger: EventTriggerType, configuration: STFTConfiguration, settings: DetectorSettings
    ) -> (any SpectralDetector)? {
        switch trigger {
        case .sound:
            return SoundLevelDetector(configuration: configuration, sensitivity: settings.sensitivity(for: .sound))
        case .smokeAlarm:
            return AlarmPatternDetector.smokeAlarm(configuration: configuration, settings: settings)
        case .coAlarm:
            return AlarmPatternDetector.coAlarm(configuration: configuration, settings: settings)
        case .dogBark, .glassBreak, .personTalking:
            if let model = settings.models[trigger] {
                return LearnedSoundDetector(
                    trigger: trigger, model: model, configuration: configuration, sensitivity: settings.sensitivity(for: trigger))
            }
            return LearnedSoundDetector.shipped(
                for: trigger, configuration: configuration, sensitivity: settings.sensitivity(for: trigger))
        default:
            return nil
        }
    }

    /// New detectors for every trigger in `triggers` that has one, in a stable order.
    public static func makeDetectors(
        for triggers: Set<EventTriggerType>, configuration: STFTConfiguration, settings: DetectorSettings
    ) -> [any SpectralDetector] {
        triggers.sorted().compactMap { makeDetector(for: $0, configuration: configuration, settings: settings) }
    }
}
