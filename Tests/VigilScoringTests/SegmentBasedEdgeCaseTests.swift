import Testing
import VigilScoring

struct SegmentBasedEdgeCaseTests {
    func ev(_ on: Double, _ off: Double, _ label: String = "dogBark") -> ScoredEvent {
        ScoredEvent(file: "a.wav", onset: on, offset: off, label: label)
    }

    @Test func eventRollUsesFloorOfOnsetAndCeilingOfOffset() throws {
        // Estimate 0.5–1.2 s covers segments 0 and 1; reference 0–1 s only segment 0.
        var m = SegmentBasedMetrics(labels: ["dogBark"])
        try m.evaluate(reference: [ev(0, 1)], estimated: [ev(0.5, 1.2)])
        let c = try #require(m.results().overall.counts)
        #expect(c.truePositives == 1 && c.falsePositives == 1 && c.falseNegatives == 0 && c.trueNegatives == 0)
        #expect(m.evaluatedLength == 1.2)
    }

    @Test func evaluatedLengthPadsAndCuts() throws {
        var padded = SegmentBasedMetrics(labels: ["dogBark"])
        try padded.evaluate(reference: [ev(0, 1)], estimated: [ev(0, 1)], evaluatedLength: 10)
        #expect(padded.results().overall.counts?.trueNegatives == 9)
        var cut = SegmentBasedMetrics(labels: ["dogBark"])
        try cut.evaluate(reference: [ev(0, 1)], estimated: [ev(0, 8)], evaluatedLength: 2)
        #expect(cut.results().overall.counts?.falsePositives == 1)
    }

    @Test func perSegmentSubstitutions() throws {
        var m = SegmentBasedMetrics(labels: ["dogBark", "glassBreak"])
        try m.evaluate(reference: [ev(0, 1, "dogBark")], estimated: [ev(0, 1, "glassBreak")])
        let r = m.results()
        #expect(r.overall.counts?.substitutions == 1)
        #expect(r.overall.counts?.deletions == 0 && r.overall.counts?.insertions == 0)
        #expect(r.overall.errorRate == r.overall.substitutionRate)
        #expect(r.overall.accuracy != nil && r.classWise["dogBark"]?.sensitivity != nil)
    }

    @Test func emptyFileHasNoSegments() throws {
        var m = SegmentBasedMetrics(labels: ["dogBark"])
        try m.evaluate(reference: [], estimated: [])
        #expect(m.results().overall.counts == ScoreCounts())
        #expect(m.results().overall.precision?.isNaN == true)
    }

    @Test func unknownLabelIsRejected() {
        var m = SegmentBasedMetrics(labels: ["dogBark"])
        #expect(throws: ScoringError.unknownLabel(label: "cat", file: "a.wav")) {
            try m.evaluate(reference: [ev(0, 1, "cat")], estimated: [])
        }
    }
}
