/// A small temporal convolutional network over the per-frame feature columns: the classifier of a
/// learned sound model that sees the sound's time course (trained by `TemporalConvolutionalNetworkTrainer`).
///
/// Input: per feature frame, ``inputChannels`` values taken from the extractor's columns
/// (``SoundFeatureExtractor/newestColumns``): the floor-relative log-mel bands whose upper edge lies
/// at or below 8 kHz (present at 16 kHz as at 44.1 kHz), spectral flux, flux below 1 kHz,
/// flatness, harmonicity, energy shares below 500 Hz and in 300-3400 Hz, the mean and the largest
/// relative band level. Each channel is standardised (``inputMean``, ``inputScale``); frames before
/// the start and after the end of the stream are zeros after standardisation.
///
/// Layers, with decision `j` centred on frame `4j` (``FeatureSpec/decisionStride``):
/// 1. frame convolution: column `j` sees frames `4j-4 ... 4j+3` (8 frames, stride 4), ReLU;
/// 2. convolution over columns `j-1, j, j+1`, ReLU;
/// 3. convolution over columns `j-2, j, j+2` (dilation 2), ReLU;
/// 4. the mean and the maximum of layer 3 over columns `j-W ... j+W` (``poolHalfWidth``), and
///    layer 3 at column `j` itself (which places the decision within the pooled context);
/// 5. a dense layer with ReLU and a linear output, the logit.
///
/// A decision depends on frames up to `4(j+W+3)+3`, 39 frames (0.45 s) after its centre with
/// W = 6: within the features' own latency (0.5 s), so the network adds none. Each column is
/// computed once however many decisions pool it (``TemporalConvolutionalNetworkStream``).
public struct TemporalConvolutionalNetwork: Sendable, Hashable {
    /// Mel bands used (those whose upper edge is at or below 8 kHz).
    public static let melBandsUsed = 25
    /// Input channels per frame.
    public static let inputChannels = melBandsUsed + 8
    /// Frames per column of layer 1.
    public static let frameKernel = 8
    /// Frames between columns (``FeatureSpec/decisionStride``).
    public static let frameStride = 4

    /// Channels of every hidden layer.
    public let hidden: Int
    /// Columns pooled on each side of a decision.
    public let poolHalfWidth: Int
    /// Per input channel: the training mean.
    public var inputMean: [Float]
    /// Per input channel: 1 / the training standard deviation.
    public var inputScale: [Float]
    /// Layer 1 weights, `[frameKernel][inputChannels][hidden]`.
    public var weights1: [Float]
    /// Layer 1 biases (`hidden`).
    public var bias1: [Float]
    /// Layer 2 weights, `[3][hidden][hidden]`.
    public var weights2: [Float]
    /// Layer 2 biases.
    public var bias2: [Float]
    /// Layer 3 weights, `[3][hidden][hidden]` (dilation 2).
    public var weights3: [Float]
    /// Layer 3 biases.
    public var bias3: [Float]
    /// Dense layer weights, `[3 * hidden][hidden]` (the pooled means, the pooled maxima, the centre column).
    public var weightsDense: [Float]
    /// Dense layer biases.
    public var biasDense: [Float]
    /// Output weights (`hidden`).
    public var weightsOut: [Float]
    /// Output bias.
    public var biasOut: Float

    /// Parameter counts of each array, in the order of ``parameterArrays``.
    public static func shapes(hidden h: Int) -> [Int] {
        [frameKernel * inputChannels * h, h, 3 * h * h, h, 3 * h * h, h, 3 * h * h, h, h]
    }

