/// Frame and hop sizes of a short-time Fourier transform at a given sample rate.
public struct STFTConfiguration: Sendable, Hashable {
    /// Samples per second of the analysed signal.
    public var sampleRate: Double
    /// Transform length in samples (a power of two).
    public var fftSize: Int
    /// Samples between the starts of consecutive frames.
    public var hopSize: Int

    /// Creates a configuration; `fftSize` must be a power of two and `hopSize` in 1...fftSize.
    public init(sampleRate: Double, fftSize: Int, hopSize: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        precondition(fftSize >= 16 && fftSize & (fftSize - 1) == 0, "fftSize must be a power of two >= 16")
        precondition(hopSize >= 1 && hopSize <= fftSize, "hopSize must be in 1...fftSize")
        self.sampleRate = sampleRate
        self.fftSize = fftSize
        self.hopSize = hopSize
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
