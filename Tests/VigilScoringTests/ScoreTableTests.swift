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

    @Test("a class with no reference event shows no error rate, not sed_eval's division by epsilon")
    func rateWithoutReferences() throws {
        var m = EventBasedMetrics.dcase2017(labels: ["dogBark", "glassBreak"])
        try m.evaluate(
            reference: [ScoredEvent(onset: 1, offset: 2, label: "dogBark")],
            estimated: [ScoredEvent(onset: 1, offset: 2, label: "dogBark"), ScoredEvent(onset: 5, offset: 6, label: "glassBreak")])
        let results = m.results()
        #expect((results.classWise["glassBreak"]?.errorRate ?? 0) > 1e15, "sed_eval's value, kept in the results")
        let row = try #require(ScoreTable.render(results).split(separator: "\n").first { $0.hasPrefix("glassBreak") })
        #expect(!row.contains("4503599627370496"), "\(row)")
        #expect(row.split(separator: " ").suffix(3) == ["-", "-", "-"], "\(row)")
    }
}
