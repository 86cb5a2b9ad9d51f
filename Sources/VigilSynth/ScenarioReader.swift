import VigilCore

/// The problem-collecting reader behind ``Scenario/decode(json:)``: every key is type- and
/// range-checked and every problem names its JSON path.
struct ScenarioReader {
    var problems: [ScenarioProblem] = []

    static let rootKeys = ["sampleRate", "duration", "seed", "background", "items", "description"]
    static let itemKeys = [
        "type", "start", "duration", "level", "snr", "gain", "frequency", "waveform", "cycles", "pulses", "on", "off",
        "groupOff", "jitter", "colour", "color", "voices", "path", "label",
    ]

    mutating func problem(_ path: String, _ reason: String) { problems.append(ScenarioProblem(path: path, reason: reason)) }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func short(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 40 ? String(text.prefix(37)) + "..." : text
    }

    mutating func object(_ value: JSONValue, at path: String, keys: [String]) -> JSONObject? {
        guard let object = value.objectValue else {
            problem(path, "expected an object, got \(Self.short(value))")
            return nil
        }
        for key in object.keys where !keys.contains(key) { problem(Self.join(path, key), "unknown key") }
        return object
    }

    mutating func number(_ object: JSONObject, _ key: String, at path: String, range: ClosedRange<Double>) -> Double? {
        guard let value = object[key] else { return nil }
        let here = Self.join(path, key)
        guard case .number(let x) = value else {
            problem(here, "expected a number, got \(Self.short(value))")
            return nil
        }
        guard range.contains(x) else {
            problem(
                here,
                "\(JSONValue.numberText(x)) is out of range \(JSONValue.numberText(range.lowerBound))...\(JSONValue.numberText(range.upperBound))"
            )
            return nil
        }
        return x
    }

