#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-hidden-layer perceptron with z-score input normalisation, tanh hidden units and a
/// sigmoid output: the classifier of the learned sound detectors.
public struct TinyNetwork: Sendable, Hashable {
    /// Input dimension.
    public let inputs: Int
    /// Hidden units.
    public let hidden: Int
    /// Per-input mean subtracted before the first layer.
    public var mean: [Float] { didSet { fold() } }
    /// Per-input factor applied after subtracting the mean (1 / std).
    public var scale: [Float] { didSet { fold() } }
    /// First layer, row-major `hidden x inputs`.
    public var w1: [Float] { didSet { fold() } }
    /// First layer biases.
    public var b1: [Float] { didSet { fold() } }
    /// Output weights.
    public var w2: [Float]
    /// Output bias.
    public var b2: Float
    // Inference form: the normalisation folded into the first layer (w1 x scale, b1 - w1 x scale x mean),
    // computed once; not part of the model's identity.
    private var foldedW1: [Float] = []
    private var foldedB1: [Float] = []

    /// Creates a network from its parameters.
    public init(inputs: Int, hidden: Int, mean: [Float], scale: [Float], w1: [Float], b1: [Float], w2: [Float], b2: Float) {
        precondition(mean.count == inputs && scale.count == inputs && w1.count == inputs * hidden)
        precondition(b1.count == hidden && w2.count == hidden)
        self.inputs = inputs
        self.hidden = hidden
        self.mean = mean
        self.scale = scale
        self.w1 = w1
        self.b1 = b1
        self.w2 = w2
        self.b2 = b2
        fold()
    }

    private mutating func fold() {
        let n = inputs
        var fw = [Float](repeating: 0, count: hidden * n)
        var fb = b1
        for h in 0..<hidden {
            var shift: Double = 0
            for i in 0..<n {
                let w = w1[h * n + i] * scale[i]
                fw[h * n + i] = w
                shift += Double(w) * Double(mean[i])
            }
            fb[h] = Float(Double(b1[h]) - shift)
        }
        foldedW1 = fw
        foldedB1 = fb
    }

    public static func == (a: TinyNetwork, b: TinyNetwork) -> Bool {
        a.inputs == b.inputs && a.hidden == b.hidden && a.mean == b.mean && a.scale == b.scale && a.w1 == b.w1 && a.b1 == b.b1
            && a.w2 == b.w2 && a.b2 == b.b2
    }

    public func hash(into h: inout Hasher) {
        h.combine(inputs)
        h.combine(hidden)
        h.combine(w1)
        h.combine(b2)
    }

    /// The output logit for `x` (`inputs` values). `scratch` is unused (kept for callers' buffers):
    /// the normalisation is folded into the first layer.
    @inline(__always)
    public func logit(_ x: UnsafeBufferPointer<Float>, scratch: UnsafeMutableBufferPointer<Float>) -> Float {
        let n = inputs
        var out = b2
        foldedW1.withUnsafeBufferPointer { w in
            foldedB1.withUnsafeBufferPointer { b in
                w2.withUnsafeBufferPointer { o in
                    for h in 0..<hidden {
                        out += o[h] * fastTanh(b[h] + dot(w.baseAddress! + h * n, x.baseAddress!, n))
                    }
                }
            }
        }
        return out
    }

    /// The probability for `x`.
    public func probability(_ x: [Float]) -> Float {
        var scratch = [Float](repeating: 0, count: inputs)
        let l = x.withUnsafeBufferPointer { xp in
            scratch.withUnsafeMutableBufferPointer { logit(xp, scratch: $0) }
        }
        return 1 / (1 + expf(-l))
    }
}

/// tanh by a clamped rational approximation (max error about 2e-4), used in training and
/// inference alike so both compute the same function.
@inline(__always)
public func fastTanh(_ x: Float) -> Float {
    let c = min(max(x, -4.97), 4.97)
    let c2 = c * c
    let p = c * (135_135 + c2 * (17_325 + c2 * (378 + c2)))
    let q = 135_135 + c2 * (62_370 + c2 * (3_150 + c2 * 28))
    return min(max(p / q, -1), 1)
}

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

