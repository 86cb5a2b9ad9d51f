/// SplitMix64: a small deterministic random number generator for training (fixed seed,
/// same sequence on every platform).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from `seed`.
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func nextUnit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    /// Uniform integer in 0..<bound (bound > 0), without modulo bias worth caring about here.
    package mutating func nextIndex(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Standard normal (Box-Muller).
    package mutating func nextGaussian() -> Double {
        let u1 = max(nextUnit(), 1e-300)
        let u2 = nextUnit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }
}

/// FNV-1a 64-bit hash, used for data hashes and the deterministic split.
package struct FNV1a64: Sendable {
    /// The running hash value.
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// A new hash.
    package init() {}

    /// Mixes `bytes` into the hash.
    package mutating func combine<S: Sequence<UInt8>>(_ bytes: S) {
        for b in bytes {
            value ^= UInt64(b)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    /// Mixes the UTF-8 of `string` into the hash.
    package mutating func combine(_ string: String) { combine(string.utf8) }

    /// Mixes the bit pattern of `x` into the hash.
    package mutating func combine(_ x: Float) {
        var b = x.bitPattern
        for _ in 0..<4 {
            combine(CollectionOfOne(UInt8(truncatingIfNeeded: b)))
            b >>= 8
        }
    }

    /// Hash of a string.
    package static func hash(_ string: String) -> UInt64 {
        var h = FNV1a64()
        h.combine(string)
        return h.value
    }

    /// 16 lowercase hex digits.
    package var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

#if canImport(Glibc)
    import Glibc
    @inline(__always) func _log(_ x: Double) -> Double { Glibc.log(x) }
    @inline(__always) func _cos(_ x: Double) -> Double { Glibc.cos(x) }
#elseif canImport(Darwin)
    import Darwin
    @inline(__always) func _log(_ x: Double) -> Double { Darwin.log(x) }
    @inline(__always) func _cos(_ x: Double) -> Double { Darwin.cos(x) }
#endif
