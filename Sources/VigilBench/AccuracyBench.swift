import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDetectors
import VigilEvents
import VigilImaging
import VigilInference
import VigilPipeline
import VigilReport
import VigilScoring
import VigilTraining

/// `vigil bench accuracy`: runs the detectors on labeled recordings (or reads a detection file)
/// and scores them against the references (sed_eval-compatible event- and segment-based scores,
/// false alarms per hour, latency), with a note per learned label whose shipped model was
/// trained on scored files.
package struct AccuracyBench {
    /// A bad input of the benchmark (a file that cannot be read or parsed, nothing to score).
    package struct InputError: Error, CustomStringConvertible {
        /// What is wrong, naming the file.
        package var description: String
    }

    /// Reference annotations (TSV), DCASE style.
    package var labels: String
    /// The directory with the recordings.
    package var audioDirectory: String
    /// The scoring settings (collar, offsets, segment length).
    package var settings: AccuracySettings
    /// Score this detection file instead of running the detectors.
    package var system: String?
    /// Write the detectors' output as a TSV detection file.
    package var writeSystem: String?
    /// The labeled set's PROVENANCE.tsv rows, if any.
    package var provenance: [DevelopmentSet.SourceRow]?
    /// Count voices in voice-background material against personTalking too.
    package var countVoiceBackground = false
    /// Print JSON instead of tables.
    package var json = false
    /// Also draw a PNG chart of F1 per label here.
    package var chart: String?
    /// Recordings analyzed at once.
    package var jobs: Int
    /// Show the progress bar.
    package var showProgress = true
    /// List every referenced file missing from the audio directory.
    package var verbose = false
    /// Models replacing the shipped ones (`--model`).
    package var models: [EventTriggerType: SoundModel] = [:]
    /// The labels whose model can be replaced (their training overlap is checked).
    package var learnedLabels: [EventTriggerType] = []

    /// A benchmark of the recordings in `audioDirectory` against `labels`.
    package init(labels: String, audioDirectory: String, settings: AccuracySettings, jobs: Int) {
        self.labels = labels
        self.audioDirectory = audioDirectory
        self.settings = settings
        self.jobs = jobs
    }

    /// Runs the benchmark: the report goes to `output`, warnings and errors to `messages`.
    /// Returns the number of failures (unreadable recordings, unwritable outputs).
    /// - Throws: ``InputError`` when the references, the detection file or the directory cannot be used.
    package func run(output: (String) -> Void, messages: @escaping @Sendable (String) -> Void) throws -> Int {
        let reference = try Self.readAnnotations(labels, option: "--labels")
        var notCounted: [String: VoiceBackground] = [:]
        if !countVoiceBackground, let rows = provenance {
            notCounted[EventTriggerType.personTalking.rawValue] = DevelopmentSet.voiceBackground(provenance: rows)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: audioDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(description: "\(audioDirectory): not a directory")
        }
        let (recordings, _) = InputDiscovery.expand([audioDirectory])
        var failures = 0
        var durations: [String: Double] = [:]
        var estimated: [ScoredEvent] = []
        var confirmation: [ScoredEvent: Double] = [:]
        let missingFiles = Set(reference.map(\.file)).subtracting(recordings.map(\.displayName)).sorted()
        if missingFiles.count == 1 || (verbose && !missingFiles.isEmpty) {
            for missing in missingFiles {
                messages("warning: \(labels): \(missing) has references but is not in \(audioDirectory); left out")
            }
        } else if !missingFiles.isEmpty {
            messages(
                "warning: \(labels): \(missingFiles.count) files have references but are not in \(audioDirectory); left out "
                    + "(--verbose lists them\(json ? ", the JSON output's filesNotInAudioDir too" : ""))")
        }

        var scoredLabels = Set(reference.map(\.label))
        if let system {
            estimated = try Self.readAnnotations(system, option: "--system")
            scoredLabels.formUnion(estimated.map(\.label))
            for r in recordings {
                do {
                    durations[r.displayName] = try AudioFileReader(path: r.path, blockFrames: 1).declaredDuration
                } catch {
                    failures += 1
                    messages("error: \(error)")
                }
            }
        } else {
            // Every sound trigger that has a detector, except the generic `sound` unless it is labeled.
            var triggers = Set(DetectorRegistry.availableSoundTriggers)
            if !scoredLabels.contains(EventTriggerType.sound.rawValue) { triggers.remove(.sound) }
            scoredLabels.formUnion(triggers.map(\.rawValue))
            let plan = AnalysisPlan(policy: EventPolicy(enabledTriggers: triggers), settings: DetectorSettings(models: models))
            let analyzer = RecordingAnalyzer(plan: plan)
            let bar = ProgressBar(totalSeconds: 0, totalItems: recordings.count, enabled: showProgress)
            let outcomes = parallelMap(recordings, jobs: jobs, onDone: { _, _ in bar.itemDone(label: "") }) { analyzer.analyze($0) }
            bar.finish()
            for (recording, outcome) in zip(recordings, outcomes) {
                for record in outcome.records {
                    if case .error(_, let message) = record.content {
                        failures += 1
                        messages("error: \(message)")
                    }
                }
                durations[recording.displayName] = outcome.mediaSeconds
                for d in outcome.detections where triggers.contains(d.trigger) {
                    let event = ScoredEvent(file: recording.displayName, onset: d.start, offset: d.end, label: d.trigger.rawValue)
                    estimated.append(event)
                    confirmation[event] = d.detectedAt
                }
            }
            if let writeSystem {
                do {
                    try RecordingOutputWriter.atomicWrite(AnnotationTSV.format(estimated), to: writeSystem)
                } catch {
                    failures += 1
                    messages("error: \(error)")
                }
            }
        }
        let report: AccuracyReport
        do {
            report = try AccuracyEvaluation.evaluate(
                reference: reference, estimated: estimated, confirmationTimes: confirmation, fileDurations: durations,
                labels: scoredLabels.sorted(), settings: settings, notCounted: notCounted)
        } catch {
            throw InputError(description: "cannot score: \(error)")
        }
        // Scores of a shipped model on its own training files are optimistic: say so per label.
        let trainingOverlap =
            system == nil
            ? Self.trainingOverlap(
                scored: recordings.map(\.displayName), scoredDurations: durations, labels: labels, provenance: provenance ?? [],
                learned: learnedLabels.filter { models[$0] == nil }) : []
        if json {
            var value = report.jsonValue
            if case .object(var object) = value {
                if !missingFiles.isEmpty { object["filesNotInAudioDir"] = .array(missingFiles.map { .string($0) }) }
                if !trainingOverlap.isEmpty {
                    object["shippedModelTrainingData"] = .object(
                        JSONObject(
                            trainingOverlap.map {
                                (
                                    $0.label,
                                    .object([
                                        "scoredTrainingFiles": .number(Double($0.files)),
                                        "crossValidated": $0.crossValidated.map {
                                            .object([
                                                "metric": .string($0.metric), "mean": .number($0.mean), "worstFold": .number($0.worstFold),
                                            ])
                                        } ?? .null,
                                    ])
                                )
                            }))
                }
                value = .object(object)
            }
            output(value.serialized(.pretty) + "\n")
        } else {
            for overlap in trainingOverlap { output("note: \(overlap.text(scoredFiles: recordings.count))\n") }
            output(report.text)
        }
        if let chart {
            let picture = ScoreChart(
                title: "F1 per label  (\(report.files) files, \(DecimalText.fixed(report.totalSeconds / 60, places: 1)) min of audio)",
                labels: report.labels,
                series: [
                    ScoreChart.Series(
                        name: "event F1 (collar \(DecimalText.fixed(settings.collar, places: 1)) s)",
                        values: report.eventBased.classWise.compactMapValues { $0.fMeasure }),
                    ScoreChart.Series(
                        name: "segment F1 (\(DecimalText.fixed(settings.segment, places: 1)) s)",
                        values: report.segmentBased.classWise.compactMapValues { $0.fMeasure }),
                ])
            do {
                try RecordingOutputWriter.atomicWrite(Data(try PNGCodec.encode(picture.render(), destination: chart)), to: chart)
            } catch {
                failures += 1
                messages("error: \(error)")
            }
        }
        return failures
    }

    /// Scored files that a shipped model was trained on, for one label.
    package struct TrainingOverlap {
        /// The label.
        package var label: String
        /// Scored files in its model's training part.
        package var files: Int
        /// The model's cross-validated figure, from its model file (its card lists every fold).
        package var crossValidated: CrossValidatedFigure?

        /// A model file's cross-validated headline figure: event F1 at the 0.5 s collar, or segment F1.
        package struct CrossValidatedFigure {
            /// The figure's key in the model file (`eventF1Collar0.5s` or `segmentF1_1s`).
            package var metric: String
            /// Mean over the folds.
            package var mean: Double
            /// The worst fold's figure.
            package var worstFold: Double

            /// Reads `training.crossValidation` of a model file's training record. The mean is taken
            /// over the per-fold figures where the file lists them: the stored mean is rounded to four
            /// places, and rounding it again to three could differ from the card's figure.
            package init?(training: JSONValue) {
                let cv = training["crossValidation"]
                guard let metric = cv?["headline"]?.stringValue, let mean = cv?["mean"]?.doubleValue,
                    let worst = cv?["worst"]?.doubleValue
                else { return nil }
                let perFold = (cv?["perFold"]?.arrayValue ?? []).compactMap { $0[metric]?.doubleValue }
                self.metric = metric
                self.mean = perFold.isEmpty ? mean : perFold.reduce(0, +) / Double(perFold.count)
                self.worstFold = perFold.min() ?? worst
            }

            /// "event F1" or "segment F1".
            var name: String { metric.hasPrefix("segment") ? "segment F1" : "event F1" }
        }

        /// The note printed above the scores.
        package func text(scoredFiles: Int) -> String {
            "\(label): \(files) of the \(scoredFiles) scored files are training data of the shipped \(label) model, so its scores here "
                + "are optimistic"
                + (crossValidated.map {
                    "; on recordings it never trained on, its cross-validated \($0.name) is \(DecimalText.fixed($0.mean, places: 3)) "
                        + "(worst fold \(DecimalText.fixed($0.worstFold, places: 3)); Models/\(label).md)"
                } ?? "")
                + ". A fair figure here needs a model that never trained on these files, nor chose its threshold on them: "
                + "--model \(label)=FILE trained without them."
        }
    }

    /// For each learned label scored with its shipped model (`learned`): how many scored files are
    /// in that model's training part. The part is known when the data set's files (PROVENANCE.tsv and
    /// files.tsv beside LABELS.tsv, and the scored files) are the model's data set, whose validation part
    /// the model file records (``SoundModel/trainingPart(files:)``).
    package static func trainingOverlap(
        scored: [String], scoredDurations: [String: Double], labels: String, provenance: [DevelopmentSet.SourceRow],
        learned: [EventTriggerType]
    ) -> [TrainingOverlap] {
        guard !provenance.isEmpty else { return [] }
        let filesPath = ((labels as NSString).deletingLastPathComponent as NSString).appendingPathComponent("files.tsv")
        var durations = scoredDurations
        if let data = FileManager.default.contents(atPath: filesPath) {
            durations.merge(DevelopmentSet.parseDurations(String(decoding: data, as: UTF8.self))) { _, listed in listed }
        }
        let files = Set(durations.keys).union(provenance.map(\.file)).sorted()
        var out: [TrainingOverlap] = []
        for trigger in learned {
            guard let model = LearnedSoundDetector.shippedModel(for: trigger),
                let part = model.trainingPart(files: files)
            else { continue }
            let overlap = scored.filter { part.contains($0) }.count
            if overlap > 0 {
                out.append(
                    TrainingOverlap(
                        label: trigger.rawValue, files: overlap,
                        crossValidated: TrainingOverlap.CrossValidatedFigure(training: model.training))
                )
            }
        }
        return out
    }

    /// Reads an annotation TSV (references or detections).
    /// - Throws: ``InputError`` naming the option, the file and the bad line.
    package static func readAnnotations(_ path: String, option: String) throws -> [ScoredEvent] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(description: "\(option) \(path): cannot read file")
        }
        do {
            return try AnnotationTSV.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw InputError(description: "\(option) \(path): line \(error.line): \(error)")
        }
    }
}
