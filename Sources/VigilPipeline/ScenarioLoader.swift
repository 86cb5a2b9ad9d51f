import Foundation
import VigilAudioIO
import VigilCore
import VigilSynth

/// Reads a scenario file and the clips it names (paths relative to the scenario's directory,
/// mixed to mono, at the scenario's sample rate), for `vigil synth` and `vigil live`.
public struct ScenarioLoader {
    /// The scenario.
    public var scenario: Scenario
    /// The clips' samples by their path in the scenario.
    public var clips: [String: [Float]]
    /// The clips' durations in seconds.
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
                    problems.append(
                        "items[\(index)].path: \(clipPath) is \(reader.sampleRate) Hz, the scenario is \(scenario.sampleRate) Hz")
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

extension ScenarioLoader {
    /// Renders the scene into the audio file `out` (format by extension), the labelled events into
    /// the TSV `labels` if given, with a progress bar on stderr; returns the JSON Lines `vigil synth`
    /// prints (one "label" object per labelled event, then a "synth" summary).
    public func render(to out: String, labels: String?, progress showProgress: Bool) throws -> String {
        let loaded = self
        let scene = loaded.scenario
        var renderer = try ScenarioRenderer(scenario: scene, clips: loaded.clips)
        let writer = try AudioFileStreamWriter(
            path: out, channels: 1, sampleRate: scene.sampleRate, format: AudioFileWriter.Format.forPath(out)!)
        let progress = ProgressBar(totalSeconds: scene.duration, totalItems: 1, itemName: "scenes", enabled: showProgress)
        var rendered = 0.0
        let block = max(1, scene.sampleRate)
        while !renderer.isFinished {
            try writer.append(renderer.next(maxSamples: block))
            progress.add(mediaSeconds: renderer.time - rendered, label: out)
            rendered = renderer.time
        }
        try writer.close()
        progress.finish()
        let sceneLabels = scene.labels(clipDurations: loaded.clipDurations)
        let fileName = URL(fileURLWithPath: out).lastPathComponent
        if let labels {
            let text = sceneLabels.map {
                "\(fileName)\t\(DecimalText.fixed($0.onset, places: 3))\t\(DecimalText.fixed($0.offset, places: 3))\t\($0.label)\n"
            }.joined()
            try Data(text.utf8).write(to: URL(fileURLWithPath: labels))
        }
        var output = ""
        for label in sceneLabels {
            let line: JSONValue = [
                "v": 1, "type": "label", "file": .string(fileName), "onset": .number((label.onset * 1000).rounded() / 1000),
                "offset": .number((label.offset * 1000).rounded() / 1000), "label": .string(label.label),
            ]
            output += line.serialized(.compact) + "\n"
        }
        let summary: JSONValue = [
            "v": 1, "type": "synth", "file": .string(fileName), "out": .string(out), "labels": labels.map(JSONValue.string) ?? .null,
            "sampleRate": .number(Double(scene.sampleRate)), "duration": .number(scene.duration), "seed": .number(Double(scene.seed)),
            "labelCount": .number(Double(sceneLabels.count)),
        ]
        output += summary.serialized(.compact) + "\n"
        return output
    }
}

/// A scenario file that could not be used, with every problem (JSON paths where they apply).
public struct ScenarioLoadFailure: Error, CustomStringConvertible {
    /// The file or directory concerned.
    public var path: String
    /// Every problem, with its JSON path where it applies.
    public var problems: [String]
    public var description: String {
        "\(path): invalid scenario (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n" + problems.map { "  \($0)\n" }.joined()
    }
}
