import Foundation
import VigilAudioIO
import VigilCore
import VigilScoring
import VigilTraining

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
        let (samples, rate) = try AudioFileReader.readAllMono(path: path)
        return (samples, Double(rate))
    }

    struct Set_ {
        var annotations: [LabelEvent]
        var files: [String]
        var durations: [String: Double]
        var provenance: [DevelopmentSet.SourceRow]
        var validation: Set<String>
        var voiceBackground: VoiceBackground
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
            voiceBackground: DevelopmentSet.voiceBackground(provenance: provenance))
    }

    /// Features of `files` (decoded and extracted; in the given order).
    static func features(_ files: [String]) throws -> [RecordingFeatures] {
        try files.map { name in
            let audio = try loadAudio(devDirectory.appendingPathComponent("audio/\(name)").path)
            return SoundModelTrainer.extractFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
    }

    /// Features of every file plus augmented variants of each training file (seeded,
    /// deterministic): `copies` variants "file#k" (gain -15..+5 dB, a training negative mixed in
    /// 0-20 dB below) and `lowSNRCopies` variants "file#sk" (gain -10..+5 dB, a training negative
    /// mixed in at -6..+6 dB: as loud as the scenes' backgrounds).
    static func trainingFeatures(_ dev: Set_, copies: Int, lowSNRCopies: Int = 0, seed: UInt64) throws -> [RecordingFeatures] {
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
                    let mixed = bg == name ? audio[name]! : SoundModelTrainer.augmented(audio[name]!, background: background, snrDB: snrDB, gainDB: gainDB, offset: offset)
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
    static func linearResample(_ x: [Float], factor: Double) -> [Float] {
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
    static func resampledVariants(_ dev: Set_, factors: [Double], onlyLabel: String? = nil, prefix: String = "") throws -> (
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
    static func recordings(for label: String, _ all: [RecordingFeatures], variants: Swift.Set<String>? = nil) -> [RecordingFeatures] {
        let kinds = variants ?? shippedVariants[label] ?? []
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
    /// a training negative 0-20 dB below), "s" the low-SNR "#sk" copies.
    static let shippedVariants: [String: Swift.Set<String>] = ["glassBreak": ["k"], "dogBark": ["s"], "personTalking": []]

    /// Training options of each shipped model (the defaults of ``TrainingOptions`` unless listed).
    static func shippedOptions(for label: String) -> TrainingOptions {
        TrainingOptions(label: label)
    }

    /// Augmented copies used for the shipped models.
    static let shippedCopies = (copies: 2, lowSNRCopies: 0)

    /// Every recording the shipped models are trained from (originals, synthetic negatives,
    /// augmented copies), in the fixed order that ``SoundModelTrainer/dataHash(recordings:annotations:)`` hashes.
    static func shippedTrainingFeatures(_ dev: Set_, seed: UInt64 = 20_251_122) throws -> [RecordingFeatures] {
        try trainingFeatures(dev, copies: shippedCopies.copies, lowSNRCopies: shippedCopies.lowSNRCopies, seed: seed)
    }

    /// Where `make training-music` renders Models/music-negatives/*.mid (FluidSynth, FluidR3_GM).
    static let trainingMusicDirectory = packageRoot.appendingPathComponent(".build/training-music")

    /// The labels whose shipped recipe adds the rendered music as extra negatives.
    static let labelsTrainedWithMusic: Swift.Set<String> = ["dogBark"]

    /// The extra negative recordings of `label`'s shipped recipe (the rendered music for dogBark, none for
    /// the others), in file-name order. Throws, naming the fix, when the music has not been rendered.
    static func extraNegatives(for label: String) throws -> [RecordingFeatures] {
        guard labelsTrainedWithMusic.contains(label) else { return [] }
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

    struct TrainingDataMissing: Error, CustomStringConvertible {
        var path: String
        /// What makes the missing file.
        var fix = "run `make training-music` (renders Models/music-negatives with FluidSynth)"
        var description: String { "\(path) is missing: \(fix)" }
    }

    /// Where `make training-words` writes Models/word-positives/generate.py's recordings and their labels.tsv.
    static let trainingWordsDirectory = packageRoot.appendingPathComponent(".build/training-words")

    /// The labels whose shipped recipe adds the generated words as extra labeled recordings.
    static let labelsTrainedWithWords: Swift.Set<String> = ["personTalking"]

    /// The extra labeled recordings of `label`'s shipped recipe (personTalking: the words of
    /// `make training-words`; none for the others) and their events, with
    /// ``SoundModelTrainer/extraPositivePrefix`` on the names, in file-name order (as `vigil train
    /// --positives` reads them). Throws, naming the fix, when the words have not been made.
    static func extraPositives(for label: String) throws -> (recordings: [RecordingFeatures], annotations: [LabelEvent]) {
        guard labelsTrainedWithWords.contains(label) else { return ([], []) }
        let labels = trainingWordsDirectory.appendingPathComponent("labels.tsv").path
        guard FileManager.default.fileExists(atPath: labels) else { throw TrainingDataMissing(path: labels, fix: "run `make training-words` (Models/word-positives/generate.py over Debian's qabcs-data)") }
        let events = DevelopmentSet.parseLabels(try String(contentsOfFile: labels, encoding: .utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: trainingWordsDirectory.path).filter { $0.hasSuffix(".wav") }.sorted()
        let recordings = try names.map { name in
            let audio = try loadAudio(trainingWordsDirectory.appendingPathComponent(name).path)
            return SoundModelTrainer.extraPositiveFeatures(name: name, samples: audio.samples, sampleRate: audio.sampleRate)
        }
        return (recordings, SoundModelTrainer.extraPositiveEvents(events))
    }

    /// The model card's description of the generated words.
    static func wordSource(count: Int) -> String {
        "\(count) recordings of 1-3 single words each (Models/word-positives/generate.py, seed 7, made by `make training-words`): "
            + "spoken words and letters of Debian's qabcs-data (GPL-3+; Belarusian, German, English, French, Polish, Russian, "
            + "Ukrainian), isolated over quiet room tone or at 3-20 dB SNR over noise, every other file band-limited to 3.9 kHz"
    }

    /// Trains the shipped models of `labels` (fixed seed) and writes Models/NAME.json, Models/NAME.md
    /// and Sources/VigilDetectors/EmbeddedModels.swift.
    static func trainShippedModels(labels: [String], seed: UInt64 = 20_251_122) throws {
        let dev = try DevData.load()
        let started = Date()
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let all = dev.annotations.filter { $0.label == label }
            let val = all.filter { dev.validation.contains($0.file) }
            print("split \(label): \(val.count) of \(all.count) events in validation")
        }
        let negatives = dev.files.filter { f in !dev.annotations.contains { $0.file == f } }
        print("split: \(dev.validation.count) validation files, negatives \(negatives.filter { dev.validation.contains($0) }.count) of \(negatives.count)")
        let allRecordings = try shippedTrainingFeatures(dev, seed: seed)
        let recordings = allRecordings.filter { !$0.name.contains("#") }
        print("features: \(recordings.count) files in \(Date().timeIntervalSince(started)) s")
        for label in labels {
            let t0 = Date()
            let extras = try extraNegatives(for: label)
            let positives = try extraPositives(for: label)
            let annotations = dev.annotations + positives.annotations
            let hash = SoundModelTrainer.dataHash(recordings: allRecordings + extras + positives.recordings, annotations: annotations)
            let (model, fig) = SoundModelTrainer.train(
                label: label, recordings: DevData.recordings(for: label, allRecordings) + extras + positives.recordings,
                annotations: annotations,
                validation: dev.validation,
                voiceBackground: dev.voiceBackground, seed: seed, options: shippedOptions(for: label),
                metadata: [
                    ("dataHash", .string("fnv1a64:" + hash)),
                    ("data", .string("shared/data/dev (232 files)")),
                    ("split", .string("group-aware stratified: components of shared foreground sources in FNV-1a(vigil-sounds-split-v1 + first file) order, to validation while every category stays <= 35 %")),
                    ("extraNegatives", .string("9 synthetic steady noises (white/pink/brown, 3 levels), 4 files of abrupt noise bursts, 6 files of steady tones (20 s each; not for glassBreak)")),
                ]
                    + (extras.isEmpty
                        ? []
                        : [
                            ("extraNegativeFiles", .number(Double(extras.count))),
                            ("extraNegativeSource", .string(musicSource(count: extras.count))),
                        ])
                    + (positives.recordings.isEmpty
                        ? []
                        : [
                            ("extraPositiveFiles", .number(Double(positives.recordings.count))),
                            ("extraPositiveSource", .string(wordSource(count: positives.recordings.count))),
                        ]))
            print(
                "\(label): event F1 \(fig.event.f1) (TP \(fig.event.truePositives) FP \(fig.event.falsePositives) FN \(fig.event.falseNegatives)) segment F1 \(fig.segment.f1) FA \(fig.negativeFalseAlarms) in \(fig.negativeHours) h threshold \(model.decision.threshold) [\(Date().timeIntervalSince(t0)) s]"
            )
            let models = DevData.packageRoot.appendingPathComponent("Models")
            try model.fileText.write(to: models.appendingPathComponent("\(label).json"), atomically: true, encoding: .utf8)
            let card = SoundModelCard.markdown(
                model: model, figures: fig, provenance: dev.provenance, validation: dev.validation,
                trainingFileCount: dev.files.count - dev.validation.count,
                data: SoundModelCard.TrainingData(
                    modelPath: "Models/\(label).json", embeddedIn: "Sources/VigilDetectors/EmbeddedModels.swift",
                    recordings: "shared/data/dev/audio", labels: "shared/data/dev/labels.tsv", fileCount: dev.files.count,
                    seconds: dev.files.reduce(0) { $0 + (dev.durations[$1] ?? 0) },
                    eventCount: dev.annotations.filter { $0.label == label }.count),
                weaknesses: SoundModelRecipe.of(label: label).knownWeaknesses)
            try card.write(to: models.appendingPathComponent("\(label).md"), atomically: true, encoding: .utf8)
        }
        try writeEmbedded()
    }

    /// The model card's description of the rendered music.
    static func musicSource(count: Int) -> String {
        "\(count) pieces of generated music, 20 s each (Models/music-negatives: MIDI written by generate.py, seed 1; piano, "
            + "organ, accordion, guitars, strings, brass, reeds, flutes, synth leads and pads, with bass and drums in some; "
            + "rendered by `make training-music` with FluidSynth 2.3.1 and the FluidR3_GM soundfont, MIT licence)"
    }

    /// Regenerates EmbeddedModels.swift from the files in Models/.
    static func writeEmbedded() throws {
        let models = DevData.packageRoot.appendingPathComponent("Models")
        var files: [(name: String, text: String)] = []
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let url = models.appendingPathComponent("\(label).json")
            if let text = try? String(contentsOf: url, encoding: .utf8) { files.append((url.path, text)) }
        }
        let source = try EmbeddedModelsSource.render(files: files)
        try source.write(
            to: DevData.packageRoot.appendingPathComponent("Sources/VigilDetectors/EmbeddedModels.swift"), atomically: true,
            encoding: .utf8)
    }
}
