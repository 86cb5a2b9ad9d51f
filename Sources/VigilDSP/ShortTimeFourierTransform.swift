/// Streaming short-time Fourier transform on FFTW (single precision, Hann window).
///
/// Push samples in blocks of any size; a ``SpectralFrame`` is delivered for every hop once a
/// full frame is available, so memory does not grow with the stream's length. Frame `k`
/// covers samples `k * hop ..< k * hop + fftSize`. ``finish(_:)`` delivers one zero-padded
/// frame for samples not yet covered. One instance per stream; not thread-safe.
public final class ShortTimeFourierTransform {
    /// The configuration.
    public let configuration: STFTConfiguration
    private let plan: RealFFTPlan
    private let window: [Float]
    private let powerScale: Float
    private let frame: FFTBuffer  // unwindowed samples of the current frame
    private let windowed: FFTBuffer
    private let spectrum: FFTBuffer
    private let power: FFTBuffer
    private var filled = 0
    private var framesEmitted = 0

    /// Creates a transform; its FFTW plan is shared with every other transform of the same size.
    public init(configuration: STFTConfiguration) {
        self.configuration = configuration
        let n = configuration.fftSize
        plan = RealFFTPlan.shared(size: n)
        window = (0..<n).map { i in Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))) }
        let windowSum = window.reduce(0, +)
        powerScale = (2 / windowSum) * (2 / windowSum)
        frame = FFTBuffer(count: n)
        windowed = FFTBuffer(count: n)
        spectrum = FFTBuffer(count: 2 * (n / 2 + 1))
        power = FFTBuffer(count: n / 2 + 1)
    }

    /// Number of frames delivered so far.
    public var frameCount: Int { framesEmitted }

    /// Consumes `samples`, calling `body` for each completed frame.
    public func process(_ samples: UnsafeBufferPointer<Float>, _ body: (SpectralFrame) throws -> Void) rethrows {
        let n = configuration.fftSize
        var offset = 0
        while offset < samples.count {
            let take = min(n - filled, samples.count - offset)
            (frame.base + filled).update(from: samples.baseAddress! + offset, count: take)
            filled += take
            offset += take
            if filled == n {
                try emit(validCount: n, body)
                let hop = configuration.hopSize
                (frame.base).update(from: frame.base + hop, count: n - hop)
                filled = n - hop
            }
        }
    }

    /// Delivers a last, zero-padded frame if samples remain that no frame has covered as new samples.
    public func finish(_ body: (SpectralFrame) throws -> Void) rethrows {
        let n = configuration.fftSize
        let covered = framesEmitted > 0 ? n - configuration.hopSize : 0
        guard filled > covered else { return }
        (frame.base + filled).update(repeating: 0, count: n - filled)
        try emit(validCount: filled, body)
        filled = 0
    }

    private func emit(validCount: Int, _ body: (SpectralFrame) throws -> Void) rethrows {
        let n = configuration.fftSize
        let bins = n / 2 + 1
        var sumSquares: Float = 0
        window.withUnsafeBufferPointer { w in
            let x = frame.base
            let y = windowed.base
            for i in 0..<n {
                let v = x[i]
                y[i] = v * w[i]
            }
            for i in 0..<validCount { sumSquares += x[i] * x[i] }
        }
        plan.execute(input: windowed, output: spectrum)
        let s = spectrum.base
        let p = power.base
        let scale = powerScale
        for k in 0..<bins {
            let re = s[2 * k]
            let im = s[2 * k + 1]
            p[k] = (re * re + im * im) * scale
        }
        let result = SpectralFrame(
            index: framesEmitted, configuration: configuration,
            power: UnsafeBufferPointer(start: p, count: bins),
            samples: UnsafeBufferPointer(start: frame.base, count: n),
            meanSquare: validCount > 0 ? sumSquares / Float(validCount) : 0)
        framesEmitted += 1
        try body(result)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
