/// Frame and hop sizes of a short-time Fourier transform at a given sample rate.
public struct STFTConfiguration: Sendable, Hashable {
    /// Samples per second of the analysed signal.
    public var sampleRate: Double
    /// Transform length in samples (a power of two).
    public var fftSize: Int
    /// Samples between the starts of consecutive frames.
    public var hopSize: Int
    /// Samples in one frame (the Hann window's length); the transform zero-pads them to ``fftSize``.
    public var windowSize: Int

    /// Creates a configuration; `fftSize` must be a power of two, `windowSize` in 16...fftSize (default
    /// `fftSize`) and `hopSize` in 1...windowSize.
    public init(sampleRate: Double, fftSize: Int, hopSize: Int, windowSize: Int? = nil) {
        let windowSize = windowSize ?? fftSize
        precondition(sampleRate > 0, "sample rate must be positive")
        precondition(fftSize >= 16 && fftSize & (fftSize - 1) == 0, "fftSize must be a power of two >= 16")
        precondition(windowSize >= 16 && windowSize <= fftSize, "windowSize must be in 16...fftSize")
        precondition(hopSize >= 1 && hopSize <= windowSize, "hopSize must be in 1...windowSize")
        self.sampleRate = sampleRate
        self.fftSize = fftSize
        self.hopSize = hopSize
        self.windowSize = windowSize
    }

    /// Frames of 1024 / 44100 s (about 23.2 ms) and a hop
    /// of half that at every rate, zero-padded to the next power of two, so that a sound has the same frames
    /// whatever rate it was recorded at (at 11.025, 22.05 and 44.1 kHz this is ``standard(sampleRate:)``); the
    /// features of a model that names `fixedDuration` frames are taken on them.
    public static func fixedDuration(sampleRate: Double) -> STFTConfiguration {
        let window = max(16, Int((sampleRate * 1024 / 44_100).rounded()))
        let hop = max(1, Int((sampleRate * 512 / 44_100).rounded()))
        var size = 16
        while size < window { size *= 2 }
        return STFTConfiguration(sampleRate: sampleRate, fftSize: size, hopSize: hop, windowSize: window)
    }

    /// The shared analysis STFT used by every sound detector: frames of about 23 ms
    /// (the power of two nearest to 0.0232 s of samples, at least 256 for frequency resolution:
    /// 256 at 8 and 16 kHz, 512 at 22.05 kHz, 1024 at 44.1 and 48 kHz, 2048 at 96 kHz, 4096 at 192 kHz)
    /// with 50 % overlap.
    public static func standard(sampleRate: Double) -> STFTConfiguration {
        let target = sampleRate * 0.0232
        var size = 16
        while Double(size * 2) <= target { size *= 2 }
        if target - Double(size) > Double(size * 2) - target { size *= 2 }
        size = max(size, 256)
        return STFTConfiguration(sampleRate: sampleRate, fftSize: size, hopSize: size / 2)
    }

    /// Number of spectrum bins, `fftSize / 2 + 1`.
    public var binCount: Int { fftSize / 2 + 1 }
    /// Width of one bin in Hz.
    public var binWidth: Double { sampleRate / Double(fftSize) }
    /// Duration of one hop in seconds (the frame period).
    public var hopDuration: Double { Double(hopSize) / sampleRate }

    /// The bin nearest to `frequency` Hz, clamped to the spectrum.
    public func bin(forFrequency frequency: Double) -> Int {
        min(max(Int((frequency / binWidth).rounded()), 0), binCount - 1)
    }
}
