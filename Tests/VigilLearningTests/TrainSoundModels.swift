import Foundation
import Testing
import VigilCore
import VigilLearning

/// The file-reading training driver: trains the three shipped models on the development set and
/// writes Models/NAME.json, Models/NAME.md and Sources/VigilDetectors/EmbeddedModels.swift.
/// Runs only with VIGIL_TRAIN=1 (use a release build):
///   VIGIL_TRAIN=1 swift test -c release --filter TrainSoundModels
@Suite("Train sound models", .serialized)
struct TrainSoundModels {
    static let enabled = ProcessInfo.processInfo.environment["VIGIL_TRAIN"] == "1" && DevData.available
    static let seed: UInt64 = 20_251_122

    static let weaknesses: [String: [String]] = [
        "dogBark": [
            "Trained on 33 UrbanSound8K clips from 27 source recordings: small, mostly outdoor/street recordings; unusual dogs (very small or very large) are under-represented.",
            "Confusers not in the data (human shouts, coughs, door knocks, other animals) are untested.",
            "Validation event F1 is well below the 0.85 target: recall is low (short barks, barks at -6 dB under scene backgrounds, and events whose annotated onset is the clip start are missed or found late); precision is high.",
            "Bouts with pauses under the merge gap are one event; the reported offset is approximate.",
        ],
        "glassBreak": [
            "Trained on 35 glass clips from 33 sources (Ring/Infineon test recordings and one small repository), many normalised to -36 dBFS; real windows broken in a home may differ.",
            "Confusers in the data are impacts and dishes only; keys, cutlery, mail-slot clanks and clapping are untested.",
            "Below 32 kHz sampling the shatter band above 8 kHz is missing: the model was trained at 44.1 kHz, so detection at 16 kHz is weaker.",
            "The validation part has 19 glass events and 0.145 h of event-free audio: one event moves F1 by about 0.05 and one false alarm is 6.9 per hour, so the figures are uncertain.",
        ],
        "personTalking": [
            "Speech sources are few (AMI meeting excerpts, spoken digits, two LibriSpeech readers, a device voice): other languages, whispering, shouting and far-field speech are under-represented.",
            "Distant voices in children-playing, room-ambience and street-music material are not labelled and are excluded from training and scoring; the detector may or may not report them.",
            "TV/radio speech and music with vocals are reported as speech (no separate label).",
            "Validation segment F1 is below the 0.90 target: isolated short words (spoken digits, 0.3-0.5 s) and quiet background speech in scenes are missed; onsets of speech after 0.3 s pauses are often merged.",
        ],
    ]

    @Test("train and write the shipped models", .enabled(if: enabled, "needs VIGIL_TRAIN=1 and ../shared/data"))
    func trainAll() throws {
        let dev = try DevData.load()
        let started = Date()
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let all = dev.annotations.filter { $0.label == label }
            let val = all.filter { dev.validation.contains($0.file) }
            print("split \(label): \(val.count) of \(all.count) events in validation")
        }
        let negatives = dev.files.filter { f in !dev.annotations.contains { $0.file == f } }
        print("split: \(dev.validation.count) validation files, negatives \(negatives.filter { dev.validation.contains($0) }.count) of \(negatives.count)")
        let allRecordings = try DevData.trainingFeatures(dev, copies: 2, seed: Self.seed)
        let recordings = allRecordings.filter { !$0.name.contains("#") }
        print("features: \(recordings.count) files in \(Date().timeIntervalSince(started)) s")
        // Data date: the newest modification time of the label/provenance files (from the data,
        // not the clock).
        let attrs = try FileManager.default.attributesOfItem(atPath: DevData.devDirectory.appendingPathComponent("labels.tsv").path)
        let date = (attrs[.modificationDate] as? Date).map { ISO8601DateFormatter().string(from: $0) } ?? "unknown"
        let hash = SoundModelTrainer.dataHash(recordings: allRecordings, annotations: dev.annotations)
        let labels = ProcessInfo.processInfo.environment["VIGIL_TRAIN_LABELS"]?.split(separator: ",").map(String.init)
            ?? ["dogBark", "glassBreak", "personTalking"]
        for label in labels {
            let t0 = Date()
            // Augmented copies (gain, mixed training negatives) help glassBreak only.
            let (model, fig) = SoundModelTrainer.train(
                label: label, recordings: label == "glassBreak" ? allRecordings : recordings, annotations: dev.annotations, validation: dev.validation,
                voiceBackground: dev.voiceBackground, seed: Self.seed,
                metadata: [
                    ("dataHash", .string("fnv1a64:" + hash)), ("dataDate", .string(date)),
                    ("data", .string("shared/data/dev (232 files)")),
                    ("split", .string("group-aware stratified: components of shared foreground sources in FNV-1a(vigil-sounds-split-v1 + first file) order, to validation while every category stays <= 35 %")),
                    ("extraNegatives", .string("9 synthetic steady noises (white/pink/brown, 3 levels, 20 s)")),
                ])
            print(
                "\(label): event F1 \(fig.event.f1) (TP \(fig.event.truePositives) FP \(fig.event.falsePositives) FN \(fig.event.falseNegatives)) segment F1 \(fig.segment.f1) FA \(fig.negativeFalseAlarms) in \(fig.negativeHours) h threshold \(model.decision.threshold) [\(Date().timeIntervalSince(t0)) s]"
            )
            let models = DevData.packageRoot.appendingPathComponent("Models")
            try model.fileText.write(to: models.appendingPathComponent("\(label).json"), atomically: true, encoding: .utf8)
            let card = SoundModelCard.markdown(
                model: model, figures: fig, provenance: dev.provenance, validation: dev.validation,
                trainingFileCount: dev.files.count - dev.validation.count, weaknesses: Self.weaknesses[label] ?? [])
            try card.write(to: models.appendingPathComponent("\(label).md"), atomically: true, encoding: .utf8)
        }
        try Self.writeEmbedded()
    }

    /// Regenerates EmbeddedModels.swift from the files in Models/.
    static func writeEmbedded() throws {
        let models = DevData.packageRoot.appendingPathComponent("Models")
        var files: [(label: String, text: String)] = []
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let url = models.appendingPathComponent("\(label).json")
            if let text = try? String(contentsOf: url, encoding: .utf8) { files.append((label, text)) }
        }
        let source = SoundModelTrainer.embeddedModelsSource(files)
        try source.write(
            to: DevData.packageRoot.appendingPathComponent("Sources/VigilDetectors/EmbeddedModels.swift"), atomically: true,
            encoding: .utf8)
    }
}
