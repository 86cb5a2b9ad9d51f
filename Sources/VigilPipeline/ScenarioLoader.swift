import Foundation
import VigilAudioIO
import VigilCore
import VigilSynth

/// Reads a scenario file and the clips it names (paths relative to the scenario's directory,
/// mixed to mono, at the scenario's sample rate), for `vigil synth` and `vigil live`.
public struct ScenarioLoader {
    public var scenario: Scenario
    public var clips: [String: [Float]]
    public var clipDurations: [String: Double]

    /// Loads `path`; errors name the file and, for scenario problems, the JSON path.
    public static func load(path: String, limits: InputLimits = .default) throws -> ScenarioLoader {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioLoadFailure(path: path, problems: ["cannot read file"])
        }
        let scenario: Scenario
        do {
            scenario = try Scenario.decode(data, limits: limits)
        } catch {
            throw ScenarioLoadFailure(path: path, problems: error.problems.map(\.description))
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var clips: [String: [Float]] = [:]
        var durations: [String: Double] = [:]
        var problems: [String] = []
        for (index, item) in scenario.items.enumerated() {
            guard item.kind == .clip, let clipPath = item.path, clips[clipPath] == nil else { continue }
            let resolved = clipPath.hasPrefix("/") ? clipPath : directory.appendingPathComponent(clipPath).path
            do {
                let reader = try AudioFileReader(path: resolved, limits: limits)
                guard reader.sampleRate == scenario.sampleRate else {
                    problems.append("items[\(index)].path: \(clipPath) is \(reader.sampleRate) Hz, the scenario is \(scenario.sampleRate) Hz")
                    continue
                }
                var samples: [Float] = []
                var block = [Float](repeating: 0, count: 65536)
                while true {
                    let n = try block.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                    if n == 0 { break }
                    samples += block[0..<n]
                    if samples.count > scenario.sampleRate * 3600 {
                        problems.append("items[\(index)].path: \(clipPath) is longer than one hour")
                        break
                    }
                }
                clips[clipPath] = samples
                durations[clipPath] = Double(samples.count) / Double(scenario.sampleRate)
            } catch {
                problems.append("items[\(index)].path: \(error)")
            }
        }
        if !problems.isEmpty { throw ScenarioLoadFailure(path: path, problems: problems) }
        return ScenarioLoader(scenario: scenario, clips: clips, clipDurations: durations)
    }
}

/// A scenario file that could not be used, with every problem (JSON paths where they apply).
public struct ScenarioLoadFailure: Error, CustomStringConvertible {
    public var path: String
    public var problems: [String]
    public var description: String {
        "\(path): invalid scenario (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n" + problems.map { "  \($0)\n" }.joined()
    }
}
