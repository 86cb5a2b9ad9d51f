/// Streaming short-time Fourier transform on FFTW (single precision, Hann window).
///
/// Push samples in blocks of any size; a ``SpectralFrame`` is delivered for every hop once a
/// full frame is available, so memory does not grow with the stream's length. Frame `k`
/// covers samples `k * hop ..< k * hop + windowSize`, zero-padded to `fftSize` for the transform. ``finish(_:)`` delivers one zero-padded
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
        let w = configuration.windowSize
        plan = RealFFTPlan.shared(size: n)
        window = (0..<w).map { i in Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(w))) }
        let windowSum = window.reduce(0, +)
        powerScale = (2 / windowSum) * (2 / windowSum)
        frame = FFTBuffer(count: w)
        windowed = FFTBuffer(count: n)
        windowed.base.update(repeating: 0, count: n)
        spectrum = FFTBuffer(count: 2 * (n / 2 + 1))
        power = FFTBuffer(count: n / 2 + 1)
    }

    /// Number of frames delivered so far.
    public var frameCount: Int { framesEmitted }

    /// Consumes `samples`, calling `body` for each completed frame.
    public func process(_ samples: UnsafeBufferPointer<Float>, _ body: (SpectralFrame) throws -> Void) rethrows {
        let n = configuration.windowSize
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
        let n = configuration.windowSize
        let covered = framesEmitted > 0 ? n - configuration.hopSize : 0
        guard filled > covered else { return }
        (frame.base + filled).update(repeating: 0, count: n - filled)
        try emit(validCount: filled, body)
        filled = 0
    }

    private func emit(validCount: Int, _ body: (SpectralFrame) throws -> Void) rethrows {
        let n = configuration.windowSize
        let bins = configuration.binCount
        let x = frame.base
        window.withUnsafeBufferPointer { w in
            let y = windowed.base
            for i in 0..<n { y[i] = x[i] * w[i] }  // element-wise: auto-vectorized; the rest stays zero
        }
        let sumSquares = Self.sumOfSquares(x, count: validCount)
        plan.execute(input: windowed, output: spectrum)
        Self.power(interleaved: spectrum.base, bins: bins, scale: powerScale, into: power.base)
        let result = SpectralFrame(
            index: framesEmitted, configuration: configuration,
            power: UnsafeBufferPointer(start: power.base, count: bins),
            samples: UnsafeBufferPointer(start: frame.base, count: n),
            meanSquare: validCount > 0 ? sumSquares / Float(validCount) : 0, validCount: validCount)
        framesEmitted += 1
        try body(result)
    }

    /// Sum of squares with eight SIMD accumulators (a reduction the compiler will not vectorize
    /// on its own under strict floating-point semantics).
    @inline(__always)
    static func sumOfSquares(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var accumulator = SIMD8<Float>(repeating: 0)
        var i = 0
        let raw = UnsafeRawPointer(x)
        while i + 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            accumulator += v * v  // not addingProduct: without FMA in the baseline target it becomes a libm fmaf call per lane
            i += 8
        }
        var total = accumulator.sum()
        while i < count {
            total += x[i] * x[i]
            i += 1
        }
        return total
    }

    /// |X|² · scale for `bins` interleaved complex values, eight at a time.
    @inline(__always)
    static func power(interleaved s: UnsafePointer<Float>, bins: Int, scale: Float, into p: UnsafeMutablePointer<Float>) {
        var k = 0
        let raw = UnsafeRawPointer(s)
        let factor = SIMD8<Float>(repeating: scale)
        while k + 8 <= bins {
            let pairs = raw.loadUnaligned(fromByteOffset: 2 * k * 4, as: SIMD16<Float>.self)
            let re = pairs.evenHalf
            let im = pairs.oddHalf
            let v = (re * re + im * im) * factor
            UnsafeMutableRawPointer(p + k).storeBytes(of: v, as: SIMD8<Float>.self)
            k += 8
        }
        while k < bins {
            let re = s[2 * k]
            let im = s[2 * k + 1]
            p[k] = (re * re + im * im) * scale
            k += 1
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
