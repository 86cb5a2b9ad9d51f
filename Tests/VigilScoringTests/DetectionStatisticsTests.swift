import Testing
import VigilScoring

struct DetectionStatisticsTests {
    @Test func falseAlarmsCountOnlyNegativeFiles() {
        let reference = [ScoredEvent(file: "pos.wav", onset: 5, offset: 20, label: "smokeAlarm")]
        let estimated = [
            ScoredEvent(file: "pos.wav", onset: 30, offset: 31, label: "smokeAlarm"),  // positive file: ignored
            ScoredEvent(file: "neg1.wav", onset: 1, offset: 2, label: "smokeAlarm"),
            ScoredEvent(file: "neg2.wav", onset: 1, offset: 2, label: "smokeAlarm"),
            ScoredEvent(file: "neg2.wav", onset: 5, offset: 6, label: "dogBark"),  // other label
        ]
        let durations = ["pos.wav": 60.0, "neg1.wav": 1800.0, "neg2.wav": 1800.0]
        let r = DetectionStatistics.falseAlarmsPerHour(
            label: "smokeAlarm", estimated: estimated, fileDurations: durations, reference: reference)
        #expect(r.falseAlarms == 2 && r.negativeFiles == 2 && r.negativeSeconds == 3600)
        #expect(r.perHour == 2)

        let t = DetectionStatistics.falseAlarmsPerHour(
            label: "smokeAlarm", estimated: estimated, fileDurations: durations, reference: reference,
            negativeMaterial: .negativeTime)
        #expect(t.falseAlarms == 3)
        #expect(t.negativeSeconds == 3600 + 60 - 15)

        let none = DetectionStatistics.falseAlarmsPerHour(
            label: "smokeAlarm", estimated: [], fileDurations: [:], reference: [])
        #expect(none.perHour.isNaN)
    }

    @Test func voiceBackgroundIsNeitherFalseAlarmsNorNegativeTime() {
        let reference = [ScoredEvent(file: "scene", onset: 4, offset: 5, label: "personTalking")]
        let estimated = [
            ScoredEvent(file: "kids", onset: 100, offset: 101, label: "personTalking"),  // in a region, no reference: left out
            ScoredEvent(file: "kids", onset: 2000, offset: 2001, label: "personTalking"),  // after the region: a false alarm
            ScoredEvent(file: "scene", onset: 4.5, offset: 6, label: "personTalking"),  // in a region, overlaps speech: kept
            ScoredEvent(file: "scene", onset: 7, offset: 7.5, label: "personTalking"),  // in a region, no reference: left out
        ]
        let voices = VoiceBackground(regions: ["kids": [0...1800], "scene": [3...8]])
        #expect(voices.counted(estimated, reference: reference) == [estimated[1], estimated[2]])
        // Speech of another label does not keep a detection; no regions keep everything.
        #expect(voices.counted([estimated[0]], reference: [ScoredEvent(file: "kids", onset: 100, offset: 101, label: "dogBark")]).isEmpty)
        #expect(VoiceBackground.none.counted(estimated, reference: []) == estimated)

        let durations = ["kids": 3600.0, "scene": 10.0]
        let files = DetectionStatistics.falseAlarmsPerHour(
            label: "personTalking", estimated: estimated, fileDurations: durations, reference: reference, notCounted: voices)
        #expect(files.falseAlarms == 1 && files.negativeSeconds == 1800 && files.negativeFiles == 1)
        #expect(files.perHour == 2)
        // Negative time: outside the references and the regions (kids 1800 s, scene 10 - 5 s).
        let time = DetectionStatistics.falseAlarmsPerHour(
            label: "personTalking", estimated: estimated, fileDurations: durations, reference: reference,
            negativeMaterial: .negativeTime, notCounted: voices)
        #expect(time.falseAlarms == 1 && time.negativeSeconds == 1805)
        // A file that is voice background throughout is no negative material at all.
        let whole = DetectionStatistics.falseAlarmsPerHour(
            label: "personTalking", estimated: [estimated[0]], fileDurations: ["kids": 1800], reference: [],
            notCounted: VoiceBackground(regions: ["kids": [0...Double.greatestFiniteMagnitude]]))
        #expect(whole.falseAlarms == 0 && whole.negativeSeconds == 0 && whole.negativeFiles == 0 && whole.perHour.isNaN)
    }

    @Test func accuracyEvaluationLeavesOutVoiceBackgroundForItsLabelOnly() throws {
        let reference = [ScoredEvent(file: "scene", onset: 4, offset: 5, label: "personTalking")]
        let estimated = [
            ScoredEvent(file: "scene", onset: 4.2, offset: 5, label: "personTalking"),
            ScoredEvent(file: "scene", onset: 7, offset: 7.5, label: "personTalking"),
            ScoredEvent(file: "scene", onset: 7, offset: 7.5, label: "dogBark"),
        ]
        let voices = VoiceBackground(regions: ["scene": [3...8], "elsewhere": [0...1]])
        let report = try AccuracyEvaluation.evaluate(
            reference: reference, estimated: estimated, fileDurations: ["scene": 10], labels: ["dogBark", "personTalking"],
            notCounted: ["personTalking": voices])
        #expect(report.eventBased.classWise["personTalking"]?.counts?.system == 1)
        #expect(report.eventBased.classWise["personTalking"]?.fMeasure == 1)
        #expect(report.eventBased.classWise["dogBark"]?.counts?.system == 1)
        // Only the regions on evaluated files are reported.
        #expect(report.notCounted["personTalking"] == AccuracyReport.NotCountedSummary(regions: 1, files: 1, detections: 1))
        #expect(report.notCounted["dogBark"] == nil)
        let plain = try AccuracyEvaluation.evaluate(
            reference: reference, estimated: estimated, fileDurations: ["scene": 10], labels: ["dogBark", "personTalking"])
        #expect(plain.eventBased.classWise["personTalking"]?.counts?.system == 2)
        #expect(plain.notCounted.isEmpty)
    }

    @Test func latencyIsFromReferenceOnsetToFirstOverlappingDetection() {
        let reference = [
            ScoredEvent(file: "a", onset: 10, offset: 30, label: "coAlarm"),
            ScoredEvent(file: "a", onset: 40, offset: 45, label: "coAlarm"),
            ScoredEvent(file: "b", onset: 10, offset: 30, label: "coAlarm"),
        ]
        let estimated = [
            ScoredEvent(file: "a", onset: 19, offset: 35, label: "coAlarm"),
            ScoredEvent(file: "a", onset: 18, offset: 19, label: "coAlarm"),
            ScoredEvent(file: "a", onset: 37, offset: 38, label: "coAlarm"),
            ScoredEvent(file: "b", onset: 12, offset: 20, label: "dogBark"),
        ]
        let l = DetectionStatistics.detectionLatencies(reference: reference, estimated: estimated, label: "coAlarm")
        #expect(l.map(\.latency) == [8, nil, nil])
        let withCollar = DetectionStatistics.detectionLatencies(
            reference: reference, estimated: estimated, label: "coAlarm", collar: 4)
        #expect(withCollar.map(\.latency) == [8, -3, nil])
    }
}
