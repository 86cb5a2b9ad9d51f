import VigilCore

/// A labelled synthetic scene (docs/scenario-format.md): sample rate, duration, seed,
/// background, and the items placed in it. Rendering (``ScenarioRenderer``) is deterministic
/// for a given scenario, seed and clip samples.
public struct Scenario: Sendable, Hashable {
    /// Samples per second (8000...192000).
    public var sampleRate: Int
    /// Length in seconds.
    public var duration: Double
    /// Seed of every random choice (noise, jitter, babble).
    public var seed: UInt64
    /// Noise and babble under everything.
    public var background: ScenarioBackground
    /// The placed sounds, in file order.
    public var items: [ScenarioItem]

    /// Longest scenario accepted (seconds): 24 hours.
    public static let maxDuration: Double = 86_400

    /// Creates a scenario.
    public init(
        sampleRate: Int, duration: Double, seed: UInt64 = 1, background: ScenarioBackground = ScenarioBackground(), items: [ScenarioItem]
    ) {
        self.sampleRate = sampleRate
        self.duration = duration
        self.seed = seed
        self.background = background
        self.items = items
    }

    /// Number of samples of the rendered scene.
    public var sampleCount: Int { Int((duration * Double(sampleRate)).rounded()) }

    /// The seed of item `index` (its jitter and noise), derived from ``seed``.
    public func itemSeed(_ index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index &+ 1) &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }

    /// The file paths of the clip items, as written, without repeats.
    public var clipPaths: [String] {
        var seen = Set<String>()
        return items.compactMap(\.path).filter { seen.insert($0).inserted }
    }

    /// The labelled events, sorted by onset: patterns from their first pulse's onset to the last
    /// pulse's end, other items over their extent (clips: `clipDurations[path]`, when known).
    /// Unlabelled items are left out.
    public func labels(clipDurations: [String: Double] = [:]) -> [ScenarioLabel] {
        var result: [ScenarioLabel] = []
        for (index, item) in items.enumerated() {
            guard let label = item.label else { continue }
            let onset: Double
            let offset: Double
            switch item.kind {
            case .t3, .t4, .pattern:
                let pulses = item.pulseSchedule(seed: itemSeed(index))
                guard let first = pulses.first, let last = pulses.last else { continue }
                onset = first.start
                offset = last.end
            case .tone, .noise, .babble:
                onset = item.start
                offset = item.start + item.duration
            case .clip:
                onset = item.start
                offset = item.start + (item.path.flatMap { clipDurations[$0] } ?? 0)
            }
            let end = min(offset, duration)
            if onset < duration { result.append(ScenarioLabel(onset: onset, offset: end, label: label)) }
        }
        return result.enumerated().sorted { l, r in
            l.element.onset != r.element.onset ? l.element.onset < r.element.onset : l.offset < r.offset
        }.map(\.element)
    }

    // MARK: Decoding

    /// Decodes a scenario from UTF-8 JSON, collecting every problem with its JSON path. The
    /// document must fit `limits` (``InputLimits/maxJSONBytes``, ``InputLimits/maxJSONDepth``).
    public static func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, limits: InputLimits = .default) throws(ScenarioError) -> Scenario {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, limits: limits)
        } catch {
            throw ScenarioError(problems: [ScenarioProblem(path: "", reason: error.description)])
        }
        return try decode(json: value)
    }

    /// Decodes an already parsed scenario, collecting every problem with its JSON path.
    public static func decode(json: JSONValue) throws(ScenarioError) -> Scenario {
        var reader = ScenarioReader()
        let scenario = reader.read(json)
        guard let scenario, reader.problems.isEmpty else {
            throw ScenarioError(
                problems: reader.problems.isEmpty ? [ScenarioProblem(path: "", reason: "invalid scenario")] : reader.problems)
        }
        return scenario
    }
}
