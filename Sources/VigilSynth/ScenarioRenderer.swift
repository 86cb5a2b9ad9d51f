/// Renders a ``Scenario`` block by block, in order: the whole scene never has to be in memory,
/// and the samples do not depend on the block sizes (every random source is consumed once per
/// sample, in order). `vigil synth` and `vigil live` share this code. Pure: clips are passed in
/// as samples, keyed by their path as written in the scenario.
public struct ScenarioRenderer: Sendable {
    /// The scenario being rendered.
    public let scenario: Scenario
    /// Total samples of the scene.
    public let totalSamples: Int
    /// Samples rendered so far.
    public private(set) var position = 0

    private let initialVoices: [ScenarioVoice]
    private var voices: [ScenarioVoice]

    /// Prepares rendering. Every clip item's path must be in `clips` (mono samples at the
    /// scenario's sample rate); a missing one is a problem at `items[i].path`.
    public init(scenario: Scenario, clips: [String: [Float]] = [:]) throws(ScenarioError) {
        self.scenario = scenario
        totalSamples = scenario.sampleCount
        let rate = Double(scenario.sampleRate)
        var voices: [ScenarioVoice] = []
        var problems: [ScenarioProblem] = []
        let background = scenario.background
        if let level = background.noiseLevel {
            voices.append(
                ScenarioVoice(
                    noise: background.noiseColour, level: level, from: 0, to: totalSamples, ramp: 0,
                    seed: scenario.seed ^ 0xB5AD_4ECE_DA1C_E2A9))
        }
        if let level = background.babbleLevel {
            voices.append(
                ScenarioVoice(
                    babble: background.babbleVoices, level: level, from: 0, to: totalSamples, sampleRate: rate,
                    seed: scenario.seed ^ 0x5851_F42D_4C95_7F2D))
        }
        for (index, item) in scenario.items.enumerated() {
            let seed = scenario.itemSeed(index)
            let first = Int((item.start * rate).rounded())
            let level = item.level ?? -20
            switch item.kind {
            case .t3, .t4, .pattern, .tone:
                let pulses = item.pulseSchedule(seed: seed).map { (Int(($0.start * rate).rounded()), Int(($0.end * rate).rounded())) }
                voices.append(
                    ScenarioVoice(pulses: pulses, frequency: item.frequency, waveform: item.waveform, level: level, sampleRate: rate))
            case .noise:
                let last = Int(((item.start + item.duration) * rate).rounded())
                voices.append(ScenarioVoice(noise: item.colour, level: level, from: first, to: last, ramp: Int(0.005 * rate), seed: seed))
            case .babble:
                let last = Int(((item.start + item.duration) * rate).rounded())
                voices.append(ScenarioVoice(babble: item.voices, level: level, from: first, to: last, sampleRate: rate, seed: seed))
            case .clip:
                guard let path = item.path, let samples = clips[path] else {
                    problems.append(
                        ScenarioProblem(path: "items[\(index)].path", reason: "no samples loaded for clip \"\(item.path ?? "")\""))
                    continue
                }
                voices.append(ScenarioVoice(clip: samples, level: item.level, gainDB: item.gain, from: first))
            }
        }
        if !problems.isEmpty { throw ScenarioError(problems: problems) }
        self.initialVoices = voices
        self.voices = voices
    }

    /// Whether every sample has been rendered.
    public var isFinished: Bool { position >= totalSamples }

    /// Media time rendered so far, in seconds.
    public var time: Double { Double(position) / Double(scenario.sampleRate) }

    /// The next block of at most `maxSamples` samples; empty once the scene is finished.
    public mutating func next(maxSamples: Int) -> [Float] {
        let count = min(max(0, maxSamples), totalSamples - position)
        guard count > 0 else { return [] }
        var block = [Float](repeating: 0, count: count)
        let range = position..<(position + count)
        block.withUnsafeMutableBufferPointer { buffer in
            for index in voices.indices { voices[index].add(into: buffer, range: range) }
        }
        position += count
        return block
    }

    /// Starts again from the first sample, with the same random sequences (so a looped scene
    /// repeats exactly).
    public mutating func rewind() {
        voices = initialVoices
        position = 0
    }

    /// Renders the whole scene at once.
    public static func render(_ scenario: Scenario, clips: [String: [Float]] = [:]) throws(ScenarioError) -> [Float] {
        var renderer = try ScenarioRenderer(scenario: scenario, clips: clips)
        return renderer.next(maxSamples: renderer.totalSamples)
    }
}
