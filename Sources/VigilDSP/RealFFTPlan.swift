import CFFTW3
import Foundation
import NIOConcurrencyHelpers

/// A reusable FFTW single-precision real-to-complex plan for one transform size.
///
/// Plans are created once per size by ``RealFFTPlan/shared(size:)`` under a process-wide
/// lock (the FFTW planner is not thread-safe) and then shared: executing a plan on
/// different arrays from several threads is safe (`fftwf_execute_dft_r2c`).
///
/// Plans use `FFTW_ESTIMATE`: `FFTW_MEASURE` chooses among algorithms by timing them, so two
/// runs on the same machine could pick different plans whose results differ in the last bits,
/// and results must be identical from run to run.
public final class RealFFTPlan: @unchecked Sendable {
    /// Transform length in samples.
    public let size: Int
    /// Number of complex output bins, `size / 2 + 1`.
    public var binCount: Int { size / 2 + 1 }

    private let plan: fftwf_plan

    /// The plans made so far, by size. Its lock also serializes the FFTW planner, which is not
    /// thread-safe.
    private static let cache = NIOLockedValueBox<[Int: RealFFTPlan]>([:])

    private init(size: Int) {
        precondition(size >= 2 && size <= 1 << 20, "FFT size \(size) out of range")
        self.size = size
        // Plan on scratch arrays with the same (fftwf_malloc) alignment as the buffers it runs on.
        let input = fftwf_alloc_real(size)!
        let output = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))!
    }

    /// The plan for `size`, created on first use under the planner lock and reused afterwards.
    public static func shared(size: Int) -> RealFFTPlan {
        cache.withLockedValue { cache in
            if let plan = cache[size] { return plan }
            let plan = RealFFTPlan(size: size)
            cache[size] = plan
            return plan
        }
    }

    /// Transforms `input` (`size` reals) into `output` (`binCount` interleaved re/im pairs,
    /// i.e. `2 * binCount` floats). Both buffers must come from ``FFTBuffer`` so that their
    /// alignment matches the plan's.
    public func execute(input: FFTBuffer, output: FFTBuffer) {
        precondition(input.count >= size && output.count >= 2 * binCount)
        output.base.withMemoryRebound(to: fftwf_complex.self, capacity: binCount) { out in
            fftwf_execute_dft_r2c(plan, input.base, out)
        }
    }
}

/// A float buffer allocated with `fftwf_malloc` (SIMD-aligned as FFTW requires for plan reuse).
public final class FFTBuffer {
    /// Start of the storage.
    public let base: UnsafeMutablePointer<Float>
    /// Number of floats.
    public let count: Int

    /// Allocates `count` zeroed floats.
    public init(count: Int) {
        self.count = count
        base = fftwf_alloc_real(max(count, 1))!
        base.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { fftwf_free(base) }

    /// The storage as a mutable buffer pointer.
    public var buffer: UnsafeMutableBufferPointer<Float> { UnsafeMutableBufferPointer(start: base, count: count) }
}
