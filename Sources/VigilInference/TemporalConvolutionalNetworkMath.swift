/// The network's inner loops, shared by the stream and the trainer so that both compute alike.
package enum TemporalConvolutionalNetworkMath {
    /// `into[o] += Σ_i input[i] * weights[i * outputs + o]`, in order of `i`.
    @inline(__always)
    package static func accumulate(
        input: UnsafePointer<Float>, count: Int, weights: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, outputs: Int
    ) {
        if outputs == 16 {
            var acc = UnsafeRawPointer(out).loadUnaligned(as: SIMD16<Float>.self)
            for i in 0..<count {
                acc += input[i] * UnsafeRawPointer(weights + i * 16).loadUnaligned(as: SIMD16<Float>.self)
            }
            UnsafeMutableRawPointer(out).storeBytes(of: acc, as: SIMD16<Float>.self)
            return
        }
        for i in 0..<count {
            let x = input[i]
            let row = weights + i * outputs
            for o in 0..<outputs { out[o] += x * row[o] }
        }
    }

    /// `output = bias + inputᵀ weights`, with ReLU when `relu`.
    @inline(__always)
    package static func affine(
        input: UnsafeBufferPointer<Float>, weights: UnsafePointer<Float>, bias: [Float], output: UnsafeMutablePointer<Float>,
        outputs: Int, relu: Bool
    ) {
        for o in 0..<outputs { output[o] = bias[o] }
        accumulate(input: input.baseAddress!, count: input.count, weights: weights, into: output, outputs: outputs)
        if relu { for o in 0..<outputs { output[o] = max(0, output[o]) } }
    }
}
