import ArgumentParser
import Foundation
import VigilAudioIO
import VigilPipeline

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
        let output = try loaded.render(to: out, labels: labels, progress: !noProgress)
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
