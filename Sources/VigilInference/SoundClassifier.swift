import VigilCore

/// The classifier of a learned sound model: what turns the features of a decision into its logit.
public enum SoundClassifier: Sendable, Hashable {
    /// Gradient-boosted trees over the pooled decision vector (``FeatureSpec/dimension`` inputs).
    case trees(GradientBoostedTrees)
    /// A temporal convolutional network over the per-frame feature columns.
    case network(TemporalConvolutionalNetwork)
    /// Both, trained on the same decisions: the logit is the mean of the two logits. The trees see pooled
    /// statistics and the network the time course; where they disagree the mean is less sure than either.
    case treesAndNetwork(GradientBoostedTrees, TemporalConvolutionalNetwork)

    /// The `kind` of gradient-boosted trees in model files.
    public static let treesKind = "gbdt"
    /// The `kind` of a temporal convolutional network in model files.
    public static let networkKind = "tcn"
    /// The `kind` of trees and a network together in model files (their objects as `trees` and `network`).
    public static let treesAndNetworkKind = "gbdt+tcn"

    /// The `kind` a model file names it by.
    public var kind: String {
        switch self {
        case .trees: Self.treesKind
        case .network: Self.networkKind
        case .treesAndNetwork: Self.treesAndNetworkKind
        }
    }

    /// The trees, if the classifier has trees.
    public var trees: GradientBoostedTrees? {
        switch self {
        case .trees(let t), .treesAndNetwork(let t, _): t
        case .network: nil
        }
    }

    /// The network, if the classifier has a network.
    public var network: TemporalConvolutionalNetwork? {
        switch self {
        case .network(let n), .treesAndNetwork(_, let n): n
        case .trees: nil
        }
    }

    /// The logit from the trees' logit and the network's (each where the classifier has it).
    @inline(__always)
    public static func combined(trees: Float?, network: Float?) -> Float {
        switch (trees, network) {
        case (let t?, let n?): (t + n) / 2
        case (let t?, nil): t
        case (nil, let n?): n
        case (nil, nil): 0
        }
    }

    // MARK: Model files

    static func floats(_ a: [Float]) -> JSONValue { .array(a.map { .number(Double($0.description) ?? 0) }) }
    static func ints(_ a: [Int32]) -> JSONValue { .array(a.map { .number(Double($0)) }) }

    /// The classifier's JSON value in a model file: `kind` and its parameters.
    public var json: JSONValue {
        switch self {
        case .trees(let t): Self.json(t)
        case .network(let n): Self.json(n)
        case .treesAndNetwork(let t, let n):
            .object(JSONObject([("kind", .string(Self.treesAndNetworkKind)), ("trees", Self.json(t)), ("network", Self.json(n))]))
        }
    }

    static func json(_ t: GradientBoostedTrees) -> JSONValue {
        .object(
            JSONObject([
                ("kind", .string(treesKind)), ("inputs", .number(Double(t.inputs))),
                ("baseLogit", .number(Double(t.baseLogit.description) ?? 0)), ("roots", ints(t.roots)),
                ("feature", ints(t.nodes.map(\.feature))), ("left", ints(t.nodes.map(\.left))), ("value", floats(t.nodes.map(\.value))),
            ]))
    }

    static func json(_ n: TemporalConvolutionalNetwork) -> JSONValue {
        .object(
            JSONObject(
                [
                    ("kind", .string(networkKind)), ("inputs", .number(Double(TemporalConvolutionalNetwork.inputChannels))),
                    ("hidden", .number(Double(n.hidden))), ("poolHalfWidth", .number(Double(n.poolHalfWidth))),
                    ("inputMean", floats(n.inputMean)), ("inputScale", floats(n.inputScale)),
                ] + zip(TemporalConvolutionalNetwork.parameterNames, n.parameterArrays).map { ($0, floats($1)) } + [
                    ("biasOut", .number(Double(n.biasOut.description) ?? 0))
                ]))
    }

    /// Decodes and validates a model file's `classifier` value (errors name the member at fault; `path` prefixes them).
    public init(json c: JSONValue, path: String = "classifier") throws(SoundModelError) {
        guard let kind = c["kind"]?.stringValue else { throw SoundModelError("missing \(path).kind") }
        switch kind {
        case Self.treesKind: self = .trees(try Self.decodeTrees(c, path: path))
        case Self.networkKind: self = .network(try Self.decodeNetwork(c, path: path))
        case Self.treesAndNetworkKind:
            guard let t = c["trees"], let n = c["network"] else { throw SoundModelError("\(path): missing trees or network") }
            guard t["kind"]?.stringValue == Self.treesKind, n["kind"]?.stringValue == Self.networkKind else {
                throw SoundModelError("\(path): trees must be of kind \"\(Self.treesKind)\" and network of kind \"\(Self.networkKind)\"")
            }
            self = .treesAndNetwork(try Self.decodeTrees(t, path: path + ".trees"), try Self.decodeNetwork(n, path: path + ".network"))
        default:
            let kinds = [Self.treesKind, Self.networkKind, Self.treesAndNetworkKind].map { "\"\($0)\"" }.joined(separator: ", ")
            throw SoundModelError("unknown classifier kind \"\(kind)\" (expected one of \(kinds))")
        }
    }

