import VigilCore

/// Settings of an accuracy evaluation (`vigil bench accuracy`).
package struct AccuracySettings: Sendable, Hashable {
    /// Onset collar of the main event-based scoring (seconds).
    package var collar: Double
    /// Whether the main event-based scoring also checks offsets (within max(collar, 50 %)).
    package var evaluateOffsets: Bool
    /// Segment length of the segment-based scoring (seconds).
    package var segment: Double

    /// The DCASE 2017 setting (0.5 s onset collar, offsets ignored) with 1 s segments.
    package init(collar: Double = 0.5, evaluateOffsets: Bool = false, segment: Double = 1.0) {
        self.collar = collar
        self.evaluateOffsets = evaluateOffsets
        self.segment = segment
    }
}

/// The distribution of detection latencies of one label: from each detected reference's onset
/// to the time the detector confirmed it (`detectedAt`, or the detection's onset when no
/// confirmation time is known).
package struct LatencySummary: Sendable, Hashable {
    /// The label.
    package var label: String
    /// Latencies of the detected references, ascending (seconds).
    package var latencies: [Double]
    /// References with no overlapping detection.
    package var missed: Int

    /// Creates a summary from unsorted latencies.
    package init(label: String, latencies: [Double], missed: Int) {
        self.label = label
        self.latencies = latencies.sorted()
        self.missed = missed
    }

    /// The `p`-quantile (0...1) by linear interpolation, nil when nothing was detected.
    package func quantile(_ p: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let position = min(max(p, 0), 1) * Double(latencies.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, latencies.count - 1)
        let weight = position - Double(lower)
        return latencies[lower] * (1 - weight) + latencies[upper] * weight
    }

    /// The median latency.
    package var median: Double? { quantile(0.5) }
}

/// Everything `vigil bench accuracy` reports for one evaluation: event-based scores in the
/// chosen setting and in sed_eval's default setting, segment-based scores, false alarms per
/// hour on material without the label, and latency distributions.
package struct AccuracyReport: Sendable {
    /// The settings used.
    package var settings: AccuracySettings
    /// Labels scored, sorted.
    package var labels: [String]
    /// Files evaluated.
    package var files: Int
    /// Total duration of the evaluated files (seconds).
    package var totalSeconds: Double
    /// Event-based results in the chosen setting (default: DCASE 2017, 0.5 s onset collar, offsets ignored).
    package var eventBased: ScoringResults
    /// Event-based results in sed_eval's default setting (0.2 s collar, offsets within max(0.2 s, 50 %)).
    package var eventBasedSedEvalDefault: ScoringResults
    /// Segment-based results.
    package var segmentBased: ScoringResults
    /// False alarms per hour of each label on files without a reference of that label.
    package var falseAlarms: [String: FalseAlarmRate]
    /// Detection latency per label.
    package var latency: [String: LatencySummary]
    /// Per label with regions that do not count against it (``VoiceBackground``): how many regions
    /// and files, and how many detections there were left out.
    package var notCounted: [String: NotCountedSummary] = [:]

    /// What ``AccuracyEvaluation/evaluate(reference:estimated:confirmationTimes:fileDurations:labels:settings:notCounted:)``
    /// left out for one label.
    package struct NotCountedSummary: Sendable, Hashable {
        /// Regions on the evaluated files.
        package var regions: Int
        /// Evaluated files with at least one region.
        package var files: Int
        /// Detections of the label left out (onset in a region, no overlapping reference).
        package var detections: Int

        /// Creates a summary.
        package init(regions: Int, files: Int, detections: Int) {
            self.regions = regions
            self.files = files
            self.detections = detections
        }
    }
}

