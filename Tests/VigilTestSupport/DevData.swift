import Foundation
import VigilAudioIO
import VigilCore
import VigilScoring
import VigilTraining

/// Locations and loading of the development data in ../shared/data (read only; never copied).
package enum DevData {
    /// The package root (from this file's path).
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// ../shared/data/dev
    package static let devDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/dev")
    /// ../shared/data/train, the clip-labelled training folder.
    package static let clipDirectory = devDirectory.deletingLastPathComponent().appendingPathComponent("train")
    /// Whether the clip-labelled training folder is present.
    package static let clipsAvailable: Bool = FileManager.default.fileExists(
        atPath: clipDirectory.appendingPathComponent("clips.tsv").path)
    /// Whether the development data is present.
    package static let available: Bool = FileManager.default.fileExists(
        atPath: devDirectory.appendingPathComponent("labels.tsv").path)

    /// Throws a message naming the folder when the development data are not there.
    package static func requireAvailable() throws {
        guard available else { throw TrainingDataMissing(path: devDirectory.path, fix: "the development data (../shared/data) are needed") }
    }

    package static func text(_ name: String) throws -> String {
        try String(contentsOf: devDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Decodes a whole audio file to mono floats.
    package static func loadAudio(_ path: String) throws -> (samples: [Float], sampleRate: Double) {
        let (samples, rate) = try AudioFileReader.readAllMono(path: path)
        return (samples, Double(rate))
    }

    package struct Set_ {
        package var annotations: [LabelEvent]
        package var files: [String]
        package var durations: [String: Double]
        package var provenance: [DevelopmentSet.SourceRow]
        package var validation: Set<String>
        package var voiceBackground: VoiceBackground
    }

    package static func load() throws -> Set_ {
        let annotations = DevelopmentSet.parseLabels(try text("labels.tsv"))
        let durations = DevelopmentSet.parseDurations(try text("files.tsv"))
        let files = durations.keys.sorted()
        let provenance = DevelopmentSet.parseProvenance(try text("PROVENANCE.tsv"))
        let validation = DevelopmentSet.validationFiles(
            provenance: provenance, files: files, annotations: annotations, durations: durations)
        return Set_(
            annotations: annotations, files: files, durations: durations, provenance: provenance, validation: validation,
            voiceBackground: DevelopmentSet.voiceBackground(provenance: provenance))
    }

    /// Features of `files` (decoded and extracted; in the given order).
    package static func features(_ files: [String]) throws -> [RecordingFeatures] {
        try files.map { name in
            let audio = try loadAudio(devDirectory.appendingPathComponent("audio/\(name)").path)
            return SoundModelTrainer.extractFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
    }

    /// Features of every file plus augmented variants of each training file (seeded,
    /// deterministic): `copies` variants "file#k" (gain -15..+5 dB, a training negative mixed in
    /// 0-20 dB below) and `lowSNRCopies` variants "file#sk" (gain -10..+5 dB, a training negative
    /// mixed in at -6..+6 dB: as loud as the scenes' backgrounds).
    package static func trainingFeatures(_ dev: Set_, copies: Int, lowSNRCopies: Int = 0, seed: UInt64) throws -> [RecordingFeatures] {
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
        let annotated = Swift.Set(dev.annotations.map(\.file))
        let pool = dev.files.filter { !annotated.contains($0) && !dev.validation.contains($0) && !dev.voiceBackground.files.contains($0) }
        func variants(_ count: Int, tag: String, snr: ClosedRange<Double>, gain: ClosedRange<Double>, rng: inout SplitMix64) {
            guard count > 0 else { return }
            for name in dev.files where !dev.validation.contains(name) {
                for k in 1...count {
                    let bg = pool[rng.nextIndex(below: pool.count)]
                    let snrDB = snr.lowerBound + (snr.upperBound - snr.lowerBound) * rng.nextUnit()
                    let gainDB = gain.lowerBound + (gain.upperBound - gain.lowerBound) * rng.nextUnit()
                    let background = audio[bg]!
                    let offset = rng.nextIndex(below: max(1, background.count))
                    let mixed =
                        bg == name
                        ? audio[name]!
                        : SoundModelTrainer.augmented(audio[name]!, background: background, snrDB: snrDB, gainDB: gainDB, offset: offset)
                    out.append(SoundModelTrainer.extractFeatures(name: "\(name)#\(tag)\(k)", samples: mixed, sampleRate: 44_100))
                }
            }
        }
        var rng = SplitMix64(seed: seed)
        variants(copies, tag: "", snr: 0...20, gain: -15...5, rng: &rng)
        var lowRNG = SplitMix64(seed: seed &+ 7)
        variants(lowSNRCopies, tag: "s", snr: -6...6, gain: -10...5, rng: &lowRNG)
        return out
    }

    /// `x` played `factor` times faster, by linear interpolation (a rate change by `factor`, or a
    /// pitch and tempo shift when the rate is kept).
    package static func linearResample(_ x: [Float], factor: Double) -> [Float] {
        guard !x.isEmpty, factor > 0 else { return x }
        let count = Int(Double(x.count) / factor)
        var y = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let position = Double(i) * factor
            let k = min(Int(position), x.count - 1)
            let fraction = Float(position - Double(k))
            y[i] = x[k] + (x[min(k + 1, x.count - 1)] - x[k]) * fraction
        }
        return y
    }

    /// Resampled copies of the training files (a diagnostics experiment, not in any shipped recipe):
    /// each file played `factor` times faster by linear interpolation, so pitch and tempo scale
    /// together (a smaller or larger dog), named "file@rFACTOR" with its annotations scaled. With
    /// `onlyLabel`, only the files annotated with that label.
    package static func resampledVariants(_ dev: Set_, factors: [Double], onlyLabel: String? = nil, prefix: String = "") throws -> (
        recordings: [RecordingFeatures], annotations: [LabelEvent]
    ) {
        var recordings: [RecordingFeatures] = []
        var annotations: [LabelEvent] = []
        for name in dev.files where !dev.validation.contains(name) && name.hasPrefix(prefix) {
            let own = dev.annotations.filter { $0.file == name }
            if let onlyLabel, !own.contains(where: { $0.label == onlyLabel }) { continue }
            let audio = try loadAudio(devDirectory.appendingPathComponent("audio/\(name)").path)
            let x = audio.samples
            guard !x.isEmpty else { continue }
            for factor in factors where factor > 0 {
                let y = linearResample(x, factor: factor)
                let variant = "\(name)@r\(factor)"
                recordings.append(SoundModelTrainer.extractFeatures(name: variant, samples: y, sampleRate: audio.sampleRate))
                for e in own {
                    annotations.append(LabelEvent(file: variant, onset: e.onset / factor, offset: e.offset / factor, label: e.label))
                }
            }
        }
        return (recordings, annotations)
    }

    /// The recordings each label trains on: glassBreak with the "#k" variants and without the
    /// synthetic bursts and tones (with them its validation recall fell: event F1 0.889 -> 0.800
    /// with the bursts, 0.733 with bursts and tones), dogBark with the low-SNR "#sk" variants (none
    /// in the shipped recipe), personTalking with the originals only. personTalking keeps the
    /// bursts and tones: without them its segment F1 is 0.843 instead of 0.821, but it reports 8
    /// of the 15 steady tones of the test "short steady tones are not speech or barks" instead of 3.
    package static func recordings(for label: String, _ all: [RecordingFeatures], variants: Swift.Set<String>? = nil) -> [RecordingFeatures]
    {
        let kinds = variants ?? shippedVariants(for: label)
        return all.filter { rec in
            if !SoundModelTrainer.usesSyntheticConfusers(label) && SoundModelTrainer.isSyntheticConfuser(rec.name) {
                return false
            }
            guard let mark = rec.name.firstIndex(of: "#") else { return true }
            let lowSNR = rec.name[rec.name.index(after: mark)...].hasPrefix("s")
            return kinds.contains(lowSNR ? "s" : "k")
        }
    }

    /// The augmented variants each shipped model trains on: "k" the "#k" copies (gain -15..+5 dB,
    /// a training negative 0-20 dB below) when its recipe makes augmented copies, "s" the low-SNR
    /// "#sk" copies (made only when asked for, ``shippedCopies`` makes none).
    package static func shippedVariants(for label: String) -> Swift.Set<String> {
        SoundModelRecipe.of(label: label).augmentedCopies > 0 ? ["k"] : []
    }

    /// Training options of each shipped model (the defaults of ``TrainingOptions`` unless listed).
    package static func shippedOptions(for label: String) -> TrainingOptions {
        TrainingOptions(label: label)
    }

    /// Augmented copies used for the shipped models.
    package static let shippedCopies = (copies: 2, lowSNRCopies: 0)

    /// Every recording the shipped models are trained from (originals, synthetic negatives,
    /// augmented copies), in the fixed order that ``SoundModelTrainer/dataHash(recordings:annotations:)`` hashes.
    package static func shippedTrainingFeatures(_ dev: Set_, seed: UInt64 = 20_251_122) throws -> [RecordingFeatures] {
        try trainingFeatures(dev, copies: shippedCopies.copies, lowSNRCopies: shippedCopies.lowSNRCopies, seed: seed)
    }

    /// Where `make training-music` renders Models/music-negatives/*.mid (FluidSynth, FluidR3_GM).
    package static let trainingMusicDirectory = packageRoot.appendingPathComponent(".build/training-music")

    /// The extra negative recordings of `label`'s shipped recipe (the rendered music for dogBark, none for
    /// the others), in file-name order. Throws, naming the fix, when the music has not been rendered.
    package static func extraNegatives(for label: String) throws -> [RecordingFeatures] {
        guard SoundModelRecipe.of(label: label).trainsWithRenderedMusic else { return [] }
        let pieces = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Models/music-negatives").path)
            .filter { $0.hasSuffix(".mid") }.sorted()
        return try pieces.map { piece in
            let name = piece.replacingOccurrences(of: ".mid", with: ".wav")
            let path = trainingMusicDirectory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw TrainingDataMissing(path: path)
            }
            let audio = try loadAudio(path)
            return SoundModelTrainer.extraNegativeFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
    }

    package struct TrainingDataMissing: Error, CustomStringConvertible {
        package var path: String
        /// What makes the missing file.
        package var fix = "run `make training-music` (renders Models/music-negatives with FluidSynth)"
        package var description: String { "\(path) is missing: \(fix)" }

        /// Names the missing `path` and what makes it.
        package init(path: String, fix: String = "run `make training-music` (renders Models/music-negatives with FluidSynth)") {
            self.path = path
            self.fix = fix
        }
    }

    /// Where `make training-words` writes Models/word-positives/generate.py's recordings and their labels.tsv.
    package static let trainingWordsDirectory = packageRoot.appendingPathComponent(".build/training-words")

    /// The extra labeled recordings of `label`'s shipped recipe (personTalking: the words of
    /// `make training-words`; none for the others) and their events, with
    /// ``SoundModelTrainer/extraPositivePrefix`` on the names, in file-name order (as `vigil train
    /// --positives` reads them). Throws, naming the fix, when the words have not been made.
    package static func extraPositives(for label: String) throws -> (recordings: [RecordingFeatures], annotations: [LabelEvent]) {
        guard SoundModelRecipe.of(label: label).trainsWithGeneratedWords else { return ([], []) }
        let labels = trainingWordsDirectory.appendingPathComponent("labels.tsv").path
        guard FileManager.default.fileExists(atPath: labels) else {
            throw TrainingDataMissing(
                path: labels, fix: "run `make training-words` (Models/word-positives/generate.py over Debian's qabcs-data)")
        }
        let events = DevelopmentSet.parseLabels(try String(contentsOfFile: labels, encoding: .utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: trainingWordsDirectory.path).filter { $0.hasSuffix(".wav") }
            .sorted()
        let recordings = try names.map { name in
            let audio = try loadAudio(trainingWordsDirectory.appendingPathComponent(name).path)
            return SoundModelTrainer.extraPositiveFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
        return (recordings, SoundModelTrainer.extraPositiveEvents(events))
    }
}