    mutating func integer(_ object: JSONObject, _ key: String, at path: String, range: ClosedRange<Int>) -> Int? {
        guard let value = object[key] else { return nil }
        let here = Self.join(path, key)
        guard case .number(let x) = value, x.rounded(.towardZero) == x, let n = Int(exactly: x) else {
            problem(here, "expected an integer, got \(Self.short(value))")
            return nil
        }
        guard range.contains(n) else {
            problem(here, "\(n) is out of range \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return n
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ object: JSONObject, _ key: String, at path: String, as: E.Type) -> E?
    where E.RawValue == String {
        guard let value = object[key] else { return nil }
        let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = value.stringValue, let result = E(rawValue: text) else {
            problem(Self.join(path, key), "expected one of \(names), got \(Self.short(value))")
            return nil
        }
        return result
    }

    /// Keys only a device file has at its top level (docs/device-file.md).
    static let deviceFileKeys: Set<String> = [
        "zones", "triggers", "supportedEventTriggers", "enabledEventTriggers", "recordingMode", "transport", "twoDCartesianMax",
        "maxUserDefinedZones", "sensitivityMax",
    ]

    mutating func read(_ root: JSONValue) -> Scenario? {
        // A device file given where a scenario belongs: one clear problem instead of one per key.
        if let keys = root.objectValue?.keys, !keys.contains(where: { Self.rootKeys.contains($0) }) {
            let deviceKeys = keys.filter { Self.deviceFileKeys.contains($0) }
            if deviceKeys.count >= 2 {
                problem(
                    "",
                    "this is a device file (it has \(deviceKeys.prefix(3).joined(separator: ", "))), not a scenario: a device file goes to vigil analyze or vigil live with --device; "
                        + "a scenario has sampleRate, duration and items (docs/scenario-format.md)")
                return nil
            }
        }
        guard let top = object(root, at: "", keys: Self.rootKeys) else { return nil }
        let sampleRate = integer(top, "sampleRate", at: "", range: 8_000...192_000) ?? 16_000
        var duration = 0.0
        if top["duration"] == nil {
            problem("duration", "missing required key")
        } else if let value = number(top, "duration", at: "", range: 0.001...Scenario.maxDuration) {
            duration = value
        }
        let seed = integer(top, "seed", at: "", range: 0...(1 << 53)).map { UInt64($0) } ?? 1
        var background = ScenarioBackground()
        if let value = top["background"], let object = object(value, at: "background", keys: ["noise", "babble"]) {
            if let noise = object["noise"], let spec = self.object(noise, at: "background.noise", keys: ["level", "colour", "color"]) {
                if spec["level"] == nil { problem("background.noise.level", "missing required key") }
                background.noiseLevel = number(spec, "level", at: "background.noise", range: -140...0)
                background.noiseColour =
                    choice(spec, "colour", at: "background.noise", as: ScenarioNoiseColour.self)
                    ?? choice(spec, "color", at: "background.noise", as: ScenarioNoiseColour.self) ?? .white
            }
            if let babble = object["babble"], let spec = self.object(babble, at: "background.babble", keys: ["level", "voices"]) {
                if spec["level"] == nil { problem("background.babble.level", "missing required key") }
                background.babbleLevel = number(spec, "level", at: "background.babble", range: -140...0)
                background.babbleVoices = integer(spec, "voices", at: "background.babble", range: 1...16) ?? 4
            }
        }
        var items: [ScenarioItem] = []
        if let value = top["items"] {
            if let list = value.arrayValue {
                for (index, element) in list.enumerated() {
                    if let item = readItem(
                        element, at: "items[\(index)]", duration: duration, sampleRate: sampleRate, background: background)
                    {
                        items.append(item)
                    }
                }
            } else {
                problem("items", "expected an array, got \(Self.short(value))")
            }
        }
        return Scenario(sampleRate: sampleRate, duration: duration, seed: seed, background: background, items: items)
    }

    mutating func readItem(
        _ value: JSONValue, at path: String, duration sceneDuration: Double, sampleRate: Int, background: ScenarioBackground
    )
        -> ScenarioItem?
    {
        guard let object = object(value, at: path, keys: Self.itemKeys) else { return nil }
        let before = problems.count
        guard object["type"] != nil else {
            problem(Self.join(path, "type"), "missing required key")
            return nil
        }
        guard let kind = choice(object, "type", at: path, as: ScenarioItem.Kind.self) else { return nil }
        var item = ScenarioItem(kind: kind, start: 0)
        switch kind {
        case .t3: (item.pulses, item.on, item.off, item.groupOff) = (3, 0.5, 0.5, 1.5)
        case .t4: (item.pulses, item.on, item.off, item.groupOff) = (4, 0.1, 0.1, 5.1)
        default: break
        }
        item.label = ScenarioItem.defaultLabel(for: kind)
        if object["start"] == nil { problem(Self.join(path, "start"), "missing required key") }
        item.start = number(object, "start", at: path, range: 0...Scenario.maxDuration) ?? 0
        if item.start >= sceneDuration && object["start"] != nil && sceneDuration > 0 {
            problem(
                Self.join(path, "start"),
                "\(JSONValue.numberText(item.start)) is not before the scene's end \(JSONValue.numberText(sceneDuration))")
        }
        switch kind {
        case .tone, .noise, .babble:
            if object["duration"] == nil { problem(Self.join(path, "duration"), "missing required key") }
            item.duration = number(object, "duration", at: path, range: 0.001...Scenario.maxDuration) ?? 0
        default:
            if object["duration"] != nil {
                problem(Self.join(path, "duration"), "not used by \(kind.rawValue) items (the timing keys set the length)")
            }
        }
        // Level: dBFS, or SNR above the background noise.
        if object["level"] != nil && object["snr"] != nil {
            problem(Self.join(path, "snr"), "give either level or snr, not both")
        } else if object["snr"] != nil {
            if let snr = number(object, "snr", at: path, range: -60...120) {
                if let noise = background.noiseLevel {
                    item.level = min(0, noise + snr)
                } else {
                    problem(Self.join(path, "snr"), "snr needs background.noise")
                }
            }
        } else if object["level"] != nil {
            item.level = number(object, "level", at: path, range: -140...0)
        } else if kind == .clip {
            item.level = nil
        }
        if kind == .clip {
            item.gain = number(object, "gain", at: path, range: -120...60) ?? 0
            if object["path"] == nil { problem(Self.join(path, "path"), "missing required key") }
            if let value = object["path"] {
                if let text = value.stringValue, !text.isEmpty {
                    item.path = text
                } else {
                    problem(Self.join(path, "path"), "expected a non-empty string, got \(Self.short(value))")
                }
            }
        } else if object["gain"] != nil || object["path"] != nil {
            problem(Self.join(path, object["gain"] != nil ? "gain" : "path"), "only clip items take this key")
        }
        let nyquist = Double(sampleRate) / 2
        if item.isPattern || kind == .tone {
            if kind == .pattern || kind == .tone, object["frequency"] == nil {
                problem(Self.join(path, "frequency"), "missing required key")
            }
            if let f = number(object, "frequency", at: path, range: 1...96_000) {
                if f >= nyquist {
                    problem(
                        Self.join(path, "frequency"),
                        "\(JSONValue.numberText(f)) Hz is not below the Nyquist frequency \(JSONValue.numberText(nyquist)) Hz")
                } else {
                    item.frequency = f
                }
            }
            item.waveform = choice(object, "waveform", at: path, as: ScenarioWaveform.self) ?? .sine
        }
        if item.isPattern {
            item.cycles = integer(object, "cycles", at: path, range: 1...100_000) ?? item.cycles
            if kind == .pattern {
                for key in ["pulses", "on", "off", "groupOff"] where object[key] == nil {
                    problem(Self.join(path, key), "missing required key")
                }
            }
            item.pulses = integer(object, "pulses", at: path, range: 1...64) ?? item.pulses
            item.on = number(object, "on", at: path, range: 0.005...60) ?? item.on
            item.off = number(object, "off", at: path, range: 0.005...60) ?? item.off
            item.groupOff = number(object, "groupOff", at: path, range: 0.005...600) ?? item.groupOff
            item.jitter = number(object, "jitter", at: path, range: 0...0.5) ?? 0
        } else {
            for key in ["cycles", "pulses", "on", "off", "groupOff", "jitter"] where object[key] != nil {
                problem(Self.join(path, key), "only t3, t4 and pattern items take this key")
            }
        }
        if kind == .noise {
            item.colour =
                choice(object, "colour", at: path, as: ScenarioNoiseColour.self)
                ?? choice(object, "color", at: path, as: ScenarioNoiseColour.self) ?? .white
        }
        if kind == .babble { item.voices = integer(object, "voices", at: path, range: 1...16) ?? 4 }
        if let value = object["label"] {
            switch value {
            case .null: item.label = nil
            case .string(let text) where text == "none" || text.isEmpty: item.label = nil
            case .string(let text) where !text.contains("\t") && !text.contains("\n"): item.label = text
            default: problem(Self.join(path, "label"), "expected a label string (no tabs or newlines) or null, got \(Self.short(value))")
            }
        }
        return problems.count == before ? item : nil
    }
}