    static func floats(_ v: JSONValue?, _ name: String, count: Int) throws(SoundModelError) -> [Float] {
        guard let a = v?.arrayValue else { throw SoundModelError("missing \(name)") }
        var f: [Float] = []
        f.reserveCapacity(a.count)
        for e in a {
            guard let d = e.doubleValue else { throw SoundModelError("\(name) holds a non-number") }
            f.append(Float(d))
        }
        guard f.count == count else { throw SoundModelError("\(name) has \(f.count) values, expected \(count)") }
        return f
    }

    static func ints(_ v: JSONValue?, _ name: String, count: Int) throws(SoundModelError) -> [Int32] {
        guard let a = v?.arrayValue else { throw SoundModelError("missing \(name)") }
        guard a.count == count else { throw SoundModelError("\(name) has \(a.count) values, expected \(count)") }
        var out: [Int32] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard let d = e.doubleValue, d == d.rounded(), abs(d) < 2_147_483_648 else {
                throw SoundModelError("\(name) holds a value that is not a 32-bit integer")
            }
            out.append(Int32(d))
        }
        return out
    }

    static func decodeTrees(_ c: JSONValue, path: String) throws(SoundModelError) -> GradientBoostedTrees {
        guard let inputs = c["inputs"]?.intValue, inputs == FeatureSpec.current.dimension else {
            throw SoundModelError(
                "\(path) has \(c["inputs"]?.description ?? "no") inputs, features have \(FeatureSpec.current.dimension)")
        }
        guard let base = c["baseLogit"]?.doubleValue, let count = c["feature"]?.arrayValue?.count,
            let rootCount = c["roots"]?.arrayValue?.count
        else { throw SoundModelError("\(path): missing baseLogit, roots or feature") }
        let feature = try ints(c["feature"], "\(path).feature", count: count)
        let left = try ints(c["left"], "\(path).left", count: count)
        let value = try floats(c["value"], "\(path).value", count: count)
        let trees = GradientBoostedTrees(
            inputs: inputs, baseLogit: Float(base), roots: try ints(c["roots"], "\(path).roots", count: rootCount),
            nodes: (0..<count).map { .init(feature: feature[$0], left: left[$0], value: value[$0]) })
        if let problem = trees.validationProblem { throw SoundModelError("\(path): \(problem)") }
        return trees
    }

    static func decodeNetwork(_ c: JSONValue, path: String) throws(SoundModelError) -> TemporalConvolutionalNetwork {
        let channels = TemporalConvolutionalNetwork.inputChannels
        guard let inputs = c["inputs"]?.intValue, inputs == channels else {
            throw SoundModelError("\(path) has \(c["inputs"]?.description ?? "no") inputs per frame, the network takes \(channels)")
        }
        guard let hidden = c["hidden"]?.intValue, (1...256).contains(hidden) else {
            throw SoundModelError("\(path).hidden \(c["hidden"]?.description ?? "missing"): must be 1...256")
        }
        guard let pool = c["poolHalfWidth"]?.intValue, (0...32).contains(pool) else {
            throw SoundModelError("\(path).poolHalfWidth \(c["poolHalfWidth"]?.description ?? "missing"): must be 0...32")
        }
        guard let biasOut = c["biasOut"]?.doubleValue else { throw SoundModelError("\(path): missing biasOut") }
        var network = TemporalConvolutionalNetwork(hidden: hidden, poolHalfWidth: pool)
        network.inputMean = try floats(c["inputMean"], "\(path).inputMean", count: channels)
        network.inputScale = try floats(c["inputScale"], "\(path).inputScale", count: channels)
        var arrays: [[Float]] = []
        for (name, count) in zip(TemporalConvolutionalNetwork.parameterNames, TemporalConvolutionalNetwork.shapes(hidden: hidden)) {
            arrays.append(try floats(c[name], "\(path).\(name)", count: count))
        }
        network.setParameterArrays(arrays)
        network.biasOut = Float(biasOut)
        if let problem = network.validationProblem { throw SoundModelError("\(path): \(problem)") }
        return network
    }
}
