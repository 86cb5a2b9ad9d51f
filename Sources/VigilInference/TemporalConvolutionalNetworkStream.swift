/// Streaming evaluation of a ``TemporalConvolutionalNetwork``: frames in (their raw inputs), the
/// logit of decision `j` out once frame `4j +` ``TemporalConvolutionalNetwork/lookaheadFrames`` is in
/// (or the stream has ended). Each column of each layer is computed once; ring buffers, no
/// allocation per frame.
public final class TemporalConvolutionalNetworkStream {
    /// The network.
    public let network: TemporalConvolutionalNetwork
    private let h: Int
    private let c = TemporalConvolutionalNetwork.inputChannels
    /// Frames kept: those of the oldest column a decision still needs, its look-ahead, and up to 0.5 s of
    /// features' latency and a few transforms' frames beyond.
    private let frameCapacity: Int
    /// Columns kept per layer: a decision's pooling window and the convolutions' reach on both sides.
    private let columnCapacity: Int
    private var frames: [Float]
    private var layer1: [Float]
    private var layer2: [Float]
    private var layer3: [Float]
    private var pooled: [Float]
    private var dense: [Float]
    /// Frames received (index of the next frame).
    public private(set) var frameCount = 0
    private var ended = false
    private var next1: Int
    private var next2: Int
    private var next3: Int
    private var zeros: [Float]

    /// A stream for `network`.
    public init(network: TemporalConvolutionalNetwork) {
        self.network = network
        h = network.hidden
        frameCapacity = 4 * (network.poolHalfWidth + 4) + network.lookaheadFrames + 256
        columnCapacity = 2 * network.poolHalfWidth + 8
        frames = [Float](repeating: 0, count: frameCapacity * TemporalConvolutionalNetwork.inputChannels)
        layer1 = [Float](repeating: 0, count: columnCapacity * network.hidden)
        layer2 = [Float](repeating: 0, count: columnCapacity * network.hidden)
        layer3 = [Float](repeating: 0, count: columnCapacity * network.hidden)
        pooled = [Float](repeating: 0, count: 3 * network.hidden)
        dense = [Float](repeating: 0, count: network.hidden)
        zeros = [Float](repeating: 0, count: TemporalConvolutionalNetwork.inputChannels)
        let w = network.poolHalfWidth
        next3 = -w
        next2 = -w - 2
        next1 = -w - 3
    }

    /// Appends one frame's raw inputs (``TemporalConvolutionalNetwork/inputChannels`` values).
    public func append(_ raw: UnsafePointer<Float>) {
        let row = (frameCount % frameCapacity) * c
        network.inputMean.withUnsafeBufferPointer { mean in
            network.inputScale.withUnsafeBufferPointer { scale in
                for i in 0..<c { frames[row + i] = (raw[i] - mean[i]) * scale[i] }
            }
        }
        frameCount += 1
    }

