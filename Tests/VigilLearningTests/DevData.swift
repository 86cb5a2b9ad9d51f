import Foundation
import VigilAudioIO
import VigilCore
import VigilLearning

/// Locations and loading of the development data in ../shared/data (read only; never copied).
enum DevData {
    /// The package root (from this file's path).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// ../shared/data/dev
    static let devDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/dev")
    /// Whether the development data is present.
    static let available: Bool = FileManager.default.fileExists(
        atPath: devDirectory.appendingPathComponent("labels.tsv").path)

    static func text(_ name: String) throws -> String {
        try String(contentsOf: devDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Decodes a whole audio file to mono floats.
    static func loadAudio(_ path: String) throws -> (samples: [Float], sampleRate: Double) {
        let reader = try AudioFileReader(path: path)
        var out: [Float] = []
        var block = [Float](repeating: 0, count: 65_536)
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: block[0..<n])
        }
        return (out, Double(reader.sampleRate))
    }

    struct Set_ {
        var annotations: [LabelEvent]
        var files: [String]
        var durations: [String: Double]
        var provenance: [DevelopmentSet.SourceRow]
        var validation: Set<String>
        var voiceBackground: Set<String>
    }

    static func load() throws -> Set_ {
        let annotations = DevelopmentSet.parseLabels(try text("labels.tsv"))
        let durations = DevelopmentSet.parseDurations(try text("files.tsv"))
        let files = durations.keys.sorted()
        let provenance = DevelopmentSet.parseProvenance(try text("PROVENANCE.tsv"))
        let validation = DevelopmentSet.validationFiles(
            provenance: provenance, files: files, annotations: annotations, durations: durations)
        return Set_(
            annotations: annotations, files: files, durations: durations, provenance: provenance, validation: validation,
            voiceBackground: DevelopmentSet.voiceBackgroundFiles(provenance: provenance))
    }

    /// Features of `files` (decoded and extracted; in the given order).
    static func features(_ files: [String]) throws -> [RecordingFeatures] {
        try files.map { name in
            let audio = try loadAudio(devDirectory.appendingPathComponent("audio/\(name)").path)
            return SoundModelTrainer.extractFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
    }

    /// Features of every file plus `copies` augmented variants of each training file (gain and
    /// a training negative mixed in; seeded, deterministic). Variants are named "file#k".
    static func trainingFeatures(_ dev: Set_, copies: Int, seed: UInt64) throws -> [RecordingFeatures] {
        var audio: [String: [Float]] = [:]
        var out: [RecordingFeatures] = []
        for name in dev.files {
            let a = try loadAudio(devDirectory.appendingPathComponent("audio/\(name)").path)
            audio[name] = a.samples
            out.append(SoundModelTrainer.extractFeatures(name: name, samples: a.samples, sampleRate: a.sampleRate))
        }
        for (name, samples) in SoundModelTrainer.syntheticNegatives(sampleRate: 44_100, seed: seed) {
            out.append(SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: 44_100))
        }
        guard copies > 0 else { return out }
        let annotated = Swift.Set(dev.annotations.map(\.file))
        let pool = dev.files.filter { !annotated.contains($0) && !dev.validation.contains($0) && !dev.voiceBackground.contains($0) }
        var rng = SplitMix64(seed: seed)
        for name in dev.files where !dev.validation.contains(name) {
            for k in 1...copies {
                let bg = pool[rng.nextIndex(below: pool.count)]
                let snr = 0 + 20 * rng.nextUnit()
                let gain = -15 + 20 * rng.nextUnit()
                let background = audio[bg]!
                let offset = rng.nextIndex(below: max(1, background.count))
                let mixed = bg == name ? audio[name]! : SoundModelTrainer.augmented(audio[name]!, background: background, snrDB: snr, gainDB: gain, offset: offset)
                out.append(SoundModelTrainer.extractFeatures(name: "\(name)#\(k)", samples: mixed, sampleRate: 44_100))
            }
        }
        return out
    }
}