    /// A network of zeros (all outputs 0.5) with `hidden` channels, identity standardisation.
    public init(hidden: Int, poolHalfWidth: Int) {
        self.hidden = hidden
        self.poolHalfWidth = poolHalfWidth
        inputMean = [Float](repeating: 0, count: Self.inputChannels)
        inputScale = [Float](repeating: 1, count: Self.inputChannels)
        let s = Self.shapes(hidden: hidden)
        weights1 = [Float](repeating: 0, count: s[0])
        bias1 = [Float](repeating: 0, count: s[1])
        weights2 = [Float](repeating: 0, count: s[2])
        bias2 = [Float](repeating: 0, count: s[3])
        weights3 = [Float](repeating: 0, count: s[4])
        bias3 = [Float](repeating: 0, count: s[5])
        weightsDense = [Float](repeating: 0, count: s[6])
        biasDense = [Float](repeating: 0, count: s[7])
        weightsOut = [Float](repeating: 0, count: s[8])
        biasOut = 0
    }

    /// The names of ``parameterArrays`` in model files.
    public static let parameterNames = [
        "weights1", "bias1", "weights2", "bias2", "weights3", "bias3", "weightsDense", "biasDense", "weightsOut",
    ]

    /// The weight and bias arrays (not ``biasOut``), in file order.
    public var parameterArrays: [[Float]] {
        [weights1, bias1, weights2, bias2, weights3, bias3, weightsDense, biasDense, weightsOut]
    }

    /// Replaces the weight and bias arrays (as ``parameterArrays`` orders them).
    public mutating func setParameterArrays(_ arrays: [[Float]]) {
        precondition(arrays.map(\.count) == Self.shapes(hidden: hidden), "parameter shapes")
        weights1 = arrays[0]
        bias1 = arrays[1]
        weights2 = arrays[2]
        bias2 = arrays[3]
        weights3 = arrays[4]
        bias3 = arrays[5]
        weightsDense = arrays[6]
        biasDense = arrays[7]
        weightsOut = arrays[8]
    }

    /// What is wrong with the network's shapes or numbers, or nil.
    public var validationProblem: String? {
        guard (1...256).contains(hidden) else { return "hidden channels \(hidden) outside 1...256" }
        guard (0...32).contains(poolHalfWidth) else { return "poolHalfWidth \(poolHalfWidth) outside 0...32" }
        guard inputMean.count == Self.inputChannels, inputScale.count == Self.inputChannels else {
            return "standardisation has \(inputMean.count) and \(inputScale.count) values, expected \(Self.inputChannels)"
        }
        let names = Self.parameterNames
        for (i, (array, count)) in zip(parameterArrays, Self.shapes(hidden: hidden)).enumerated() where array.count != count {
            return "\(names[i]) has \(array.count) values, expected \(count)"
        }
        let all = parameterArrays.joined() + inputMean + inputScale + [biasOut]
        if all.contains(where: { !$0.isFinite }) { return "a parameter is not finite" }
        return nil
    }

    /// Writes the ``inputChannels`` raw inputs of one frame from its extractor columns
    /// (``SoundFeatureExtractor/newestColumns`` layout; `melBands` bands).
    @inline(__always)
    public static func rawInputs(columns: UnsafePointer<Float>, melBands nb: Int, into out: UnsafeMutablePointer<Float>) {
        for b in 0..<melBandsUsed { out[b] = columns[b] }
        let o = melBandsUsed
        out[o] = columns[nb + 1]  // flux
        out[o + 1] = columns[nb + 2]  // flux below 1 kHz
        out[o + 2] = columns[nb + 4]  // flatness
        out[o + 3] = columns[nb + 5]  // harmonicity
        out[o + 4] = columns[nb + 7]  // share below 500 Hz
        out[o + 5] = columns[nb + 8]  // share in 300-3400 Hz
        out[o + 6] = columns[nb + 9]  // mean relative band level
        out[o + 7] = columns[nb + 11]  // largest relative band level
    }

    /// Frames after a decision's centre frame that its logit depends on.
    public var lookaheadFrames: Int { Self.frameStride * (poolHalfWidth + 3) + Self.frameKernel - 1 - Self.frameStride }
}
