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
