import VigilCore
import VigilInference

/// Tunable settings shared by the detectors, derived from the device and the command line.
public struct DetectorSettings: Sendable, Hashable {
    /// Sensitivity for each trigger (missing triggers use ``defaultSensitivity``).
    public var sensitivity: [EventTriggerType: Sensitivity]
    /// Sensitivity for triggers not listed in ``sensitivity``.
    public var defaultSensitivity: Sensitivity
    /// Relative timing tolerance for alarm patterns (0.10 = ±10 %).
    public var alarmTimingTolerance: Double
    /// Full pattern cycles an alarm must show before it is reported.
    public var alarmConfirmationCycles: Int
    /// Models that replace the shipped (embedded) model of a learned detector (dogBark, glassBreak,
    /// personTalking) for this run, by trigger; each model's label is its trigger's name.
    public var models: [EventTriggerType: SoundModel]

    /// Creates settings; defaults are medium sensitivity, ±10 % tolerance, 2 confirmation cycles, the shipped models.
    public init(
        sensitivity: [EventTriggerType: Sensitivity] = [:], defaultSensitivity: Sensitivity = .medium,
        alarmTimingTolerance: Double = 0.10, alarmConfirmationCycles: Int = 2, models: [EventTriggerType: SoundModel] = [:]
    ) {
        self.sensitivity = sensitivity
        self.defaultSensitivity = defaultSensitivity
        self.alarmTimingTolerance = alarmTimingTolerance
        self.alarmConfirmationCycles = alarmConfirmationCycles
        self.models = models
    }

    /// The sensitivity that applies to `trigger`.
    public func sensitivity(for trigger: EventTriggerType) -> Sensitivity {
        sensitivity[trigger] ?? defaultSensitivity
    }
}