/// Scores system output against references (pure): the computation behind `vigil bench accuracy`.
package enum AccuracyEvaluation {
    /// Evaluates `estimated` against `reference` over the files in `fileDurations`.
    ///
    /// - Parameters:
    ///   - reference: reference events; files listed in `fileDurations` with none are negatives.
    ///   - estimated: system events; events on files not in `fileDurations` are ignored.
    ///   - confirmationTimes: for system events that have one, the media time the detector confirmed
    ///     them (`detectedAt`), used for latency; others use their onset.
    ///   - fileDurations: every evaluated file with its duration in seconds.
    ///   - labels: labels to score (nil: every label in reference or estimated).
    ///   - notCounted: per label, regions that do not count against it (for personTalking, voices in
    ///     children-playing, room-ambience and street-music material): a detection of that label
    ///     starting in one and overlapping no reference is left out of every scoring, and the regions
    ///     are not negative hours. Empty: every detection counts (plain sed_eval).
    /// - Throws: ``ScoringError`` when events carry labels outside `labels` in segment scoring.
    package static func evaluate(
        reference: [ScoredEvent], estimated: [ScoredEvent], confirmationTimes: [ScoredEvent: Double] = [:],
        fileDurations: [String: Double], labels: [String]? = nil, settings: AccuracySettings = AccuracySettings(),
        notCounted: [String: VoiceBackground] = [:]
    ) throws(ScoringError) -> AccuracyReport {
        let labelList = labels ?? Array(Set(reference.map(\.label)).union(estimated.map(\.label))).sorted()
        let labelSet = Set(labelList)
        let files = fileDurations.keys.sorted()
        let fileSet = Set(files)
        let ref = reference.filter { labelSet.contains($0.label) && fileSet.contains($0.file) }
        var est = estimated.filter { labelSet.contains($0.label) && fileSet.contains($0.file) }
        var notCountedSummary: [String: AccuracyReport.NotCountedSummary] = [:]
        for label in labelList {
            guard let regions = notCounted[label], !regions.regions.isEmpty else { continue }
            let own = est.filter { $0.label == label }
            let kept = regions.counted(own, reference: ref)
            est = est.filter { $0.label != label } + kept
            let onFiles = regions.regions.filter { fileSet.contains($0.key) }
            notCountedSummary[label] = .init(
                regions: onFiles.values.reduce(0) { $0 + $1.count }, files: onFiles.count, detections: own.count - kept.count)
        }
        var refByFile: [String: [ScoredEvent]] = [:]
        var estByFile: [String: [ScoredEvent]] = [:]
        for r in ref { refByFile[r.file, default: []].append(r) }
        for e in est { estByFile[e.file, default: []].append(e) }

        var main = EventBasedMetrics(
            labels: labelList, tCollar: settings.collar, percentageOfLength: 0.5, evaluateOnset: true,
            evaluateOffset: settings.evaluateOffsets)
        var sedDefault = EventBasedMetrics.sedEvalDefault(labels: labelList)
        var segment = SegmentBasedMetrics(labels: labelList, timeResolution: settings.segment)
        for file in files {
            let r = refByFile[file] ?? []
            let e = estByFile[file] ?? []
            try main.evaluate(reference: r, estimated: e)
            try sedDefault.evaluate(reference: r, estimated: e)
            try segment.evaluate(reference: r, estimated: e)
        }

        var falseAlarms: [String: FalseAlarmRate] = [:]
        var latency: [String: LatencySummary] = [:]
        for label in labelList {
            falseAlarms[label] = DetectionStatistics.falseAlarmsPerHour(
                label: label, estimated: est, fileDurations: fileDurations, reference: ref,
                notCounted: notCounted[label] ?? .none)
            let matches = DetectionStatistics.detectionLatencies(
                reference: ref, estimated: est, label: label, collar: settings.collar)
            var values: [Double] = []
            var missed = 0
            for m in matches {
                guard let d = m.detection else {
                    missed += 1
                    continue
                }
                values.append((confirmationTimes[d] ?? d.onset) - m.reference.onset)
            }
            latency[label] = LatencySummary(label: label, latencies: values, missed: missed)
        }
        return AccuracyReport(
            settings: settings, labels: labelList, files: files.count,
            totalSeconds: files.reduce(0) { $0 + fileDurations[$1]! },
            eventBased: main.results(), eventBasedSedEvalDefault: sedDefault.results(), segmentBased: segment.results(),
            falseAlarms: falseAlarms, latency: latency, notCounted: notCountedSummary)
    }
}
