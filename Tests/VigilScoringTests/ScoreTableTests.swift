import Testing
import VigilScoring

struct ScoreTableTests {
    @Test func rendersOneRowPerLabelAndTotals() throws {
        var m = SegmentBasedMetrics(labels: ["smokeAlarm", "dogBark"])
        try m.evaluate(
            reference: [ScoredEvent(onset: 0, offset: 2, label: "smokeAlarm")],
            estimated: [ScoredEvent(onset: 0, offset: 1, label: "smokeAlarm")])
        let text = ScoreTable.render(m.results())
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("segment-based") == true)
        #expect(lines.contains { $0.hasPrefix("smokeAlarm") && $0.contains("66.7") })
        #expect(lines.contains { $0.hasPrefix("dogBark") && $0.contains("nan") })
        #expect(lines.contains { $0.hasPrefix("overall (micro)") })
        #expect(lines.contains { $0.hasPrefix("average (macro)") })
        #expect(text.contains("Sens %"))
        #expect(!ScoreTable.render(EventBasedMetrics.dcase2017(labels: ["x"]).results()).contains("Sens %"))
    }
}
