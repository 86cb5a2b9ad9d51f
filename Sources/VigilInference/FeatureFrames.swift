import VigilDSP

/// The STFT frames a model's features are taken on (``SoundModel/frames``).
public enum FeatureFrames: String, Sendable, Hashable, CaseIterable {
    /// The shared STFT's frames (``STFTConfiguration/standard(sampleRate:)``): power-of-two frames of about
    /// 23 ms, 16 ms at 16 and 32 kHz.
    case shared
    /// Frames of 1024/44100 s (about 23.2 ms) with a hop of half that at every rate
    /// (``STFTConfiguration/fixedDuration(sampleRate:)``), so that a sound has the same frames whatever rate it
    /// was recorded at. At 11.025, 22.05 and 44.1 kHz these are the shared STFT's frames.
    case fixedDuration

    /// The frames' configuration at `sampleRate` Hz.
    public func configuration(sampleRate: Double) -> STFTConfiguration {
        switch self {
        case .shared: .standard(sampleRate: sampleRate)
        case .fixedDuration: .fixedDuration(sampleRate: sampleRate)
        }
    }

    /// The configuration the features are taken on when the incoming frames are of `incoming`: those frames
    /// themselves for ``shared``, else this kind's frames at their rate.
    public func configuration(incoming: STFTConfiguration) -> STFTConfiguration {
        self == .shared ? incoming : configuration(sampleRate: incoming.sampleRate)
    }
}
