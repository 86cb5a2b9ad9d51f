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
    /// The supported `version` (2: gradient-boosted trees as `classifier`; version 1 files held a
    /// perceptron as `network` and were made for features v2).
    public static let formatVersion = 2

    /// Trigger name (`dogBark`, `glassBreak`, `personTalking`).
    public var label: String
    /// Model version (bumped when retrained with other data or settings).
    public var modelVersion: Int
    /// The classifier.
    public var classifier: GradientBoostedTrees
    /// Decision parameters (sensitivity 5 = ``DecisionParameters/threshold``).
    public var decision: DecisionParameters
    /// Training metadata (seed, data hash, split, counts, validation metrics), kept as JSON.
    public var training: JSONValue
    /// The rate (Hz) a low-rate model was trained at, every recording above it resampled to it; nil for a
    /// model trained on every recording at its own rate. A low-rate model serves streams below
    /// ``lowRateLimit`` (`LearnedSoundDetector.shippedModel(for:sampleRate:)`).
    public var trainingRate: Int?
    /// The frames the model's features are taken on (the file's `frames`; absent: ``FeatureFrames/shared``).
    public var frames: FeatureFrames = .shared

    /// Streams below this rate (Hz) use a label's low-rate model where it has one: below 32 kHz the
    /// band above 8 kHz, where glass shatters, is cut or missing, and a model trained on it misses
    /// the sound.
    public static let lowRateLimit = 32_000

    /// Creates a model.
    public init(label: String, modelVersion: Int, classifier: GradientBoostedTrees, decision: DecisionParameters, training: JSONValue) {
        self.label = label
        self.modelVersion = modelVersion
        self.classifier = classifier
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
        if let bout = decision.boutSeconds {
            d.append(("boutSeconds", .number(bout)))
            d.append(("boutThreshold", .number(decision.boutThreshold)))
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
        var members: [(String, JSONValue)] = [
            ("format", .string(Self.format)), ("version", .number(Double(Self.formatVersion))),
            ("label", .string(label)), ("modelVersion", .number(Double(modelVersion))),
        ]
        if let trainingRate { members.append(("trainingRate", .number(Double(trainingRate)))) }
        if frames != .shared { members.append(("frames", .string(frames.rawValue))) }
        members += [
            ("featureSpec", FeatureSpec.current.json), ("classifier", classifierJSON), ("decision", .object(JSONObject(d))),
            ("training", training),
        ]
        return .object(JSONObject(members))
    }

    static func ints(_ a: [Int32]) -> JSONValue { .array(a.map { .number(Double($0)) }) }

    /// The kind of classifier written in model files.
    public static let classifierKind = "gbdt"

    /// The classifier's JSON value: `kind` and its parameters.
    var classifierJSON: JSONValue {
        let t = classifier
        return .object(
            JSONObject([
                ("kind", .string(Self.classifierKind)), ("inputs", .number(Double(t.inputs))),
                ("baseLogit", .number(Double(t.baseLogit.description) ?? 0)), ("roots", Self.ints(t.roots)),
                ("feature", Self.ints(t.nodes.map(\.feature))), ("left", Self.ints(t.nodes.map(\.left))),
                ("value", Self.floats(t.nodes.map(\.value))),
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
        if let rate = json["trainingRate"] {
            guard let r = rate.intValue, (4_000..<Self.lowRateLimit).contains(r) else {
                throw SoundModelError(
                    "trainingRate \(rate.description): a low-rate model's rate must be 4000...\(Self.lowRateLimit - 1) Hz")
            }
            trainingRate = r
        }
        if let value = json["frames"] {
            guard let name = value.stringValue, let kind = FeatureFrames(rawValue: name) else {
                let names = FeatureFrames.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw SoundModelError("frames \(value.description): must be \(names)")
            }
            frames = kind
        }
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
        func ints(_ v: JSONValue?, _ name: String, count: Int) throws -> [Int32] {
            guard let a = v?.arrayValue else { throw SoundModelError("missing \(name)") }
            guard a.count == count else { throw SoundModelError("\(name) has \(a.count) values, expected \(count)") }
            return try a.map { e -> Int32 in
                guard let d = e.doubleValue, d == d.rounded(), abs(d) < 2_147_483_648 else {
                    throw SoundModelError("\(name) holds a value that is not a 32-bit integer")
                }
                return Int32(d)
            }
        }
        guard let c = json["classifier"], let kindName = c["kind"]?.stringValue else {
            throw SoundModelError("missing classifier")
        }
        guard kindName == Self.classifierKind else {
            throw SoundModelError("unknown classifier kind \"\(kindName)\" (expected \"\(Self.classifierKind)\")")
        }
        guard let inputs = c["inputs"]?.intValue, inputs == FeatureSpec.current.dimension else {
            throw SoundModelError(
                "classifier has \(c["inputs"]?.description ?? "no") inputs, features have \(FeatureSpec.current.dimension)")
        }
        guard let base = c["baseLogit"]?.doubleValue, let count = c["feature"]?.arrayValue?.count,
            let rootCount = c["roots"]?.arrayValue?.count
        else { throw SoundModelError("classifier: missing baseLogit, roots or feature") }
        let feature = try ints(c["feature"], "classifier.feature", count: count)
        let left = try ints(c["left"], "classifier.left", count: count)
        let value = try floats(c["value"], "classifier.value", count: count)
        let trees = GradientBoostedTrees(
            inputs: inputs, baseLogit: Float(base), roots: try ints(c["roots"], "classifier.roots", count: rootCount),
            nodes: (0..<count).map { .init(feature: feature[$0], left: left[$0], value: value[$0]) })
        if let problem = trees.validationProblem { throw SoundModelError("classifier: \(problem)") }
        classifier = trees
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
        if let bout = d["boutSeconds"]?.doubleValue {
            guard bout.isFinite, bout > 0 else {
                throw SoundModelError("decision.boutSeconds: \(bout) is not a positive number of seconds")
            }
            guard let b = d["boutThreshold"]?.doubleValue, b > 0, b < 1 else {
                throw SoundModelError("decision.boutThreshold: missing or not a probability strictly between 0 and 1")
            }
            decision.boutSeconds = bout
            decision.boutThreshold = b
        }
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
