/// The scene's bed under every item: steady noise and/or speech-like babble over the whole duration.
public struct ScenarioBackground: Sendable, Hashable {
    /// Noise RMS level in dBFS; `nil`: no background noise.
    public var noiseLevel: Double?
    /// Noise colour.
    public var noiseColour: ScenarioNoiseColour
    /// Babble RMS level in dBFS; `nil`: no babble.
    public var babbleLevel: Double?
    /// Babble voices.
    public var babbleVoices: Int

    /// Creates a background (silence by default).
    public init(
        noiseLevel: Double? = nil, noiseColour: ScenarioNoiseColour = .white, babbleLevel: Double? = nil, babbleVoices: Int = 4
    ) {
        self.noiseLevel = noiseLevel
        self.noiseColour = noiseColour
        self.babbleLevel = babbleLevel
        self.babbleVoices = babbleVoices
    }
}
