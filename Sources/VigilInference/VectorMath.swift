/// Dot product of `n` floats with 8 independent partial sums (SIMD-friendly, fixed order).
@inline(__always)
func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
    var acc = SIMD8<Float>(repeating: 0)
    var i = 0
    while i + 8 <= n {
        let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
        let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
        acc += x * y
        i += 8
    }
    var tail: Float = 0
    while i < n {
        tail += a[i] * b[i]
        i += 1
    }
    return acc.sum() + tail
}
