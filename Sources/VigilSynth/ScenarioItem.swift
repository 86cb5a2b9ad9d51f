/// One sound placed in a scenario (see docs/scenario-format.md): an alarm pattern, a tone,
/// a noise burst, speech-like babble or a clip from a file, with its start time, level and label.
public struct ScenarioItem: Sendable, Hashable {
    /// What kind of sound an item is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Temporal-three smoke alarm (three beeps, pause); labelled `smokeAlarm` by default.
        case t3
        /// Temporal-four CO alarm (four short beeps, long pause); labelled `coAlarm` by default.
        case t4
        /// Any other beep pattern (an imposter); unlabelled by default.
        case pattern
        /// One steady tone; labelled `sound` by default.
        case tone
        /// A noise burst; labelled `sound` by default.
        case noise
        /// Speech-like babble of several voices; unlabelled by default.
        case babble
        /// Samples from an audio file; unlabelled by default.
        case clip
    }

    /// The kind.
    public var kind: Kind
    /// Start in seconds.
    public var start: Double
    /// Length in seconds for tone, noise and babble (clips: the clip's own length; patterns: from the timing).
    public var duration: Double
    /// RMS level in dBFS (a full-scale sine is −3 dBFS). For clips: the level the clip is
    /// normalized to, or `nil` to keep its own level (then ``gain`` applies).
    public var level: Double?
    /// Extra gain in dB (clips).
    public var gain: Double
    /// Tone frequency in Hz (patterns and tones).
    public var frequency: Double
    /// Sine or band-limited square (patterns and tones).
    public var waveform: ScenarioWaveform
    /// Pattern cycles (groups of pulses).
    public var cycles: Int
    /// Pulses per group.
    public var pulses: Int
    /// Pulse length in seconds.
    public var on: Double
    /// Silence between pulses of a group, seconds.
    public var off: Double
    /// Silence after the last pulse of a group, seconds.
    public var groupOff: Double
    /// Relative timing jitter: every on and off duration is scaled by a seeded uniform factor in
    /// 1 ± jitter (0 = exact timing).
    public var jitter: Double
    /// Noise colour (noise items).
    public var colour: ScenarioNoiseColour
    /// Number of voices (babble items).
    public var voices: Int
    /// Clip file path as written in the scenario (clip items).
    public var path: String?
    /// Label written to the labels TSV; `nil`: not labelled.
    public var label: String?

    /// Creates an item; unspecified parameters take the defaults of a T3 alarm at −20 dBFS.
    public init(
        kind: Kind, start: Double, duration: Double = 0, level: Double? = -20, gain: Double = 0, frequency: Double = 3150,
        waveform: ScenarioWaveform = .sine, cycles: Int = 3, pulses: Int = 3, on: Double = 0.5, off: Double = 0.5,
        groupOff: Double = 1.5, jitter: Double = 0, colour: ScenarioNoiseColour = .white, voices: Int = 4,
        path: String? = nil, label: String? = nil
    ) {
        self.kind = kind
        self.start = start
        self.duration = duration
        self.level = level
        self.gain = gain
        self.frequency = frequency
        self.waveform = waveform
        self.cycles = cycles
        self.pulses = pulses
        self.on = on
        self.off = off
        self.groupOff = groupOff
        self.jitter = jitter
        self.colour = colour
        self.voices = voices
        self.path = path
        self.label = label
    }

    /// The default label of a kind: `smokeAlarm` for t3, `coAlarm` for t4, `sound` for tone
    /// and noise, none for the others.
    public static func defaultLabel(for kind: Kind) -> String? {
        switch kind {
        case .t3: return "smokeAlarm"
        case .t4: return "coAlarm"
        case .tone, .noise: return "sound"
        case .pattern, .babble, .clip: return nil
        }
    }

    /// Whether the item is a beep pattern (t3, t4, pattern).
    public var isPattern: Bool { kind == .t3 || kind == .t4 || kind == .pattern }

    /// The pulses of a pattern or tone in seconds (`start`, `end`), with the seeded timing
    /// jitter applied; `seed` is the item's own seed (see ``Scenario/itemSeed(_:)``).
    public func pulseSchedule(seed: UInt64) -> [(start: Double, end: Double)] {
        if kind == .tone { return [(start, start + duration)] }
        guard isPattern else { return [] }
        var generator = SeededGenerator(seed: seed)
        func jittered(_ value: Double) -> Double {
            guard jitter > 0 else { return value }
            return value * (1 + jitter * Double(generator.nextSignedUnit()))
        }
        var result: [(start: Double, end: Double)] = []
        result.reserveCapacity(cycles * pulses)
        var t = start
        for _ in 0..<cycles {
            for p in 0..<pulses {
                let length = jittered(on)
                result.append((t, t + length))
                t += length + jittered(p == pulses - 1 ? groupOff : off)
            }
        }
        return result
    }
}

/// The wave shape of a tone or pattern.
public enum ScenarioWaveform: String, Sendable, Hashable, CaseIterable {
    /// A sine.
    case sine
    /// A band-limited square (odd harmonics below Nyquist).
    case square
}

/// The spectral colour of a noise.
public enum ScenarioNoiseColour: String, Sendable, Hashable, CaseIterable {
    /// Flat spectrum.
    case white
    /// −3 dB per octave.
    case pink
    /// −6 dB per octave.
    case brown
}
