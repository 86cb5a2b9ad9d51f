import VigilAnalysis
import VigilCore
import VigilDetectors
import VigilEvents

/// The analysis choices given as text (`vigil analyze --triggers LIST`, `--sensitivity [TRIGGER=]N`),
/// parsed, and the plan they give for a loaded device.
public enum AnalysisOptions {
    /// A value that cannot be used: the reason, naming the value (the caller adds the option's name).
    public struct ParseError: Error, CustomStringConvertible {
        /// The reason.
        public var description: String
    }

    /// Sensitivity overrides: one level for every sound trigger, and levels per trigger.
    public struct SensitivityOverrides: Sendable {
        /// The level for all sound triggers, if given.
        public var all: Sensitivity?
        /// Levels per sound trigger.
        public var perTrigger: [EventTriggerType: Sensitivity] = [:]
    }

    /// The triggers of a comma-separated `list`; each must be a trigger a detector of this build finds.
    public static func triggers(_ list: String) throws(ParseError) -> Set<EventTriggerType> {
        var set: Set<EventTriggerType> = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let trigger = EventTriggerType(rawValue: name) else {
                throw ParseError(
                    description: "'\(name)' is not a trigger (\(EventTriggerType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard DetectorRegistry.detectableTriggers.contains(trigger) else {
                throw ParseError(
                    description: "\(name) has no detector in Vigil, so it never fires (detectable: "
                        + "\(DetectorRegistry.detectableTriggers.map(\.rawValue).joined(separator: ", ")))")
            }
            set.insert(trigger)
        }
        return set
    }

    /// Sensitivity overrides from `N` (all sound triggers) and `TRIGGER=N` texts, levels 1...10.
    public static func sensitivities(_ texts: [String]) throws(ParseError) -> SensitivityOverrides {
        var overrides = SensitivityOverrides()
        for text in texts {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard let level = Int(parts.count == 2 ? parts[1] : parts[0]), (1...10).contains(level) else {
                throw ParseError(description: "\(text): the level must be a whole number from 1 to 10")
            }
            guard parts.count == 2 else {
                overrides.all = Sensitivity(level)
                continue
            }
            guard let trigger = EventTriggerType(rawValue: parts[0]), trigger.isSound else {
                throw ParseError(description: "\(text): '\(parts[0])' is not a sound trigger")
            }
            overrides.perTrigger[trigger] = Sensitivity(level)
        }
        return overrides
    }

    /// The plan for `loaded` with the sensitivity overrides and the policy narrowed to `triggers`
    /// when given (models replacing the shipped ones go into its `settings.models`).
    public static func plan(
        for loaded: LoadedDevice, sensitivities: SensitivityOverrides, triggers: Set<EventTriggerType>?, explain: Bool
    ) -> AnalysisPlan {
        var settings = loaded.settings
        if let all = sensitivities.all { settings.defaultSensitivity = all }
        settings.sensitivity.merge(sensitivities.perTrigger) { _, new in new }
        var policy = loaded.policy
        if let triggers { policy = policy.narrowed(to: triggers) }
        return AnalysisPlan(policy: policy, settings: settings, explain: explain)
    }
}
