import VigilCore
import VigilInference

/// Writes the model card (`NAME.md`) beside a model file: the shipped ones in `Models/`, and the
/// card `vigil train` writes beside its `--out`.
package enum SoundModelCard {
    /// What a model was trained on and where it was written, as the card states it.
    package struct TrainingData: Sendable, Hashable {
        /// The model file's path as written (e.g. `Models/dogBark.json`).
        package var modelPath: String
        /// The Swift source the model is embedded in, if any.
        package var embeddedIn: String?
        /// The recordings (a folder or data set name).
        package var recordings: String
        /// The labels file.
        package var labels: String
        /// Recordings used (those that could be read).
        package var fileCount: Int
        /// Their total duration in seconds.
        package var seconds: Double
        /// Events of the model's label in the labels file, on the recordings used.
        package var eventCount: Int

        /// Creates a description.
        package init(
            modelPath: String, embeddedIn: String?, recordings: String, labels: String, fileCount: Int, seconds: Double, eventCount: Int
        ) {
            self.modelPath = modelPath
            self.embeddedIn = embeddedIn
            self.recordings = recordings
            self.labels = labels
            self.fileCount = fileCount
            self.seconds = seconds
            self.eventCount = eventCount
        }
    }

    /// The card's Markdown.
    ///
    /// - Parameters:
    ///   - model: the trained model.
    ///   - figures: its validation figures at sensitivity 5.
    ///   - provenance: PROVENANCE rows of the development set (sources and licences).
    ///   - validation: validation file names.
    ///   - data: the recordings and labels used and the path written.
    ///   - weaknesses: known weaknesses, one per item.
    package static func markdown(
        model: SoundModel, figures: ValidationFigures, provenance: [DevelopmentSet.SourceRow], validation: Set<String>,
        trainingFileCount: Int, data: TrainingData, weaknesses: [String], crossValidation: CrossValidationReport? = nil
    ) -> String {
        let spec = FeatureSpec.current
        var s =
            "# Model card: \(model.label) (model v\(model.modelVersion), file format \(SoundModel.format) v\(SoundModel.formatVersion))\n\n"
        s += "File: `\(data.modelPath)`"
        s +=
            data.embeddedIn.map { " (embedded in the binary as `EmbeddedModels.\(EmbeddedModelsSource.symbol(of: model))`, `\($0)`)" } ?? ""
        s += ".\n"
        s += "Detector: `LearnedSoundDetector` (trigger `\(model.label)`), on the shared STFT.\n"
        if let rate = model.trainingRate {
            s += "Low-rate model: every recording above \(rate) Hz was resampled to \(rate) Hz for training, choosing and scoring; "
            s += "the detector uses it on streams below \(SoundModel.lowRateLimit) Hz.\n"
        }
        s += "\n"
        s += "## Training data\n\n"
        s += "Recordings `\(data.recordings)` (\(data.fileCount) files, \(DecimalText.fixed(data.seconds / 60, places: 1)) min), "
        s += "labels `\(data.labels)` (\(data.eventCount) \(model.label) events on these files). "
        let validationClips = validation.filter { $0.hasPrefix(TrainingClip.namePrefix) }.count
        let part =
            "the validation part (\(validation.count - validationClips) files"
            + (validationClips > 0 ? " and \(validationClips) clips of other labels" : "") + ")"
        if model.training["decisionChosenOn"]?.stringValue == SoundModelTrainer.chosenBeforeRetraining {
            s += "Thresholds chosen on \(part) with trees trained on the other "
            s +=
                "\(trainingFileCount - validation.count + validationClips) files; the model's trees were then trained on all \(trainingFileCount). "
        } else if validation.isEmpty {
            s += "Trained on all \(trainingFileCount) files; thresholds chosen on out-of-fold probabilities. "
        } else {
            s += "Trained on the training part (\(trainingFileCount) files), thresholds chosen on \(part). "
        }
        s += "Nothing from the data set is stored in the project.\n\n"
        if provenance.isEmpty {
            s += "No PROVENANCE.tsv: each file is its own source group.\n\n"
        } else {
            s += "Sources (PROVENANCE.tsv: source class, repository, licence, source-clip rows):\n\n"
            s += "| source class | repository | licence | rows |\n|---|---|---|---|\n"
        }
        var counts: [String: Int] = [:]
        for r in provenance {
            counts["\(r.sourceClass)\t\(r.repository)\t\(r.license)", default: 0] += 1
        }
        for (k, n) in counts.sorted(by: { $0.key < $1.key }) {
            let f = k.split(separator: "\t", omittingEmptySubsequences: false)
            s += "| \(f[0]) | \(f[1]) | \(f[2].split(separator: "|", omittingEmptySubsequences: false).joined(separator: "/")) | \(n) |\n"
        }
        if provenance.contains(where: { $0.license.contains("UrbanSound8K") }) {
            s += "\n**Licence note:** the dog barks and several negatives come from UrbanSound8K (CC BY-NC 3.0, "
            s += "non-commercial); this model was trained on them. Several other sources carry no licence "
            s += "(all rights reserved by default) and were used for training only, as the data README allows.\n"
        }
        s += "\n"
        s += "## Split (group-aware, deterministic)\n\n"
        s += "The split is that of one fold of the cross-validation, with every file and clip as its training part. Files and "
        s += "clips are connected when they share a source group (a file's foreground roles "
        s += DevelopmentSet.groupingRoles.sorted().joined(separator: ", ")
        s += "; a group is the original recording: UrbanSound8K Freesound id, crying-baby speaker, spoken-digit speaker, "
        s += "LibriSpeech speaker, otherwise the source file stem without its cut indices; a clip's `group`; Freesound uploads "
        s += "at most \(GroupedFolds.freesoundBatchAdjacency) ids apart, one user's batch, are one group, and so are clips of "
        s += "unknown source whose background and sound spectra agree, cuts of one recording). The connected "
        s +=
            "components are spread over \(model.training["validationPart"]?["folds"]?.intValue ?? 4) grouped folds (seed \(model.training["seed"]?.intValue ?? 0)), "
        s += "balancing every category (events of each label, clips of each label, seconds of event-free files), and the "
        s += "first of them is the validation part: its clips of the label are left out, its other clips are scored as "
        s += "negatives (docs/sound-models.md, Data). Background beds mixed under scenes (vacuum, dishwasher, street...) are "
        s += "shared between the parts. "
        s +=
            "Extra training negatives: 9 synthetic steady noises (white, pink, brown; 3 levels), 4 files of abrupt noise bursts (0.05-1 s, -45 to -6 dBFS) and 6 files of steady sine and square tones (150-4000 Hz, 0.2-2 s), 20 s each"
        s += SoundModelRecipe.of(label: model.label).syntheticConfusers ? ".\n\n" : " (this model: the steady noises only).\n\n"
        if let count = model.training["extraNegativeFiles"]?.intValue, count > 0 {
            s += "Also \(count) extra negative recordings, for training only (never validation): "
            s += "\(model.training["extraNegativeSource"]?.stringValue ?? "given with --negatives").\n\n"
        }
        if let count = model.training["extraPositiveFiles"]?.intValue, count > 0 {
            s += "Also \(count) extra labeled recordings, for training only (never validation): "
            s += "\(model.training["extraPositiveSource"]?.stringValue ?? "given with --positives").\n\n"
        }
        if let count = model.training["clipFiles"]?.intValue, count > 0 {
            s += "Also \(count) clip-labelled recordings, split with the files: "
            s += "\(model.training["clipSource"]?.stringValue ?? "given with --clips"); only the activity regions of the label's "
            s += "clips are taught as the label, every other clip is a negative, scored as one in the validation part "
            s += "(docs/sound-models.md, Cross-validation)"
            if let w = model.training["developmentPositiveWeight"] {
                s += "; the development files' annotated events count \(w) times against those regions"
            }
            if let w = model.training["negativeClipWeight"] { s += "; every decision of a negative clip counts \(w) times" }
            s += ".\n\n"
        }
        s += "## Features (`\(spec.name)` v\(spec.version), \(spec.dimension) values per decision)\n\n"
        switch model.frames {
        case .shared: s += "Per STFT frame (the shared STFT: power-of-two frames of about 23 ms, 16 ms at 16 and 32 kHz, 50 % hop): "
        case .fixedDuration:
            s += "Per STFT frame (`\(model.frames.rawValue)`: frames of 1024/44100 s, about 23.2 ms, with a hop of half that at every "
            s += "sample rate, zero-padded to a power of two): "
        }
        s += "\(spec.melBands) log-mel bands "
        s += "\(Int(spec.minFrequency))-\(Int(spec.maxFrequency)) Hz relative to a per-band background floor "
        s += "(minimum of the smoothed band energy over the last \(spec.floorWindowSeconds) s), level, spectral flux "
        s += "(all bands and below 1 kHz), centroid, flatness, harmonicity (autocorrelation of the detrended magnitude spectrum "
        s += "over 100-1000 Hz pitch lags), energy shares above 4.5 kHz, below 500 Hz and in 300-3400 Hz. Pooled every "
        s += "\(spec.decisionStride) frames over centred windows: mean and standard deviation over \(spec.longWindowSeconds) s, "
        s += "mean over \(spec.shortWindowSeconds) s, maxima of level, flux, low flux, harmonicity, HF share and mean "
        s += "relative level, the share of the speech-band energy's variance at 3-6 Hz over \(spec.modulationWindowSeconds) s, "
        s += "and the spectral shape (each band's log energy minus the mean over the bands below \(Int(spec.shapeMaxFrequency)) Hz) "
        s += "averaged over \(spec.longWindowSeconds) s with each frame weighted by its mean level above the background. "
        s += "Burst values, of the most active frame within ±\(spec.burstHalfSeconds) s of the centre: its mean relative level, "
        s += "flatness, harmonicity, shares below 500 Hz and in 300-3400 Hz, the burst's width (contiguous time within 5 dB of "
        s += "its level), and the activity-weighted mean harmonicity over the window.\n\n"
        let recipe = SoundModelRecipe.of(label: model.label)
        var ignoredParts = ["absolute level"]
        if !recipe.usesHighBand { ignoredParts.append("bands above 8 kHz, HF share and centroid") }
        if !recipe.usesBurstValues { ignoredParts.append("the burst values") }
        let ignoredNote = ignoredParts.joined(separator: ", ")
        let training = model.training
        func setting(_ key: String) -> String { training[key]?.description ?? "?" }
        var parts: [String] = []
        if let t = model.classifier.trees {
            let leaves = t.nodes.filter { $0.feature < 0 }.count
            var p = "gradient-boosted trees, \(t.treeCount) trees with \(leaves) leaves in all, logistic loss "
            p += "(\(t.inputs) inputs; never split on: \(ignoredNote)); histogram method (inputs cut at up to "
            p += "\(setting("maxBins")) quantile bins), trees grown best-first to \(setting("maxLeaves")) leaves with at least "
            p += "\(setting("minSamplesPerLeaf")) training decisions each, learning rate \(setting("learningRate")), L2 \(setting("l2"))"
            parts.append(p)
        }
        if let n = model.classifier.network {
            let parameters = n.parameterArrays.map(\.count).reduce(1, +)
            var p = "a temporal convolutional network over the per-frame columns (\(TemporalConvolutionalNetwork.inputChannels) "
            p += "inputs per frame: the relative bands up to 8 kHz, flux, low flux, flatness, harmonicity, the shares below 500 Hz "
            p += "and in 300-3400 Hz, the mean and largest relative band level), \(n.hidden) channels per layer: an 8-frame "
            p += "convolution every 4 frames, two convolutions over 3 columns (the second dilated by 2), the mean and maximum "
            p += "over \(2 * n.poolHalfWidth + 1) columns and the centre column, a dense layer and the output; \(parameters) "
            p += "parameters, trained by Adam for \(setting("networkEpochs")) epochs on the weighted logistic loss (step "
            p += "\(setting("networkLearningRate")) with cosine decay, weight decay \(setting("networkWeightDecay")))"
            parts.append(p)
        }
        s += "Classifier: " + (parts.count > 1 ? "the mean of the logits of " : "") + parts.joined(separator: ", and ") + ". "
        if let copies = model.training["augmentedCopies"]?.intValue, copies > 0 {
            let background =
                model.training["augmentedCopiesOverOtherLabels"]?.boolValue == true
                ? "a training file without this label's events" : "a training negative"
            s +=
                "Training also used \(copies) augmented copies of the training files (gain -15..+5 dB, \(background) mixed in 0-20 dB below). "
        }
        s += "Smoothing: 3-decision median, start threshold \(model.decision.threshold), release at "
        s += "\(model.decision.releaseRatio) x threshold, pauses under \(model.decision.mergeGapSeconds) s bridged, "
        s += "at least \(model.decision.minActiveDecisions) decisions above threshold"
        if let a = model.decision.onsetActivity {
            s += "; onset moved back (at most \(model.decision.onsetBacktrackSeconds) s) while some band stays \(a * 10) dB over its floor"
        }
        if let m = model.decision.maxEventSeconds { s += "; events longer than \(m) s dropped" }
        s += ".\n"
        if let g = model.decision.gate {
            s += "Two-stage gate: impact (mean band flux >= \(g.impactFlux) or low-band flux >= \(g.thudFlux), log10 units) "
            s += "followed within \(g.window) s by >= \(g.shatterFrames) frames with >= \(g.shatterHFRatio) of the energy above "
            s += "4.5 kHz at >= \(g.shatterRelative) (log10) over the background.\n"
        }
        s += "\nSensitivity 1...10: logit(threshold) = logit(\(model.decision.threshold)) - "
        s += "\(model.decision.sensitivityLogitStep) x (level - 5); 5 is the validation-optimal threshold.\n\n"
        // With cross-validated figures the validation part's figures are not reported: the decision was chosen on that
        // part, so they describe it and overstate what unseen recordings get.
        if crossValidation == nil {
            s += "## Validation metrics (sensitivity 5, scorer VigilScoring, sed_eval-exact)\n\n"
            func p(_ x: Double) -> String { String(Int((x * 1000).rounded())).paddedThousandths }
            s += "| metric | value |\n|---|---|\n"
            s +=
                "| event F1, 0.5 s onset collar, offsets ignored | \(p(figures.event.f1)) (P \(p(figures.event.precision)), R \(p(figures.event.recall)); TP \(figures.event.truePositives), FP \(figures.event.falsePositives), FN \(figures.event.falseNegatives)) |\n"
            s +=
                "| event F1, sed_eval default (0.2 s onset collar, offsets within max(0.2 s, 50 %)) | \(p(figures.eventSedEvalDefault.f1)) (TP \(figures.eventSedEvalDefault.truePositives), FP \(figures.eventSedEvalDefault.falsePositives), FN \(figures.eventSedEvalDefault.falseNegatives)) |\n"
            s +=
                "| segment F1, 1 s segments | \(p(figures.segment.f1)) (TP \(figures.segment.truePositives), FP \(figures.segment.falsePositives), FN \(figures.segment.falseNegatives)) |\n"
            s +=
                "| false alarms on negative files | \(figures.negativeFalseAlarms) in \(p(figures.negativeHours)) h (\(p(figures.falseAlarmsPerHour))/h) |\n\n"
        }
        if let cv = crossValidation {
            let seeds = cv.seeds.map(String.init).joined(separator: ", ")
            s +=
                cv.isRepeated
                ? "## Cross-validated figures (grouped, nested, \(cv.foldsPerRepeat) folds at each of the fold seeds \(seeds); sensitivity 5)\n\n"
                : "## Cross-validated figures (grouped, nested, \(cv.folds.count) folds, fold seed \(cv.seed); sensitivity 5)\n\n"
            s += "Development files and training clips are grouped by source recording; each fold is scored by a model trained "
            s += "on the other folds, with the decision settings, threshold and sensitivity step chosen on an inner grouped "
            s += "validation part of those folds. \(cv.segmentHeadline ? "Segment" : "Event") F1 on the fold's development files; "
            s += "clip recall: the fold's \(model.label) clips that hold a detection; false alarms per hour on the fold's event-free "
            s += "development files and negative clips (docs/sound-models.md, Cross-validation)."
            if cv.isRepeated {
                s += " The cross-validation ran once per fold seed, each time with other folds; the mean and the worst fold are "
                s += "over all \(cv.folds.count) folds, since one set of folds flatters the choices made on it."
            }
            s += "\n\n"
            s += cv.markdownTable + "\n"
        }
        s += "## Known weaknesses\n\n"
        for w in weaknesses { s += "- \(w)\n" }
        return s
    }
}

extension String {
    /// "1234" → "1.234" (thousandths).
    fileprivate var paddedThousandths: String {
        var digits = self
        let negative = digits.hasPrefix("-")
        if negative { digits.removeFirst() }
        while digits.count < 4 { digits = "0" + digits }
        let i = digits.index(digits.endIndex, offsetBy: -3)
        return (negative ? "-" : "") + digits[..<i] + "." + digits[i...]
    }
}