/// Training settings for ``TinyNetwork``.
public struct TrainingOptions: Sendable, Hashable {
    /// Hidden units.
    public var hidden = 16
    /// Passes over the data.
    public var epochs = 15
    /// Examples per Adam step.
    public var batchSize = 128
    /// Adam step size.
    public var learningRate: Float = 0.003
    /// L2 weight decay on the weights.
    public var weightDecay: Float = 3e-3
    /// Largest weight given to the positive class to balance it (pos weight = min(this, neg/pos)).
    public var maxPositiveWeight: Float = 5
    /// Decisions within this time of an annotated onset or offset are left out (seconds).
    public var boundaryMargin: Double = 0.1
    /// Positive decisions whose nearby frames are never this far above the background
    /// (mean relative band level, log10 units) are left out.
    public var positiveActivity: Float = 0.3
    /// Standard deviation of Gaussian noise added to every used (z-scored) input of every training
    /// example at every pass (0: none). A regulariser: the network cannot rely on fine detail of
    /// one feature that the few training recordings happen to share.
    public var inputNoise: Float = 0
    /// Networks trained with seeds seed, seed+1, ... and merged into one (averaged logits).
    public var ensembleMembers = 3
    /// Inputs the network must not use (their scale is set to 0), e.g. absolute level.
    public var ignoredInputs: [Int] = []
    /// Creates default options.
    public init() {}
}

/// Deterministic training of ``TinyNetwork`` (fixed seed, sequential arithmetic: same data and
/// seed give the same parameters bit for bit).
public enum TinyNetworkTrainer {
    /// Trains ``TrainingOptions/ensembleMembers`` networks (seeds `seed`, `seed + 1`, ...) and
    /// merges them into one network whose logit is their mean (hidden units concatenated).
    public static func trainEnsemble(
        features: [Float], dimension: Int, targets: [Float], weights: [Float]? = nil, seed: UInt64,
        options: TrainingOptions = TrainingOptions()
    ) -> TinyNetwork {
        let members = (0..<max(1, options.ensembleMembers)).map {
            train(features: features, dimension: dimension, targets: targets, weights: weights, seed: seed &+ UInt64($0), options: options)
        }
        guard members.count > 1 else { return members[0] }
        let k = Float(members.count)
        return TinyNetwork(
            inputs: dimension, hidden: members.reduce(0) { $0 + $1.hidden }, mean: members[0].mean, scale: members[0].scale,
            w1: members.flatMap(\.w1), b1: members.flatMap(\.b1), w2: members.flatMap { $0.w2.map { $0 / k } },
            b2: members.reduce(Float(0)) { $0 + $1.b2 } / k)
    }

