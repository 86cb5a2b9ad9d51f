import Foundation
import VigilCore
import VigilInference
import VigilPipeline

/// A training input that cannot be used; the description names the option, the file or line and
/// the reason, as `vigil train` prints it.
package struct TrainingInputError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Reading and checking the folders and files `vigil train` and `vigil bench accuracy` are given:
/// extra positives, clip folders and PROVENANCE.tsv.
package enum TrainingInputs {
    /// The recordings found by ``InputDiscovery`` as the training run names them.
    package static func recordings(_ recordings: [InputRecording]) -> [TrainingRecording] {
        recordings.map { TrainingRecording(path: $0.path, name: $0.displayName) }
    }

    /// The audio files and events of a `--positives` directory; the error names the directory or
    /// labels file and the reason (missing, no audio, no event of `label`, an event of a file that is not there).
    package static func extraPositives(
        _ directory: String, label: String
    ) throws(TrainingInputError) -> (recordings: [InputRecording], events: [LabelEvent]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrainingInputError("--positives \(directory): not a directory")
        }
        let labelsPath = (directory as NSString).appendingPathComponent("labels.tsv")
        guard let data = FileManager.default.contents(atPath: labelsPath) else {
            throw TrainingInputError("--positives \(labelsPath): cannot read file (the directory's events)")
        }
        let events = DevelopmentSet.parseLabels(String(decoding: data, as: UTF8.self))
        guard events.contains(where: { $0.label == label }) else {
            throw TrainingInputError("--positives \(labelsPath): no '\(label)' events")
        }
        let (found, problems) = InputDiscovery.expand([directory])
        if let problem = problems.first { throw TrainingInputError("--positives \(problem)") }
        guard !found.isEmpty else { throw TrainingInputError("--positives \(directory): no audio files") }
        let names = Set(found.map(\.displayName))
        if let orphan = events.first(where: { !names.contains($0.file) }) {
            throw TrainingInputError("--positives \(labelsPath): '\(orphan.file)' is not an audio file in \(directory)")
        }
        return (found, events)
    }

    /// The clips of a `--clips` folder; the error names the folder or the clips.tsv line and the reason
    /// (not a directory, no or unreadable clips.tsv, a malformed line, a listed file missing from DIR/audio).
    package static func clipList(_ directory: String) throws(TrainingInputError) -> [TrainingClip] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrainingInputError("--clips \(directory): not a directory")
        }
        let listPath = (directory as NSString).appendingPathComponent("clips.tsv")
        guard let data = FileManager.default.contents(atPath: listPath) else {
            throw TrainingInputError("--clips \(listPath): cannot read file (the folder's clip list)")
        }
        let clips: [TrainingClip]
        do {
            clips = try TrainingClips.parse(String(decoding: data, as: UTF8.self), path: listPath)
        } catch let error as ClipListError {
            throw TrainingInputError("--clips \(error)")
        } catch {
            throw TrainingInputError("--clips \(listPath): \(error)")
        }
        if let clip = clips.first(where: { !FileManager.default.fileExists(atPath: clipAudioPath(directory, $0)) }) {
            throw TrainingInputError("--clips \(listPath):\(clip.line): no audio file \(clipAudioPath(directory, clip))")
        }
        return clips
    }

    /// The events of the labels file and the recordings of the audio directory; the error names the
    /// file or directory when the labels cannot be read, no audio is found or no event has `label`.
    package static func annotatedRecordings(
        labels: String, audioDirectory: String, label: String
    ) throws(TrainingInputError) -> (annotations: [LabelEvent], recordings: [TrainingRecording]) {
        guard let data = FileManager.default.contents(atPath: labels) else {
            throw TrainingInputError("--labels \(labels): cannot read file")
        }
        let annotations = DevelopmentSet.parseLabels(String(decoding: data, as: UTF8.self))
        let found = InputDiscovery.expand([audioDirectory]).recordings
        guard !found.isEmpty else { throw TrainingInputError("\(audioDirectory): no audio files") }
        guard annotations.contains(where: { $0.label == label }) else { throw TrainingInputError("\(labels): no '\(label)' events") }
        return (annotations, recordings(found))
    }

    /// Checks, before the minutes of training, that the file `path` given with `option` can be
    /// written: its directory exists and is writable.
    package static func checkWritable(_ path: String, option: String) throws(TrainingInputError) {
        let directory = (path as NSString).deletingLastPathComponent
        let dir = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrainingInputError("\(option) \(path): directory \(dir) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: dir) else {
            throw TrainingInputError("\(option) \(path): directory \(dir) is not writable")
        }
    }

    /// The first problem with `vigil train`'s label and numeric settings, naming the option, or nil.
    package static func settingsProblem(
        label: String, copies: Int?, folds: Int, augment: Int?, decisionChoice: String?, resample: Int?, rate: Int? = nil,
        crossValidate: Bool, negativeClipWeight: Float? = nil, repeats: Int = 1
    ) -> String? {
        guard let trigger = EventTriggerType(rawValue: label), SoundModelRecipe.trainable.contains(trigger) else {
            let names = SoundModelRecipe.trainable.map(\.rawValue)
            return
                "cannot train '\(label)': give --label \(names.dropLast().joined(separator: ", ")) or \(names.last!) (or name --out after it)"
        }
        if let copies, copies < 0 || copies > 10 { return "--copies must be 0...10" }
        if folds < 2 || folds > 20 { return "--folds must be 2...20" }
        if let augment, augment < 0 || augment > 8 { return "--augment must be 0...8" }
        if let w = negativeClipWeight, !(0...100).contains(w) { return "--negative-clip-weight \(w): must be 0...100" }
        if !(1...10).contains(repeats) { return "--repeats \(repeats): must be 1...10" }
        if repeats > 1 && !crossValidate { return "--repeats needs --cross-validate (it repeats the cross-validation at other fold seeds)" }
        if let decisionChoice, TrainingOptions.DecisionChoice(rawValue: decisionChoice) == nil {
            let names = TrainingOptions.DecisionChoice.allCases.map { "'\($0.rawValue)'" }
            return "--decision-choice \(decisionChoice): expected \(names.dropLast().joined(separator: ", ")) or \(names.last!)"
        }
        if let resample {
            guard crossValidate else { return "--resample needs --cross-validate (it sets the rate the folds are scored at)" }
            guard (4_000...96_000).contains(resample) else { return "--resample \(resample): must be 4000...96000 Hz" }
        }
        if let rate {
            guard (4_000..<SoundModel.lowRateLimit).contains(rate) else {
                return
                    "--rate \(rate): a low-rate model is for streams below \(SoundModel.lowRateLimit) Hz; give 4000...\(SoundModel.lowRateLimit - 1)"
            }
            if let resample, resample >= rate {
                return
                    "--resample \(resample) with --rate \(rate): a low-rate model is scored at its own rate; --resample can only lower it"
            }
        }
        return nil
    }

    /// Checks that every `--negatives` path exists and holds audio files.
    package static func checkNegatives(_ paths: [String]) throws(TrainingInputError) {
        for path in paths {
            let (found, problems) = InputDiscovery.expand([path])
            if let problem = problems.first { throw TrainingInputError("--negatives \(problem)") }
            if found.isEmpty { throw TrainingInputError("--negatives \(path): no audio files") }
        }
    }

    /// Where a clip's audio lies in its `--clips` folder.
    package static func clipAudioPath(_ directory: String, _ clip: TrainingClip) -> String {
        ((directory as NSString).appendingPathComponent("audio") as NSString).appendingPathComponent(clip.filename)
    }

    /// The rows of the PROVENANCE.tsv named by `--provenance`, or else of the one beside `labels`;
    /// nil when none was named and none lies beside the labels. `vigil train` groups the
    /// validation split by it; `vigil bench accuracy` takes the voice-background material from it.
    /// The error names the file when it cannot be read, is not UTF-8, or has no rows with the
    /// columns filename, role, source_class and local_path.
    package static func provenance(named: String?, labels: String) throws(TrainingInputError) -> [DevelopmentSet.SourceRow]? {
        let path = named ?? ((labels as NSString).deletingLastPathComponent as NSString).appendingPathComponent("PROVENANCE.tsv")
        guard named != nil || FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TrainingInputError("--provenance \(path): cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw TrainingInputError("--provenance \(path): not UTF-8 text") }
        let rows = DevelopmentSet.parseProvenance(text)
        guard !rows.isEmpty else {
            throw TrainingInputError("--provenance \(path): no rows with the columns filename, role, source_class and local_path")
        }
        return rows
    }

    /// The Swift source embedding every trainable label's models found beside `modelPath`, `LABEL.json` and its
    /// low-rate `LABEL-*.json` (`vigil train --embed`); the error names a model file that cannot be embedded.
    package static func embeddedModelsSource(besideModel modelPath: String) throws(EmbeddedModelsSourceError) -> String {
        let directory = (modelPath as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var models: [(name: String, text: String)] = []
        for trainable in SoundModelRecipe.trainable {
            for name in names
            where name == "\(trainable.rawValue).json" || (name.hasPrefix("\(trainable.rawValue)-") && name.hasSuffix(".json")) {
                let path = (folder as NSString).appendingPathComponent(name)
                if let data = FileManager.default.contents(atPath: path) { models.append((path, String(decoding: data, as: UTF8.self))) }
            }
        }
        return try EmbeddedModelsSource.render(files: models)
    }

    /// The training run of `trigger` over the recordings of `audioDirectory` and the events of `labels`, with the extra
    /// material of `vigil train`'s options: `negatives` (files or directories), `positives` (a directory with labels.tsv),
    /// `clips` (a clip folder) and `provenance` (default: beside the labels). The paths are kept as given, for the model's
    /// metadata and card. The error names the option, the file and the reason.
    package static func run(
        trigger: EventTriggerType, labels: String, audioDirectory: String, out: String, seed: UInt64, negatives: [String] = [],
        positives: String? = nil, clips: String? = nil, provenance: String? = nil
    ) throws(TrainingInputError) -> TrainingRun {
        let input = try annotatedRecordings(labels: labels, audioDirectory: audioDirectory, label: trigger.rawValue)
        var run = TrainingRun(
            trigger: trigger, recordings: input.recordings, annotations: input.annotations, seed: seed, modelPath: out,
            audioDirectory: audioDirectory, labelsPath: labels)
        run.provenance = try Self.provenance(named: provenance, labels: labels) ?? []
        if let positives {
            let extra = try extraPositives(positives, label: trigger.rawValue)
            run.positives = (recordings(extra.recordings), extra.events, positives)
        }
        if let clips { run.clips = (try clipList(clips), { clipAudioPath(clips, $0) }, clips) }
        run.negatives = recordings(InputDiscovery.expand(negatives).recordings)
        run.negativeSource = negatives.joined(separator: ", ")
        return run
    }
}
