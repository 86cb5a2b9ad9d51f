import Foundation
import Testing
import VigilCore
import VigilInference

@testable import VigilTraining

/// The temporal convolutional network: its hand-written gradient, the stream against the trainer's
/// arithmetic, learning a time course, determinism and the model file.
@Suite
struct TemporalConvolutionalNetworkTests {
    static let channels = TemporalConvolutionalNetwork.inputChannels

    /// A network with random parameters (uniform in ±`scale`) and a random standardisation.
    static func randomNetwork(hidden: Int = 16, poolHalfWidth: Int = 6, seed: UInt64, scale: Double = 0.3) -> TemporalConvolutionalNetwork {
        var rng = SplitMix64(seed: seed)
        var n = TemporalConvolutionalNetwork(hidden: hidden, poolHalfWidth: poolHalfWidth)
        n.setParameterArrays(n.parameterArrays.map { $0.map { _ in Float((2 * rng.nextUnit() - 1) * scale) } })
        n.biasOut = 0.1
        n.inputMean = (0..<channels).map { _ in Float(rng.nextUnit()) }
        n.inputScale = (0..<channels).map { _ in Float(0.5 + rng.nextUnit()) }
        return n
    }

    /// `frames` frames of random inputs with random targets and weights (some 0).
    static func randomSequence(frames: Int, seed: UInt64) -> TemporalConvolutionalNetworkTrainer.Sequence {
        var rng = SplitMix64(seed: seed)
        let decisions = (frames + 3) / 4
        return .init(
            inputs: (0..<(frames * channels)).map { _ in Float(2 * rng.nextUnit()) },
            targets: (0..<decisions).map { _ in rng.nextUnit() < 0.4 ? 1 : 0 },
            weights: (0..<decisions).map { _ in rng.nextUnit() < 0.2 ? 0 : Float(0.5 + rng.nextUnit()) })
    }

    /// The network's logits for every decision of `inputs` through its stream, as the detector computes them.
    static func streamLogits(_ network: TemporalConvolutionalNetwork, inputs: [Float], decisions: Int) -> [Float] {
        let stream = TemporalConvolutionalNetworkStream(network: network)
        var out: [Float] = []
        inputs.withUnsafeBufferPointer { x in
            for f in 0..<(x.count / channels) {
                stream.append(x.baseAddress! + f * channels)
                // Decide as soon as each decision is ready, as the detector does.
                while out.count < decisions && stream.isReady(decision: out.count) { out.append(stream.logit(decision: out.count)) }
            }
        }
        stream.end()
        while out.count < decisions { out.append(stream.logit(decision: out.count)) }
        return out
    }

    static func logisticLoss(_ logits: [Float], _ s: TemporalConvolutionalNetworkTrainer.Sequence, positiveWeight: Float) -> Double {
        var loss = 0.0
        for (j, z) in logits.enumerated() where s.weights[j] > 0 {
            let p = 1 / (1 + exp(-Double(z)))
            let w = Double(s.weights[j] * (s.targets[j] > 0.5 ? positiveWeight : 1))
            loss -= w * (s.targets[j] > 0.5 ? log(p) : log(1 - p))
        }
        return loss
    }

    @Test("the trainer's loss is the stream's: both compute the same logits, at the start, in the middle and at the end")
    func trainerAndStreamAgree() {
        // The widest pooling a model file may hold (32 columns each side) as well as the default.
        for (k, (frames, pool)) in [(1, 6), (7, 6), (40, 6), (161, 6), (1_000, 6), (1_000, 32)].enumerated() {
            let network = Self.randomNetwork(poolHalfWidth: pool, seed: 100 + UInt64(k))
            let sequence = Self.randomSequence(frames: frames, seed: 200 + UInt64(k))
            let (loss, _) = TemporalConvolutionalNetworkTrainer.lossAndGradient(network: network, sequence: sequence, positiveWeight: 2)
            let logits = Self.streamLogits(network, inputs: sequence.inputs, decisions: sequence.targets.count)
            let expected = Self.logisticLoss(logits, sequence, positiveWeight: 2)
            #expect(abs(Double(loss) - expected) <= 1e-4 * max(1, expected), "\(frames) frames: \(loss) against \(expected)")
        }
    }

