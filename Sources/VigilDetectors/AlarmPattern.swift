import VigilCore

/// The timing of an audible alarm pattern: groups of `pulses` beeps, `onDuration` seconds on and
/// `offDuration` seconds off, repeating every `cycle` seconds (first beep onset to first beep onset).
///
/// ``temporalThree`` is the smoke alarm (ISO 8201 / ANSI S3.41 / NFPA 72) and ``temporalFour`` the
/// CO alarm (UL 2034 / NFPA 720).
public struct AlarmPattern: Sendable, Hashable {
    /// The trigger a confirmed pattern is reported as.
    public var trigger: EventTriggerType
    /// A short name for evidence and logs ("T3", "T4").
    public var name: String
    /// Beeps per group (3 for T3, 4 for T4).
    public var pulses: Int
    /// Nominal beep duration in seconds.
    public var onDuration: Double
    /// Nominal silence between the beeps of a group in seconds.
    public var offDuration: Double
    /// Nominal cycle in seconds: first onset of a group to the first onset of the next group.
    public var cycle: Double

    /// Creates a pattern.
    public init(
        trigger: EventTriggerType, name: String, pulses: Int, onDuration: Double, offDuration: Double, cycle: Double
    ) {
        precondition(pulses >= 2 && pulses <= 8, "pulses must be in 2...8")
        precondition(onDuration > 0 && offDuration > 0, "durations must be positive")
        precondition(cycle > Double(pulses) * (onDuration + offDuration), "cycle too short for its pulses")
        self.trigger = trigger
        self.name = name
        self.pulses = pulses
        self.onDuration = onDuration
        self.offDuration = offDuration
        self.cycle = cycle
    }

    /// Onset-to-onset interval of the beeps within a group.
    public var period: Double { onDuration + offDuration }

    /// Smoke alarm, temporal-three: 3 × (0.5 s on, 0.5 s off), 1.5 s more off; cycle 4 s.
    public static let temporalThree = AlarmPattern(
        trigger: .smokeAlarm, name: "T3", pulses: 3, onDuration: 0.5, offDuration: 0.5, cycle: 4.0)

    /// CO alarm, temporal-four: 4 × (0.1 s on, 0.1 s off), then 5 s off; cycle 5.8 s.
    public static let temporalFour = AlarmPattern(
        trigger: .coAlarm, name: "T4", pulses: 4, onDuration: 0.1, offDuration: 0.1, cycle: 5.8)
}
