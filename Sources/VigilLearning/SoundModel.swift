import VigilCore

/// Why a model file was rejected.
public struct SoundModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Explanation.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { "sound model: \(message)" }
}

/// A trained sound-event model: feature spec, classifier, decision parameters and training
/// metadata. Stored as JSON (`Models/NAME.json`, format ``SoundModel/format`` version
/// ``SoundModel/formatVersion``); encoding is deterministic (same model, same bytes).
public struct SoundModel: Sendable, Hashable {
    /// The `format` field of every model file.
    public static let format = "vigil-sound-model"
    /// The supported `version`.
    public static let formatVersion = 1

    /// Trigger name (`dogBark`, `glassBreak`, `personTalking`).
    public var label: String
    /// Model version (bumped when retrained with other data or settings).
    public var modelVersion: Int
    /// The classifier.
    public var network: TinyNetwork
    /// Decision parameters (sensitivity 5 = ``DecisionParameters/threshold``).
    public var decision: DecisionParameters
    /// Training metadata (seed, data hash, data date, split, counts, validation metrics), kept as JSON.
    public var training: JSONValue

    /// Creates a model.
    public init(label: String, modelVersion: Int, network: TinyNetwork, decision: DecisionParameters, training: JSONValue) {
        self.label = label
        self.modelVersion = modelVersion
        self.network = network
        self.decision = decision
        self.training = training
    }

    // MARK: Encoding

    static func floats(_ a: [Float]) -> JSONValue { .array(a.map { .number(Double($0.description) ?? 0) }) }

    /// The model's JSON value.
    public var json: JSONValue {
        var d: [(String, JSONValue)] = [
            ("threshold", .number(decision.threshold)), ("releaseRatio", .number(decision.releaseRatio)),
            ("mergeGapSeconds", .number(decision.mergeGapSeconds)),
            ("minActiveDecisions", .number(Double(decision.minActiveDecisions))),
            ("onsetLeadSeconds", .number(decision.onsetLeadSeconds)),
            ("sensitivityLogitStep", .number(decision.sensitivityLogitStep)),
            ("onsetActivity", decision.onsetActivity.map { .number($0) } ?? .null),
            ("onsetBacktrackSeconds", .number(decision.onsetBacktrackSeconds)),
            ("maxEventSeconds", decision.maxEventSeconds.map { .number($0) } ?? .null),
        ]
        if let pause = decision.splitPauseSeconds {
            d.append(("splitPauseSeconds", .number(pause)))
            d.append(("splitActivity", .number(decision.splitActivity)))
        }
        if let g = decision.gate {
            d.append(
                (
                    "impactShatterGate",
                    .object(
                        JSONObject([
                            ("impactFlux", .number(g.impactFlux)), ("thudFlux", .number(g.thudFlux)),
                            ("shatterHFRatio", .number(g.shatterHFRatio)),
                            ("shatterRelative", .number(g.shatterRelative)),
                            ("shatterFrames", .number(Double(g.shatterFrames))), ("window", .number(g.window)),
                        ]))
                ))
        }
        return .object(
            JSONObject([
                ("format", .string(Self.format)), ("version", .number(Double(Self.formatVersion))),
                ("label", .string(label)), ("modelVersion", .number(Double(modelVersion))),
                ("featureSpec", FeatureSpec.current.json),
                ("normalization", .object(JSONObject([("mean", Self.floats(network.mean)), ("scale", Self.floats(network.scale))]))),
                (
                    "network",
                    .object(
                        JSONObject([
                            ("kind", .string("mlp-tanh-sigmoid")), ("inputs", .number(Double(network.inputs))),
                            ("hidden", .number(Double(network.hidden))), ("w1", Self.floats(network.w1)),
                            ("b1", Self.floats(network.b1)), ("w2", Self.floats(network.w2)),
                            ("b2", .number(Double(network.b2.description) ?? 0)),
                        ]))
                ),
                ("decision", .object(JSONObject(d))),
                ("training", training),
            ]))
    }

    /// The file text: pretty JSON with a trailing newline.
    public var fileText: String { json.serialized(.pretty) + "\n" }

    // MARK: Decoding

    /// Parses and validates a model file's text.
    public init(fileText: String) throws {
        let value: JSONValue
        do { value = try JSONValue.parse(fileText) } catch { throw SoundModelError("not valid JSON: \(error)") }
        try self.init(json: value)
    }

