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
