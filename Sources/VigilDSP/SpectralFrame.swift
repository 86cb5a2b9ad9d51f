/// One analysed STFT frame, handed to detectors.
///
/// The buffers are views into the transform's storage and are valid only during the
/// callback that receives the frame: copy what must outlive it.
public struct SpectralFrame {
    /// Frame number from 0.
    public let index: Int
    /// The transform's configuration.
    public let configuration: STFTConfiguration
    /// Power spectrum, `binCount` values, scaled so that a full-scale sine puts about 1.0
    /// (0 dB) into its peak bin (Hann window).
    public let power: UnsafeBufferPointer<Float>
    /// The frame's samples before windowing (`windowSize` values; the last frame is zero-padded).
    public let samples: UnsafeBufferPointer<Float>
    /// Mean square of the frame's samples (the zero padding of a last frame excluded).
    public let meanSquare: Float
    /// Number of the frame's samples that are the stream's (``STFTConfiguration/windowSize``, fewer in a
    /// zero-padded last frame).
    public let validCount: Int

    /// Media time of the frame's first sample, in seconds.
    public var startTime: Double { Double(index * configuration.hopSize) / configuration.sampleRate }
    /// Media time of the frame's centre, in seconds.
    public var centerTime: Double {
        (Double(index * configuration.hopSize) + Double(configuration.windowSize) / 2) / configuration.sampleRate
    }
    /// RMS level in dBFS (a full-scale square wave reads 0 dBFS, a full-scale sine −3 dBFS), floored at −120.
    public var levelDBFS: Float { meanSquare > 1e-12 ? 10 * log10f(meanSquare) : -120 }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
