import ArgumentParser
import Foundation
import VigilPipeline
import VigilAudioIO
import VigilCore
import VigilSynth

/// `vigil synth`: renders a labelled scenario to an audio file and a labels TSV.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Render a labelled synthetic scene from a scenario file (deterministic for a seed).",
        discussion: """
            SCENARIO is a JSON file (docs/scenario-format.md, examples in Samples/scenarios/): sample rate, \
            duration, seed, background noise and babble, and items (t3 and t4 alarms, other beep patterns, \
            tones, noise bursts, speech-like babble, clips from audio files) at given times and levels.

            --out writes the scene (WAV, FLAC, AIFF or OGG by extension); --labels writes the labelled \
            events as TSV (file, onset, offset, label; the format vigil bench reads). stdout gets JSON \
            Lines: one "label" object per labelled event and a final "synth" summary. The same scenario \
            and seed always give the same samples; `vigil live SCENARIO` streams the same scene.

            Examples:
              vigil synth Samples/scenarios/alarms.json --out alarms.wav --labels alarms.tsv
              vigil synth Samples/scenarios/knocks.json --out knocks.flac
            """)

    @Argument(help: "Scenario file (JSON).")
    var scenario: String

    @Option(help: "Audio file to write (.wav, .flac, .aif/.aiff, .ogg).")
    var out: String

    @Option(help: "Labels TSV to write.")
    var labels: String?

    @Flag(help: "Do not show the progress bar.")
    var noProgress = false

    func validate() throws {
        if AudioFileWriter.Format.forPath(out) == nil {
            throw ValidationError("--out \(out): unknown extension, use .wav, .flac, .aif, .aiff or .ogg")
        }
    }

    @OptionGroup(title: "Input limits")
    var inputLimits: InputLimitOptions

    func run() throws {
        let loaded: ScenarioLoader
        do {
            loaded = try ScenarioLoader.load(path: scenario, limits: inputLimits.limits)
        } catch {
            FileHandle.standardError.write(Data("vigil synth: \(error)\n".utf8))
            Foundation.exit(ExitStatus.usage)
        }
        let scene = loaded.scenario
        var renderer = try ScenarioRenderer(scenario: scene, clips: loaded.clips)
        let writer = try AudioFileStreamWriter(
            path: out, channels: 1, sampleRate: scene.sampleRate, format: AudioFileWriter.Format.forPath(out)!)
        let progress = ProgressBar(totalSeconds: scene.duration, totalItems: 1, itemName: "scenes", enabled: !noProgress)
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
            let text = sceneLabels.map { "\(fileName)\t\(DecimalText.fixed($0.onset, places: 3))\t\(DecimalText.fixed($0.offset, places: 3))\t\($0.label)\n" }.joined()
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
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