    @Test("the hand-written gradient matches central differences of the loss for every kind of parameter")
    func gradientMatchesFiniteDifferences() {
        let network = Self.randomNetwork(hidden: 4, poolHalfWidth: 2, seed: 7, scale: 0.5)
        let sequence = Self.randomSequence(frames: 60, seed: 8)
        let (_, gradient) = TemporalConvolutionalNetworkTrainer.lossAndGradient(network: network, sequence: sequence, positiveWeight: 3)
        let arrays = network.parameterArrays
        var rng = SplitMix64(seed: 9)
        var checked = 0
        var offset = 0
        for (a, array) in arrays.enumerated() {
            for _ in 0..<6 {
                let i = rng.nextIndex(below: array.count)
                let h: Float = 2e-3
                func loss(_ delta: Float) -> Double {
                    var changed = arrays
                    changed[a][i] += delta
                    var n = network
                    n.setParameterArrays(changed)
                    let logits = Self.streamLogits(n, inputs: sequence.inputs, decisions: sequence.targets.count)
                    return Self.logisticLoss(logits, sequence, positiveWeight: 3)
                }
                let numeric = (loss(h) - loss(-h)) / Double(2 * h)
                let analytic = Double(gradient[offset + i])
                #expect(
                    abs(numeric - analytic) <= 0.02 * max(abs(numeric), abs(analytic)) + 2e-3,
                    "\(TemporalConvolutionalNetwork.parameterNames[a])[\(i)]: \(analytic) against \(numeric)")
                checked += 1
            }
            offset += array.count
        }
        var n = network
        n.biasOut += 1e-2
        let up = Self.logisticLoss(
            Self.streamLogits(n, inputs: sequence.inputs, decisions: sequence.targets.count), sequence, positiveWeight: 3)
        n.biasOut -= 2e-2
        let down = Self.logisticLoss(
            Self.streamLogits(n, inputs: sequence.inputs, decisions: sequence.targets.count), sequence, positiveWeight: 3)
        #expect(abs((up - down) / 2e-2 - Double(gradient.last!)) <= 1e-2 * abs(Double(gradient.last!)) + 1e-3)
        #expect(checked == 54)
    }

    /// Sequences in which decision targets follow a time course no single frame shows: a rise in channel 0 over
    /// 0.1 s followed by a fall is the class, the same values falling and then rising are not.
    static func timeCourseSequences(count: Int, seed: UInt64) -> [TemporalConvolutionalNetworkTrainer.Sequence] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let frames = 400
            var x = (0..<(frames * channels)).map { _ in Float(rng.nextGaussian() * 0.1) }
            var targets = [Float](repeating: 0, count: frames / 4)
            var f = 20
            while f + 40 < frames {
                let positive = rng.nextUnit() < 0.5
                for k in 0..<16 {
                    // Up then down (positive), or down then up (negative): the same set of values either way.
                    let ramp = Float(k < 8 ? k : 15 - k) / 8
                    x[(f + k) * channels] += positive ? ramp : 1 - ramp
                }
                if positive { for j in (f / 4)...((f + 15) / 4) { targets[j] = 1 } }
                f += 40 + rng.nextIndex(below: 30)
            }
            return .init(inputs: x, targets: targets, weights: [Float](repeating: 1, count: targets.count))
        }
    }

    @Test("it learns a time course from examples and tells it apart on new sequences; training is deterministic")
    func learnsATimeCourse() {
        var options = NetworkTrainingOptions()
        options.epochs = 6
        options.batchChunks = 2
        options.maxPositiveWeight = 1
        let training = Self.timeCourseSequences(count: 200, seed: 1)
        let a = TemporalConvolutionalNetworkTrainer.train(sequences: training, options: options, seed: 5)
        let b = TemporalConvolutionalNetworkTrainer.train(sequences: training, options: options, seed: 5)
        #expect(a == b)
        var correct = 0
        var total = 0
        var tc = 0, tt = 0
        for s in training {
            let logits = Self.streamLogits(a, inputs: s.inputs, decisions: s.targets.count)
            for (z, t) in zip(logits, s.targets) { tt += 1; if (z > 0) == (t > 0.5) { tc += 1 } }
        }
        print(
            "TRAIN ACC", Double(tc) / Double(tt),
            TemporalConvolutionalNetworkTrainer.lossAndGradient(network: a, sequence: training[0]).loss / Float(training[0].targets.count))
        for s in Self.timeCourseSequences(count: 10, seed: 2) {
            let logits = Self.streamLogits(a, inputs: s.inputs, decisions: s.targets.count)
            for (z, t) in zip(logits, s.targets) {
                total += 1
                if (z > 0) == (t > 0.5) { correct += 1 }
            }
        }
        #expect(Double(correct) / Double(total) > 0.9, "\(correct) of \(total)")
    }

    @Test("a network model survives its file bit for bit, and a file with a wrong shape is refused naming the array")
    func modelFileRoundTrip() throws {
        let network = Self.randomNetwork(seed: 3)
        let model = SoundModel(
            label: "dogBark", modelVersion: 2, classifier: .network(network),
            decision: DecisionParameters(threshold: 0.7, mergeGapSeconds: 0.5),
            training: .null)
        let parsed = try SoundModel(fileText: model.fileText)
        #expect(parsed == model)
        #expect(ModelTests.bits(parsed.classifier) == ModelTests.bits(model.classifier))
        // Trees and a network together.
        let trees = try #require(ModelTests().trainTiny(seed: 1).classifier.trees)
        var both = model
        both.classifier = .treesAndNetwork(trees, network)
        let parsedBoth = try SoundModel(fileText: both.fileText)
        #expect(parsedBoth == both && parsedBoth.classifier.kind == "gbdt+tcn")
        #expect(ModelTests.bits(parsedBoth.classifier) == ModelTests.bits(both.classifier))
        #expect(SoundClassifier.combined(trees: 2, network: -1) == 0.5)
        var json = model.json
        guard case .object(var top) = json, case .object(var classifier)? = top["classifier"] else {
            Issue.record("no classifier object")
            return
        }
        classifier["weights2"] = .array([.number(1)])
        top["classifier"] = .object(classifier)
        json = .object(top)
        #expect {
            try SoundModel(json: json)
        } throws: { error in
            "\(error)".contains("classifier.weights2 has 1 values, expected 768")
        }
        classifier["weights2"] = .array((0..<768).map { _ in .number(0) })
        classifier["kind"] = .string("cnn2d")
        top["classifier"] = .object(classifier)
        #expect {
            try SoundModel(json: .object(top))
        } throws: { error in
            "\(error)".contains("unknown classifier kind \"cnn2d\"")
        }
    }
}
