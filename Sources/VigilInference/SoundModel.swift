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
    /// The supported `version` (2: the `classifier` is gradient-boosted trees, kind `gbdt`, or a temporal
    /// convolutional network, kind `tcn`; version 1 files held a perceptron as `network` and were made for features v2).
    public static let formatVersion = 2

    /// Trigger name (`dogBark`, `glassBreak`, `personTalking`).
    public var label: String
    /// Model version (bumped when retrained with other data or settings).
    public var modelVersion: Int
    /// The classifier.
    public var classifier: SoundClassifier
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
    public init(label: String, modelVersion: Int, classifier: SoundClassifier, decision: DecisionParameters, training: JSONValue) {
        self.label = label
        self.modelVersion = modelVersion
        self.classifier = classifier
        self.decision = decision
        self.training = training
    }

    // MARK: Encoding

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
            ("featureSpec", FeatureSpec.current.json), ("classifier", classifier.json), ("decision", .object(JSONObject(d))),
            ("training", training),
        ]
        return .object(JSONObject(members))
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
        guard let c = json["classifier"] else { throw SoundModelError("missing classifier") }
        classifier = try SoundClassifier(json: c)
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
