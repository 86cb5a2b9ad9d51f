import ArgumentParser
import Foundation
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilInference
import VigilTestSupport
import VigilTraining

/// Recall of the shipped dogBark detector on barks of dogs that no model has heard: the bark
/// sound effects of nine Debian packages (`make bark-check` downloads them into
/// `.build/bark-check`, never into the project; docs/sound-models.md, "Unseen barks"). Each clip
/// is played three times, 0.6 s apart from 3 s on, over a development-set background (`negbg_*`)
/// at 20 dB and at 6 dB SNR, and the streaming detectors are scored at sensitivity 5, 8 and 10.
/// Needs the development data in ../shared/data for the backgrounds.
struct UnseenBarkCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bark-check", abstract: "Score the shipped dogBark detector on barks of unseen dogs (make bark-check).")

    @Argument(help: "Directory of bark clips (.wav, .ogg, .flac).")
    var directory: String

    @Option(name: .customLong("model"), help: "LABEL=FILE: score this model file instead of the shipped one (repeatable).")
    var models: [String] = []

    @Option(
        name: .customLong("write-scenes"),
        help:
            "Also write each scene as a 32-bit float WAV and their barks as labels.tsv into this directory (to score another system on them)."
    )
    var sceneDirectory: String?

    static let directory = ProcessInfo.processInfo.environment["VIGIL_BARKCHECK"]

    /// Signal-to-noise ratios of the bouts: the clip's RMS over its samples above a tenth of its
    /// peak, against the background's RMS over the whole scene.
    static let snrs = [20.0, 6.0]

    /// A bout of three copies of `clip` from 3 s on, 0.6 s apart, over `background` (looped and
    /// resampled to the clip's rate) at `snrDB`; returns the scene and the three bark spans.
    static func scene(clip: [Float], rate: Double, background: [Float], backgroundRate: Double, snrDB: Double) -> (
        samples: [Float], barks: [(onset: Double, offset: Double)]
    ) {
        let clipSeconds = Double(clip.count) / rate
        let seconds = max(10, 3 + 3 * (clipSeconds + 0.6) + 2)
        let bed = DevData.linearResample(background, factor: backgroundRate / rate)
        var out = (0..<Int(seconds * rate)).map { bed[$0 % bed.count] }
        let peak = clip.map { abs($0) }.max() ?? 0
        let loud = clip.filter { abs($0) > peak * 0.1 }
        let clipRMS = (loud.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(loud.count, 1))).squareRoot()
        let bedRMS = (out.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(out.count)).squareRoot() + 1e-9
        let gain = Float(bedRMS * pow(10, snrDB / 20) / max(clipRMS, 1e-9))
        var barks: [(Double, Double)] = []
        var t = 3.0
        for _ in 0..<3 {
            let start = Int(t * rate)
            for i in clip.indices where start + i < out.count { out[start + i] += clip[i] * gain }
            barks.append((t, t + clipSeconds))
            t += clipSeconds + 0.6
        }
        let top = out.map { abs($0) }.max() ?? 0
        if top > 0.9 { out = out.map { $0 * 0.9 / top } }
        return (out, barks)
    }

    /// Prints the event F1 at sensitivity 5, 8 and 10.
    func run() throws {
        try DevData.requireAvailable()
        let dir = directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(dir): not a directory (the bark clips; make bark-check fills .build/bark-check/clips)")
        }
        let clips = try FileManager.default.contentsOfDirectory(atPath: dir)
            .filter { [".wav", ".ogg", ".flac"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        guard !clips.isEmpty else { throw ValidationError("\(dir): no audio (.wav, .ogg, .flac)") }
        let replacements = try ModelReplacement.load(models)
        let dev = try DevData.load()
        let backgrounds = dev.files.filter { $0.hasPrefix("negbg_") }
        guard !backgrounds.isEmpty else { throw ValidationError("no negbg_ backgrounds in the development set") }
        var annotations: [LabelEvent] = []
        var recordings: [RecordingFeatures] = []
        var found: [Int: [String: [TrackedEvent]]] = [:]
        if let sceneDirectory { try FileManager.default.createDirectory(atPath: sceneDirectory, withIntermediateDirectories: true) }
        for (j, clipName) in clips.enumerated() {
            let clip = try DevData.loadAudio("\(dir)/\(clipName)")
            for snr in Self.snrs {
                let bgName = backgrounds[(j * 3 + Int(snr)) % backgrounds.count]
                let bg = try DevData.loadAudio(DevData.devDirectory.appendingPathComponent("audio/\(bgName)").path)
                let (samples, barks) = Self.scene(
                    clip: clip.samples, rate: clip.sampleRate, background: bg.samples, backgroundRate: bg.sampleRate, snrDB: snr)
                let name = "\(clipName)@\(Int(snr))dB"
                annotations += barks.map { LabelEvent(file: name, onset: $0.onset, offset: $0.offset, label: "dogBark") }
                if let sceneDirectory {
                    try AudioFileWriter.write(
                        samples, sampleRate: Int(clip.sampleRate), format: .wavFloat, to: "\(sceneDirectory)/\(name).wav")
                }
                recordings.append(
                    RecordingFeatures(name: name, duration: Double(samples.count) / clip.sampleRate, sampleRate: clip.sampleRate))
                for level in [5, 8, 10] {
                    var settings = DetectorSettings(sensitivity: [.dogBark: Sensitivity(level)])
                    settings.models = replacements
                    let events = runLearned(samples, rate: clip.sampleRate, triggers: [.dogBark], settings: settings).map {
                        TrackedEvent(
                            onset: $0.start, offset: $0.end, detectedAt: $0.detectedAt, peakProbability: $0.confidence, meanProbability: 0)
                    }
                    found[level, default: [:]][name] = events
                }
            }
        }
        print("unseen barks: \(clips.count) clips, \(annotations.count) barks in \(recordings.count) scenes")
        if let sceneDirectory {
            let rows = annotations.map {
                "\($0.file).wav\t\(String(format: "%.3f", $0.onset))\t\(String(format: "%.3f", $0.offset))\t\($0.label)\n"
            }
            try rows.joined().write(toFile: "\(sceneDirectory)/labels.tsv", atomically: true, encoding: .utf8)
            print("scenes and labels.tsv written to \(sceneDirectory)")
        }
        for level in [5, 8, 10] {
            let fig = SoundModelTrainer.score(
                label: "dogBark", found: found[level] ?? [:], recordings: recordings, annotations: annotations
            ).event
            let perSNR = Self.snrs.map { snr in
                let names = Set(recordings.map(\.name).filter { $0.hasSuffix("@\(Int(snr))dB") })
                let f = SoundModelTrainer.score(
                    label: "dogBark", found: (found[level] ?? [:]).filter { names.contains($0.key) },
                    recordings: recordings.filter { names.contains($0.name) }, annotations: annotations.filter { names.contains($0.file) }
                ).event
                return String(format: "%.0f dB: %d of %d", snr, f.truePositives, f.truePositives + f.falseNegatives)
            }
            print(
                String(
                    format: "sensitivity %2d: event F1 %.3f (P %.3f R %.3f; TP %d FP %d FN %d; found %@)", level, fig.f1, fig.precision,
                    fig.recall, fig.truePositives, fig.falsePositives, fig.falseNegatives, perSNR.joined(separator: ", ")))
        }
    }
}