    /// Validates and decodes a model's JSON value.
    public init(json: JSONValue) throws {
        guard json["format"]?.stringValue == Self.format else {
            throw SoundModelError("format is not \"\(Self.format)\"")
        }
        guard let version = json["version"]?.intValue, version == Self.formatVersion else {
            throw SoundModelError("unsupported version \(json["version"]?.description ?? "missing") (expected \(Self.formatVersion))")
        }
        guard let label = json["label"]?.stringValue else { throw SoundModelError("missing label") }
        guard let spec = json["featureSpec"], spec == FeatureSpec.current.json else {
            throw SoundModelError(
                "feature spec mismatch: model has \(json["featureSpec"]?.description ?? "none"), this build computes \(FeatureSpec.current.json.description)"
            )
        }
        func floats(_ v: JSONValue?, _ name: String, count: Int) throws -> [Float] {
            guard let a = v?.arrayValue else { throw SoundModelError("missing \(name)") }
            let f = try a.map { e -> Float in
                guard let d = e.doubleValue else { throw SoundModelError("\(name) holds a non-number") }
                return Float(d)
            }
            guard f.count == count else { throw SoundModelError("\(name) has \(f.count) values, expected \(count)") }
            return f
        }
        guard let net = json["network"], net["kind"]?.stringValue == "mlp-tanh-sigmoid",
            let inputs = net["inputs"]?.intValue, let hidden = net["hidden"]?.intValue, hidden > 0,
            let b2 = net["b2"]?.doubleValue
        else { throw SoundModelError("missing or unknown network") }
        guard inputs == FeatureSpec.current.dimension else {
            throw SoundModelError("network has \(inputs) inputs, features have \(FeatureSpec.current.dimension)")
        }
        let norm = json["normalization"]
        network = TinyNetwork(
            inputs: inputs, hidden: hidden, mean: try floats(norm?["mean"], "normalization.mean", count: inputs),
            scale: try floats(norm?["scale"], "normalization.scale", count: inputs),
            w1: try floats(net["w1"], "network.w1", count: inputs * hidden),
            b1: try floats(net["b1"], "network.b1", count: hidden), w2: try floats(net["w2"], "network.w2", count: hidden),
            b2: Float(b2))
        guard let d = json["decision"], let threshold = d["threshold"]?.doubleValue,
            let gap = d["mergeGapSeconds"]?.doubleValue
        else { throw SoundModelError("missing decision parameters") }
        var decision = DecisionParameters(threshold: threshold, mergeGapSeconds: gap)
        if let v = d["releaseRatio"]?.doubleValue { decision.releaseRatio = v }
        if let v = d["minActiveDecisions"]?.intValue { decision.minActiveDecisions = v }
        if let v = d["onsetLeadSeconds"]?.doubleValue { decision.onsetLeadSeconds = v }
        if let v = d["sensitivityLogitStep"]?.doubleValue { decision.sensitivityLogitStep = v }
        decision.onsetActivity = d["onsetActivity"]?.doubleValue
        if let v = d["onsetBacktrackSeconds"]?.doubleValue { decision.onsetBacktrackSeconds = v }
        decision.maxEventSeconds = d["maxEventSeconds"]?.doubleValue
        decision.splitPauseSeconds = d["splitPauseSeconds"]?.doubleValue
        if let v = d["splitActivity"]?.doubleValue { decision.splitActivity = v }
        if let g = d["impactShatterGate"] {
            var gate = ImpactShatterGate()
            if let v = g["impactFlux"]?.doubleValue { gate.impactFlux = v }
            if let v = g["thudFlux"]?.doubleValue { gate.thudFlux = v }
            if let v = g["shatterHFRatio"]?.doubleValue { gate.shatterHFRatio = v }
            if let v = g["shatterRelative"]?.doubleValue { gate.shatterRelative = v }
            if let v = g["shatterFrames"]?.intValue { gate.shatterFrames = v }
            if let v = g["window"]?.doubleValue { gate.window = v }
            decision.gate = gate
        }
        self.label = label
        self.modelVersion = json["modelVersion"]?.intValue ?? 1
        self.decision = decision
        self.training = json["training"] ?? .null
    }
}