    /// Trains on `features` (row-major, `count x dimension`) with 0/1 `targets` and optional
    /// per-example `weights` (a weight of 0 excludes an example).
    public static func train(
        features: [Float], dimension: Int, targets: [Float], weights: [Float]? = nil, seed: UInt64,
        options: TrainingOptions = TrainingOptions()
    ) -> TinyNetwork {
        let count = targets.count
        precondition(features.count == count * dimension, "feature matrix size")
        var rng = SplitMix64(seed: seed)
        // Normalisation from the (weighted-in) training rows, in Double.
        var sum = [Double](repeating: 0, count: dimension)
        var sumSq = [Double](repeating: 0, count: dimension)
        var used = 0
        for r in 0..<count where (weights?[r] ?? 1) > 0 {
            used += 1
            for j in 0..<dimension {
                let x = Double(features[r * dimension + j])
                sum[j] += x
                sumSq[j] += x * x
            }
        }
        let n = Double(max(used, 1))
        let mean = (0..<dimension).map { Float(sum[$0] / n) }
        let scale = (0..<dimension).map { j -> Float in
            let v = max(0, sumSq[j] / n - (sum[j] / n) * (sum[j] / n))
            return v > 1e-12 && !options.ignoredInputs.contains(j) ? Float(1 / v.squareRoot()) : 0
        }
        var positives: Float = 0
        var negatives: Float = 0
        for r in 0..<count where (weights?[r] ?? 1) > 0 {
            if targets[r] > 0.5 { positives += weights?[r] ?? 1 } else { negatives += weights?[r] ?? 1 }
        }
        let posWeight = positives > 0 ? min(options.maxPositiveWeight, max(1, negatives / positives)) : 1
        let h = options.hidden
        let d = dimension
        var w1 = (0..<(h * d)).map { _ in Float(rng.nextGaussian() / Double(d).squareRoot()) }
        var b1 = [Float](repeating: 0, count: h)
        var w2 = (0..<h).map { _ in Float(rng.nextGaussian() / Double(h).squareRoot()) }
        var b2: Float = 0
        // Adam state.
        var m1 = [Float](repeating: 0, count: h * d), v1 = m1
        var mb1 = [Float](repeating: 0, count: h), vb1 = mb1
        var m2 = [Float](repeating: 0, count: h), v2 = m2
        var mb2: Float = 0, vb2: Float = 0
        let beta1: Float = 0.9, beta2: Float = 0.999, eps: Float = 1e-8
        var step: Float = 0
        var order = (0..<count).filter { (weights?[$0] ?? 1) > 0 }
        var gw1 = [Float](repeating: 0, count: h * d)
        var gb1 = [Float](repeating: 0, count: h)
        var gw2 = [Float](repeating: 0, count: h)
        var x = [Float](repeating: 0, count: d)
        var act = [Float](repeating: 0, count: h)
        for _ in 0..<options.epochs {
            // Fisher-Yates with the seeded generator.
            if order.count > 1 {
                for i in stride(from: order.count - 1, to: 0, by: -1) {
                    order.swapAt(i, rng.nextIndex(below: i + 1))
                }
            }
            var start = 0
            while start < order.count {
                let end = min(order.count, start + options.batchSize)
                for i in 0..<(h * d) { gw1[i] = 0 }
                for i in 0..<h {
                    gb1[i] = 0
                    gw2[i] = 0
                }
                var gb2: Float = 0
                var batchWeight: Float = 0
                for idx in start..<end {
                    let r = order[idx]
                    for j in 0..<d { x[j] = (features[r * d + j] - mean[j]) * scale[j] }
                    if options.inputNoise > 0 {
                        for j in 0..<d where scale[j] != 0 { x[j] += options.inputNoise * Float(rng.nextGaussian()) }
                    }
                    var z = b2
                    for k in 0..<h {
                        var a = b1[k]
                        let row = k * d
                        for j in 0..<d { a += w1[row + j] * x[j] }
                        let t = fastTanh(a)
                        act[k] = t
                        z += w2[k] * t
                    }
                    let p = 1 / (1 + expf(-z))
                    let y = targets[r]
                    let w = (weights?[r] ?? 1) * (y > 0.5 ? posWeight : 1)
                    batchWeight += w
                    let g = (p - y) * w
                    gb2 += g
                    for k in 0..<h {
                        gw2[k] += g * act[k]
                        let ga = g * w2[k] * (1 - act[k] * act[k])
                        gb1[k] += ga
                        let row = k * d
                        for j in 0..<d { gw1[row + j] += ga * x[j] }
                    }
                }
                let inv = 1 / max(batchWeight, 1e-6)
                step += 1
                let lr = options.learningRate * (1 - powf(beta2, step)).squareRoot() / (1 - powf(beta1, step))
                for i in 0..<(h * d) {
                    let g = gw1[i] * inv + options.weightDecay * w1[i]
                    m1[i] = beta1 * m1[i] + (1 - beta1) * g
                    v1[i] = beta2 * v1[i] + (1 - beta2) * g * g
                    w1[i] -= lr * m1[i] / (v1[i].squareRoot() + eps)
                }
                for k in 0..<h {
                    var g = gb1[k] * inv
                    mb1[k] = beta1 * mb1[k] + (1 - beta1) * g
                    vb1[k] = beta2 * vb1[k] + (1 - beta2) * g * g
                    b1[k] -= lr * mb1[k] / (vb1[k].squareRoot() + eps)
                    g = gw2[k] * inv + options.weightDecay * w2[k]
                    m2[k] = beta1 * m2[k] + (1 - beta1) * g
                    v2[k] = beta2 * v2[k] + (1 - beta2) * g * g
                    w2[k] -= lr * m2[k] / (v2[k].squareRoot() + eps)
                }
                let g = gb2 * inv
                mb2 = beta1 * mb2 + (1 - beta1) * g
                vb2 = beta2 * vb2 + (1 - beta2) * g * g
                b2 -= lr * mb2 / (vb2.squareRoot() + eps)
                start = end
            }
        }
        return TinyNetwork(inputs: d, hidden: h, mean: mean, scale: scale, w1: w1, b1: b1, w2: w2, b2: b2)
    }
}