    /// Appends one frame from its extractor columns (see ``TemporalConvolutionalNetwork/rawInputs(columns:melBands:into:)``).
    public func append(columns: UnsafePointer<Float>, melBands: Int) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: c) { buffer in
            TemporalConvolutionalNetwork.rawInputs(columns: columns, melBands: melBands, into: buffer.baseAddress!)
            append(buffer.baseAddress!)
        }
    }

    /// Marks the end of the stream: frames after the last are zeros.
    public func end() { ended = true }

    /// Whether decision `j`'s logit can be computed now.
    public func isReady(decision j: Int) -> Bool { ended || 4 * j + network.lookaheadFrames < frameCount }

    /// The logit of decision `j` (decisions must be asked in order; ``isReady(decision:)`` must hold).
    public func logit(decision j: Int) -> Float {
        precondition(isReady(decision: j), "decision \(j) asked before its frames")
        let w = network.poolHalfWidth
        while next1 <= j + w + 3 { computeLayer1(next1); next1 += 1 }
        while next2 <= j + w + 2 { computeLayer2(next2); next2 += 1 }
        while next3 <= j + w { computeLayer3(next3); next3 += 1 }
        let h = self.h
        return layer3.withUnsafeBufferPointer { l3 in
            pooled.withUnsafeMutableBufferPointer { p in
                for k in 0..<h {
                    p[k] = 0
                    p[h + k] = -.greatestFiniteMagnitude
                }
                for i in (j - w)...(j + w) {
                    let row = slot(i) * h
                    for k in 0..<h {
                        let v = l3[row + k]
                        p[k] += v
                        p[h + k] = max(p[h + k], v)
                    }
                }
                let n = Float(2 * w + 1)
                let centre = slot(j) * h
                for k in 0..<h {
                    p[k] /= n
                    p[2 * h + k] = l3[centre + k]
                }
                return dense.withUnsafeMutableBufferPointer { d in
                    network.weightsDense.withUnsafeBufferPointer { wd in
                        TemporalConvolutionalNetworkMath.affine(
                            input: UnsafeBufferPointer(p), weights: wd.baseAddress!, bias: network.biasDense, output: d.baseAddress!,
                            outputs: h, relu: true)
                    }
                    var out = network.biasOut
                    for k in 0..<h { out += network.weightsOut[k] * d[k] }
                    return out
                }
            }
        }
    }

    private func slot(_ column: Int) -> Int { ((column % columnCapacity) + columnCapacity) % columnCapacity }

    private func framePointer(_ f: Int, _ fr: UnsafePointer<Float>, _ z: UnsafePointer<Float>) -> UnsafePointer<Float> {
        if f < 0 || f >= frameCount { return z }
        precondition(f >= frameCount - frameCapacity, "frame \(f) asked after it was dropped: decide as the frames come")
        return fr + (f % frameCapacity) * c
    }

    private func computeLayer1(_ j: Int) {
        let h = self.h
        let c = self.c
        frames.withUnsafeBufferPointer { fr in
            zeros.withUnsafeBufferPointer { z in
                layer1.withUnsafeMutableBufferPointer { l1 in
                    network.weights1.withUnsafeBufferPointer { w1 in
                        let out = l1.baseAddress! + slot(j) * h
                        for k in 0..<h { out[k] = network.bias1[k] }
                        for k in 0..<TemporalConvolutionalNetwork.frameKernel {
                            let f = TemporalConvolutionalNetwork.frameStride * j - TemporalConvolutionalNetwork.frameStride + k
                            TemporalConvolutionalNetworkMath.accumulate(
                                input: framePointer(f, fr.baseAddress!, z.baseAddress!), count: c,
                                weights: w1.baseAddress! + k * c * h, into: out, outputs: h)
                        }
                        for k in 0..<h { out[k] = max(0, out[k]) }
                    }
                }
            }
        }
    }

    private func computeLayer2(_ j: Int) {
        convolve(from: &layer1, to: &layer2, weights: network.weights2, bias: network.bias2, column: j, dilation: 1)
    }

    private func computeLayer3(_ j: Int) {
        convolve(from: &layer2, to: &layer3, weights: network.weights3, bias: network.bias3, column: j, dilation: 2)
    }

    private func convolve(
        from source: inout [Float], to target: inout [Float], weights: [Float], bias: [Float], column j: Int, dilation: Int
    ) {
        let h = self.h
        source.withUnsafeBufferPointer { s in
            target.withUnsafeMutableBufferPointer { t in
                weights.withUnsafeBufferPointer { w in
                    let out = t.baseAddress! + slot(j) * h
                    for k in 0..<h { out[k] = bias[k] }
                    for k in 0..<3 {
                        TemporalConvolutionalNetworkMath.accumulate(
                            input: s.baseAddress! + slot(j + dilation * (k - 1)) * h, count: h, weights: w.baseAddress! + k * h * h,
                            into: out, outputs: h)
                    }
                    for k in 0..<h { out[k] = max(0, out[k]) }
                }
            }
        }
    }
}
