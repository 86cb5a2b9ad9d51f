import VigilCore
import VigilInference

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Settings of a ``TemporalConvolutionalNetwork``'s training.
package struct NetworkTrainingOptions: Sendable, Hashable {
    /// Channels of every hidden layer.
    package var hidden = 16
    /// Columns pooled on each side of a decision.
    package var poolHalfWidth = 6
    /// Passes over the training decisions.
    package var epochs = 30
    /// Adam's step size at the start (it decays to 5 % of this along a cosine).
    package var learningRate: Float = 0.003
    /// Decoupled weight decay per step, relative to the step size (AdamW; not on biases).
    package var weightDecay: Float = 0.0001
    /// Consecutive decisions of one recording per chunk (a chunk's columns are computed once).
    package var chunkDecisions = 64
    /// Chunks per step.
    package var batchChunks = 8
    /// The largest weight of a positive decision relative to a negative one (the weight balances the classes up to it).
    package var maxPositiveWeight: Float = 4
    /// Creates default options.
    package init() {}
}

/// Trains a ``TemporalConvolutionalNetwork`` on whole recordings: every decision with a weight
/// above 0 is a training example whose target is 0 or 1. Deterministic (SplitMix64 from the seed,
/// fixed order of chunks and of arithmetic).
///
/// Recordings are cut into chunks of consecutive decisions; a chunk's columns are computed once for all of its
/// decisions (forward and backward, by hand), and a step averages the weighted logistic loss over a batch of
/// chunks. Adam with decoupled weight decay, cosine-decayed step size, He-uniform initial weights, the output
/// bias at the training prior's logit.
package enum TemporalConvolutionalNetworkTrainer {
    /// One recording's training material.
    package struct Sequence: Sendable {
        /// Raw per-frame inputs (``TemporalConvolutionalNetwork/inputChannels`` per frame).
        package var inputs: [Float]
        /// Target of each decision (0 or 1); decision `j` is centred on frame `4j`.
        package var targets: [Float]
        /// Weight of each decision (0: left out).
        package var weights: [Float]

        /// Creates a sequence.
        package init(inputs: [Float], targets: [Float], weights: [Float]) {
            self.inputs = inputs
            self.targets = targets
            self.weights = weights
        }
    }

    /// Offsets of the parameter arrays in the flat parameter vector, in ``TemporalConvolutionalNetwork/parameterArrays`` order, then `biasOut`.
    static func offsets(hidden: Int) -> [Int] {
        var o = [0]
        for s in TemporalConvolutionalNetwork.shapes(hidden: hidden) { o.append(o.last! + s) }
        return o
    }

    /// The weighted logistic loss of `network` over every decision of `sequence` (each weighted, positives also by
    /// `positiveWeight`), and its gradient with respect to every parameter, flat in ``TemporalConvolutionalNetwork/parameterArrays``
    /// order followed by `biasOut`. The inputs are standardised with the network's own standardisation.
    package static func lossAndGradient(network: TemporalConvolutionalNetwork, sequence: Sequence, positiveWeight: Float = 1)
        -> (loss: Float, gradient: [Float])
    {
        let c = TemporalConvolutionalNetwork.inputChannels
        var x = sequence.inputs
        for k in 0..<x.count { x[k] = (x[k] - network.inputMean[k % c]) * network.inputScale[k % c] }
        let theta = Array(network.parameterArrays.joined()) + [network.biasOut]
        let offsets = Self.offsets(hidden: network.hidden)
        var gradient = [Float](repeating: 0, count: theta.count)
        let workspace = Workspace(hidden: network.hidden, poolHalfWidth: network.poolHalfWidth, chunkDecisions: sequence.targets.count)
        let loss = workspace.accumulateGradient(
            theta: theta, offsets: offsets, inputs: x, targets: sequence.targets, weights: sequence.weights, start: 0,
            end: sequence.targets.count, positiveWeight: positiveWeight, scale: 1, gradient: &gradient)
        return (loss, gradient)
    }

    /// Trains a network on `sequences`.
    package static func train(sequences: [Sequence], options: NetworkTrainingOptions = NetworkTrainingOptions(), seed: UInt64)
        -> TemporalConvolutionalNetwork
    {
        let c = TemporalConvolutionalNetwork.inputChannels
        let h = options.hidden
        var network = TemporalConvolutionalNetwork(hidden: h, poolHalfWidth: options.poolHalfWidth)
        // Standardisation over every frame.
        var sum = [Double](repeating: 0, count: c)
        var squares = [Double](repeating: 0, count: c)
        var frames = 0
        for s in sequences {
            let n = s.inputs.count / c
            frames += n
            for f in 0..<n {
                for i in 0..<c {
                    let v = Double(s.inputs[f * c + i])
                    sum[i] += v
                    squares[i] += v * v
                }
            }
        }
        if frames > 0 {
            for i in 0..<c {
                let mean = sum[i] / Double(frames)
                let sd = (max(0, squares[i] / Double(frames) - mean * mean)).squareRoot()
                network.inputMean[i] = Float(mean)
                network.inputScale[i] = Float(1 / max(sd, 1e-3))
            }
        }
        let standardised: [[Float]] = sequences.map { s in
            var x = s.inputs
            for k in 0..<x.count { x[k] = (x[k] - network.inputMean[k % c]) * network.inputScale[k % c] }
            return x
        }
        // Class balance.
        var positives: Float = 0
        var negatives: Float = 0
        for s in sequences {
            for (t, w) in zip(s.targets, s.weights) where w > 0 {
                if t > 0.5 { positives += w } else { negatives += w }
            }
        }
        let positiveWeight = positives > 0 ? min(options.maxPositiveWeight, max(1, negatives / positives)) : 1
        let offsets = Self.offsets(hidden: h)
        let count = offsets.last! + 1
        var rng = SplitMix64(seed: seed)
        var theta = [Float](repeating: 0, count: count)
        let fanIns = [TemporalConvolutionalNetwork.frameKernel * c, 0, 3 * h, 0, 3 * h, 0, 3 * h, 0, h]
        for (k, fanIn) in fanIns.enumerated() where fanIn > 0 {
            let a = Float((6 / Double(fanIn)).squareRoot()) * (k == 8 ? 0.5 : 1)
            for i in offsets[k]..<offsets[k + 1] { theta[i] = Float(2 * rng.nextUnit() - 1) * a }
        }
        let prior = (positives * positiveWeight) / max(1e-9, positives * positiveWeight + negatives)
        theta[count - 1] = positives > 0 && negatives > 0 ? logf(prior / (1 - prior)) : 0
        // Chunks with something to learn.
        var chunks: [(sequence: Int, start: Int, end: Int)] = []
        for (i, s) in sequences.enumerated() {
            var start = 0
            while start < s.targets.count {
                let end = min(s.targets.count, start + options.chunkDecisions)
                if s.weights[start..<end].contains(where: { $0 > 0 }) { chunks.append((i, start, end)) }
                start = end
            }
        }
        guard !chunks.isEmpty else {
            network.setParameterArrays((0..<9).map { Array(theta[offsets[$0]..<offsets[$0 + 1]]) })
            network.biasOut = theta[count - 1]
            return network
        }
        let workspace = Workspace(hidden: h, poolHalfWidth: options.poolHalfWidth, chunkDecisions: options.chunkDecisions)
        var gradient = [Float](repeating: 0, count: count)
        var m = [Float](repeating: 0, count: count)
        var v = [Float](repeating: 0, count: count)
        let isWeight = (0..<count).map { i in [0, 2, 4, 6, 8].contains { offsets[$0] <= i && i < offsets[$0 + 1] } }
        let stepsPerEpoch = (chunks.count + options.batchChunks - 1) / options.batchChunks
        let totalSteps = max(1, stepsPerEpoch * options.epochs)
        var step = 0
        let beta1: Float = 0.9
        let beta2: Float = 0.999
        for _ in 0..<options.epochs {
            // Fisher-Yates with the seed's generator.
            for i in stride(from: chunks.count - 1, to: 0, by: -1) { chunks.swapAt(i, rng.nextIndex(below: i + 1)) }
            var b = 0
            while b < chunks.count {
                let batch = chunks[b..<min(chunks.count, b + options.batchChunks)]
                b += options.batchChunks
                for i in 0..<count { gradient[i] = 0 }
                var batchWeight: Float = 0
                for chunk in batch {
                    let s = sequences[chunk.sequence]
                    for j in chunk.start..<chunk.end where s.weights[j] > 0 {
                        batchWeight += s.weights[j] * (s.targets[j] > 0.5 ? positiveWeight : 1)
                    }
                }
                guard batchWeight > 0 else { continue }
                for chunk in batch {
                    let s = sequences[chunk.sequence]
                    workspace.accumulateGradient(
                        theta: theta, offsets: offsets, inputs: standardised[chunk.sequence], targets: s.targets, weights: s.weights,
                        start: chunk.start, end: chunk.end, positiveWeight: positiveWeight, scale: 1 / batchWeight,
                        gradient: &gradient)
                }
                step += 1
                let progress = Double(step - 1) / Double(totalSteps)
                let rate = options.learningRate * Float(0.05 + 0.95 * 0.5 * (1 + cos(Double.pi * progress)))
                let c1 = 1 - powf(beta1, Float(step))
                let c2 = 1 - powf(beta2, Float(step))
                for i in 0..<count {
                    let g = gradient[i]
                    m[i] = beta1 * m[i] + (1 - beta1) * g
                    v[i] = beta2 * v[i] + (1 - beta2) * g * g
                    if isWeight[i] { theta[i] -= rate * options.weightDecay * theta[i] }
                    theta[i] -= rate * (m[i] / c1) / ((v[i] / c2).squareRoot() + 1e-8)
                }
            }
        }
        network.setParameterArrays((0..<9).map { Array(theta[offsets[$0]..<offsets[$0 + 1]]) })
        network.biasOut = theta[count - 1]
        return network
    }

    /// Activations and their gradients for one chunk (allocated once, freed with the workspace).
    final class Workspace {
        let h: Int
        let w: Int
        let c = TemporalConvolutionalNetwork.inputChannels
        private let buffer: UnsafeMutableBufferPointer<Float>
        let a1: UnsafeMutablePointer<Float>
        let a2: UnsafeMutablePointer<Float>
        let a3: UnsafeMutablePointer<Float>
        let d1: UnsafeMutablePointer<Float>
        let d2: UnsafeMutablePointer<Float>
        let d3: UnsafeMutablePointer<Float>
        let pooled: UnsafeMutablePointer<Float>
        let dense: UnsafeMutablePointer<Float>
        let dPooled: UnsafeMutablePointer<Float>
        let dDense: UnsafeMutablePointer<Float>
        let zeros: UnsafeMutablePointer<Float>
        let columnValues: Int

        init(hidden: Int, poolHalfWidth: Int, chunkDecisions: Int) {
            h = hidden
            w = poolHalfWidth
            columnValues = (chunkDecisions + 2 * poolHalfWidth + 6) * hidden
            buffer = .allocate(capacity: 6 * columnValues + 8 * hidden + c)
            buffer.initialize(repeating: 0)
            let base = buffer.baseAddress!
            a1 = base
            a2 = base + columnValues
            a3 = base + 2 * columnValues
            d1 = base + 3 * columnValues
            d2 = base + 4 * columnValues
            d3 = base + 5 * columnValues
            pooled = base + 6 * columnValues
            dPooled = pooled + 3 * hidden
            dense = dPooled + 3 * hidden
            dDense = dense + hidden
            zeros = dDense + hidden
        }

        deinit { buffer.deallocate() }

        /// Adds `scale` × the gradient of the weighted logistic loss of decisions `start..<end` of one recording
        /// (standardised `inputs`) to `gradient`, at the parameters `theta`; returns `scale` × that loss.
        @discardableResult
        func accumulateGradient(
            theta: [Float], offsets: [Int], inputs: [Float], targets: [Float], weights: [Float], start: Int, end: Int,
            positiveWeight: Float, scale: Float, gradient: inout [Float]
        ) -> Float {
            theta.withUnsafeBufferPointer { t in
                gradient.withUnsafeMutableBufferPointer { g in
                    inputs.withUnsafeBufferPointer { x in
                        accumulateGradient(
                            t.baseAddress!, offsets, x, targets, weights, start, end, positiveWeight, scale, g.baseAddress!)
                    }
                }
            }
        }

        private func accumulateGradient(
            _ tp: UnsafePointer<Float>, _ offsets: [Int], _ x: UnsafeBufferPointer<Float>, _ targets: [Float], _ weights: [Float],
            _ start: Int, _ end: Int, _ positiveWeight: Float, _ scale: Float, _ gp: UnsafeMutablePointer<Float>
        ) -> Float {
            let h = self.h
            let w = self.w
            let c = self.c
            let frameCount = x.count / c
            // Layer 1 holds columns first1 ..< first1 + n1, layer 2 from first1 + 1, layer 3 from first1 + 3.
            let first1 = start - w - 3
            let n1 = (end - start) + 2 * w + 6
            let n2 = n1 - 2
            let n3 = n2 - 4
            let stride = TemporalConvolutionalNetwork.frameStride
            func frame(_ f: Int) -> UnsafePointer<Float> {
                f < 0 || f >= frameCount ? UnsafePointer(zeros) : x.baseAddress! + f * c
            }
            for i in 0..<n1 {
                let j = first1 + i
                let out = a1 + i * h
                for k in 0..<h { out[k] = tp[offsets[1] + k] }
                for k in 0..<TemporalConvolutionalNetwork.frameKernel {
                    TemporalConvolutionalNetworkMath.accumulate(
                        input: frame(stride * j - stride + k), count: c, weights: tp + offsets[0] + k * c * h, into: out, outputs: h)
                }
                for k in 0..<h { out[k] = max(0, out[k]) }
            }
            convolve(a1, a2, count: n2, dilation: 1, sourceOffset: 1, weights: tp + offsets[2], bias: tp + offsets[3])
            convolve(a2, a3, count: n3, dilation: 2, sourceOffset: 2, weights: tp + offsets[4], bias: tp + offsets[5])
            for i in 0..<(n1 * h) {
                d1[i] = 0
                d2[i] = 0
                d3[i] = 0
            }
            // Per decision: pooling, dense layer and output, then the way back to layer 3.
            let n = Float(2 * w + 1)
            var loss: Float = 0
            for j in start..<end where weights[j] > 0 {
                let lo = j - start
                for k in 0..<h {
                    pooled[k] = 0
                    pooled[h + k] = -.greatestFiniteMagnitude
                }
                for i in lo...(lo + 2 * w) {
                    for k in 0..<h {
                        let v = a3[i * h + k]
                        pooled[k] += v
                        pooled[h + k] = max(pooled[h + k], v)
                    }
                }
                let centre = lo + w
                for k in 0..<h {
                    pooled[k] /= n
                    pooled[2 * h + k] = a3[centre * h + k]
                }
                for k in 0..<h { dense[k] = tp[offsets[7] + k] }
                TemporalConvolutionalNetworkMath.accumulate(
                    input: pooled, count: 3 * h, weights: tp + offsets[6], into: dense, outputs: h)
                for k in 0..<h { dense[k] = max(0, dense[k]) }
                var logit = tp[offsets[9]]
                for k in 0..<h { logit += tp[offsets[8] + k] * dense[k] }
                let probability = 1 / (1 + expf(-logit))
                let weight = weights[j] * (targets[j] > 0.5 ? positiveWeight : 1) * scale
                let dLogit = weight * (probability - targets[j])
                // log(1 + e^-z) for the target 1, log(1 + e^z) for 0, without overflow.
                let signed = targets[j] > 0.5 ? -logit : logit
                loss += weight * (max(0, signed) + log1pf(expf(-abs(signed))))
                gp[offsets[9]] += dLogit
                for k in 0..<h {
                    gp[offsets[8] + k] += dLogit * dense[k]
                    dDense[k] = dense[k] > 0 ? dLogit * tp[offsets[8] + k] : 0
                    gp[offsets[7] + k] += dDense[k]
                }
                for r in 0..<(3 * h) {
                    var s: Float = 0
                    for k in 0..<h {
                        gp[offsets[6] + r * h + k] += pooled[r] * dDense[k]
                        s += tp[offsets[6] + r * h + k] * dDense[k]
                    }
                    dPooled[r] = s
                }
                for k in 0..<h {
                    let meanShare = dPooled[k] / n
                    var argmax = lo
                    for i in lo...(lo + 2 * w) {
                        d3[i * h + k] += meanShare
                        if a3[i * h + k] > a3[argmax * h + k] { argmax = i }
                    }
                    d3[argmax * h + k] += dPooled[h + k]
                    d3[centre * h + k] += dPooled[2 * h + k]
                }
            }
            convolveBack(
                a2, a3, d2, d3, count: n3, dilation: 2, sourceOffset: 2, weights: tp + offsets[4], weightGradient: gp + offsets[4],
                biasGradient: gp + offsets[5])
            convolveBack(
                a1, a2, d1, d2, count: n2, dilation: 1, sourceOffset: 1, weights: tp + offsets[2], weightGradient: gp + offsets[2],
                biasGradient: gp + offsets[3])
            // Layer 1's weights and biases.
            for i in 0..<n1 {
                let d = d1 + i * h
                guard passesReLU(a1 + i * h, d) else { continue }
                for k in 0..<h { gp[offsets[1] + k] += d[k] }
                let j = first1 + i
                for k in 0..<TemporalConvolutionalNetwork.frameKernel {
                    let f = stride * j - stride + k
                    guard f >= 0 && f < frameCount else { continue }
                    outer(x.baseAddress! + f * c, count: c, d, into: gp + offsets[0] + k * c * h)
                }
            }
            return loss
        }

        /// `target[i] = relu(bias + Σ_k W[k]ᵀ source[i + sourceOffset + dilation (k - 1)])` for `count` columns.
        private func convolve(
            _ source: UnsafeMutablePointer<Float>, _ target: UnsafeMutablePointer<Float>, count: Int, dilation: Int, sourceOffset: Int,
            weights: UnsafePointer<Float>, bias: UnsafePointer<Float>
        ) {
            let h = self.h
            for i in 0..<count {
                let out = target + i * h
                for k in 0..<h { out[k] = bias[k] }
                for k in 0..<3 {
                    TemporalConvolutionalNetworkMath.accumulate(
                        input: source + (i + sourceOffset + dilation * (k - 1)) * h, count: h, weights: weights + k * h * h, into: out,
                        outputs: h)
                }
                for k in 0..<h { out[k] = max(0, out[k]) }
            }
        }

        /// The backward pass of ``convolve``: `targetGradient` (zeroed where the ReLU was off) into the weight and
        /// bias gradients and into `sourceGradient`.
        private func convolveBack(
            _ source: UnsafeMutablePointer<Float>, _ target: UnsafeMutablePointer<Float>, _ sourceGradient: UnsafeMutablePointer<Float>,
            _ targetGradient: UnsafeMutablePointer<Float>, count: Int, dilation: Int, sourceOffset: Int, weights: UnsafePointer<Float>,
            weightGradient: UnsafeMutablePointer<Float>, biasGradient: UnsafeMutablePointer<Float>
        ) {
            let h = self.h
            for i in 0..<count {
                let d = targetGradient + i * h
                guard passesReLU(target + i * h, d) else { continue }
                for k in 0..<h { biasGradient[k] += d[k] }
                for k in 0..<3 {
                    let s = source + (i + sourceOffset + dilation * (k - 1)) * h
                    let ds = sourceGradient + (i + sourceOffset + dilation * (k - 1)) * h
                    let wk = weights + k * h * h
                    outer(s, count: h, d, into: weightGradient + k * h * h)
                    for r in 0..<h {
                        var acc: Float = 0
                        for o in 0..<h { acc += wk[r * h + o] * d[o] }
                        ds[r] += acc
                    }
                }
            }
        }

        /// Zeroes `gradient` where the ReLU's `output` was off; whether anything of it is left.
        @inline(__always)
        private func passesReLU(_ output: UnsafePointer<Float>, _ gradient: UnsafeMutablePointer<Float>) -> Bool {
            var any = false
            for k in 0..<h {
                if output[k] <= 0 { gradient[k] = 0 } else if gradient[k] != 0 { any = true }
            }
            return any
        }

        /// `into[i * outputs + o] += input[i] * gradient[o]`.
        @inline(__always)
        private func outer(_ input: UnsafePointer<Float>, count: Int, _ gradient: UnsafePointer<Float>, into: UnsafeMutablePointer<Float>) {
            let outputs = h
            if outputs == 16 {
                let d = UnsafeRawPointer(gradient).loadUnaligned(as: SIMD16<Float>.self)
                for i in 0..<count {
                    let p = UnsafeMutableRawPointer(into + i * 16)
                    p.storeBytes(of: p.loadUnaligned(as: SIMD16<Float>.self) + input[i] * d, as: SIMD16<Float>.self)
                }
                return
            }
            for i in 0..<count {
                let v = input[i]
                for o in 0..<outputs { into[i * outputs + o] += v * gradient[o] }
            }
        }
    }
}
