import Testing
import VigilScoring

/// Hand-made cases whose outcome follows from sed_eval's rules (checked against sed_eval 0.2.1 by hand).
struct EventBasedEdgeCaseTests {
    func ev(_ on: Double, _ off: Double, _ label: String = "dogBark", file: String = "a.wav") -> ScoredEvent {
        ScoredEvent(file: file, onset: on, offset: off, label: label)
    }

    func score(
        _ metrics: EventBasedMetrics, _ files: [([ScoredEvent], [ScoredEvent])]
    ) throws -> (EventBasedMetrics, ScoringResults) {
        var m = metrics
        for (ref, est) in files { try m.evaluate(reference: ref, estimated: est) }
        return (m, m.results())
    }

    @Test func onsetExactlyAtCollarMatches() throws {
        // |1.0 - 1.5| = 0.5 exactly: inside the 0.5 s collar (<=); offsets ignored in DCASE 2017 settings.
        let (_, inside) = try score(.dcase2017(labels: ["dogBark"]), [([ev(1.0, 2.0)], [ev(1.5, 9.0)])])
        #expect(inside.overall.counts?.truePositives == 1)
        #expect(inside.overall.errorRate == 0)
        let (_, outside) = try score(.dcase2017(labels: ["dogBark"]), [([ev(1.0, 2.0)], [ev(1.5000001, 9.0)])])
        #expect(outside.overall.counts?.truePositives == 0)
        #expect(outside.overall.counts?.substitutions == 0)
        #expect(outside.overall.counts?.falsePositives == 1)
        #expect(outside.overall.counts?.falseNegatives == 1)
    }

    @Test func offsetCollarIsHalfTheReferenceLength() throws {
        // Reference 4 s long: offsets within max(0.2, 0.5 * 4) = 2 s count.
        let m = EventBasedMetrics.sedEvalDefault(labels: ["dogBark"])
        #expect(m.timesMatch(reference: ev(0, 4), estimated: ev(0.2, 6.0)))
        #expect(!m.timesMatch(reference: ev(0, 4), estimated: ev(0.0, 6.001)))
        #expect(!m.timesMatch(reference: ev(0, 4), estimated: ev(0.2001, 4.0)))
        // Short reference: the 0.2 s collar applies to the offset too.
        #expect(m.timesMatch(reference: ev(0, 0.1), estimated: ev(0, 0.3)))
        #expect(!m.timesMatch(reference: ev(0, 0.1), estimated: ev(0, 0.31)))
    }

    @Test func onsetOrOffsetOnly() {
        let offsetOnly = EventBasedMetrics(labels: ["x"], evaluateOnset: false, evaluateOffset: true)
        #expect(offsetOnly.timesMatch(reference: ev(0, 4), estimated: ev(3.0, 4.1)))
        let onsetOnly = EventBasedMetrics(labels: ["x"], evaluateOnset: true, evaluateOffset: false)
        #expect(onsetOnly.timesMatch(reference: ev(0, 4), estimated: ev(0.1, 40)))
    }

    @Test func optimalMatchingFindsWhatGreedyMisses() throws {
        // Reference A fits both system events, B only the first; greedy gives A the first and loses B.
        let ref = [ev(1.0, 2.0), ev(1.15, 2.15)]
        let est = [ev(1.1, 2.1), ev(0.9, 1.9)]
        let (_, optimal) = try score(.sedEvalDefault(labels: ["dogBark"]), [(ref, est)])
        let (_, greedy) = try score(.sedEvalDefault(labels: ["dogBark"], matching: .greedy), [(ref, est)])
        #expect(optimal.overall.counts?.truePositives == 2)
        #expect(optimal.classWise["dogBark"]?.counts?.truePositives == 2)
        #expect(greedy.overall.counts?.truePositives == 1)
        #expect(greedy.classWise["dogBark"]?.counts?.truePositives == 1)
        #expect(optimal.overall.fMeasure == 1)
    }

    @Test func zeroReferencesGiveNaNRecallAndHugeRates() throws {
        // sed_eval: recall = NaN when Nref = 0, F1 = NaN, rates divide by numpy.spacing(1).
        let (_, r) = try score(.sedEvalDefault(labels: ["dogBark"]), [([], [ev(1, 2)])])
        #expect(r.overall.precision == 0)
        #expect(r.overall.recall?.isNaN == true)
        #expect(r.overall.fMeasure?.isNaN == true)
        let ins = try #require(r.overall.insertionRate)
        #expect(ins.isFinite && ins > 1e15)
        #expect(r.overall.deletionRate == 0)
        #expect(r.classWise["dogBark"]?.recall?.isNaN == true)
    }

    @Test func zeroEstimatesGiveNaNPrecision() throws {
        let (_, r) = try score(.sedEvalDefault(labels: ["dogBark"]), [([ev(1, 2)], [])])
        #expect(r.overall.precision?.isNaN == true)
        #expect(r.overall.recall == 0)
        #expect(r.overall.fMeasure?.isNaN == true)  // NaN, not 0: only P = R = 0 gives F = 0
        #expect(r.overall.errorRate == r.overall.deletionRate)
        #expect(r.classWiseAverage.precision?.isNaN == true)  // nanmean of all-NaN

        let zero = EventBasedMetrics(labels: ["dogBark"], zeroScoreOnEmptySystemOutput: true)
        let (_, z) = try score(zero, [([ev(1, 2)], [])])
        #expect(z.overall.precision == 0)
        #expect(z.overall.fMeasure == 0)
    }

    @Test func wrongLabelAtTheRightTimeIsOneSubstitution() throws {
        let ref = [ev(4, 6, "smokeAlarm")]
        let est = [ev(4.1, 6.2, "coAlarm")]
        let (_, r) = try score(.sedEvalDefault(labels: ["smokeAlarm", "coAlarm"]), [(ref, est)])
        let o = try #require(r.overall.counts)
        #expect(o.substitutions == 1 && o.deletions == 0 && o.insertions == 0)
        #expect(r.overall.errorRate == r.overall.substitutionRate)
        // Class-wise there are no substitutions: a deletion for one class, an insertion for the other.
        #expect(r.classWise["smokeAlarm"]?.counts?.deletions == 1)
        #expect(r.classWise["coAlarm"]?.counts?.insertions == 1)
        #expect(r.classWise["smokeAlarm"]?.substitutionRate == nil)
    }

    @Test func countsAccumulateOverFiles() throws {
        let a = ([ev(1, 2, file: "a")], [ev(1, 2, file: "a")])
        let b = ([ev(1, 2, file: "b"), ev(5, 6, file: "b")], [ev(9, 10, file: "b")])
        let (m, r) = try score(.sedEvalDefault(labels: ["dogBark"]), [a, b])
        #expect(m.evaluatedFiles == 2)
        #expect(r.evaluatedLength == 2 + 6)
        #expect(r.overall.counts?.reference == 3)
        #expect(r.overall.counts?.system == 2)
        #expect(r.overall.counts?.truePositives == 1)
    }

    @Test func labelsOutsideTheListCountOverallOnly() throws {
        let (_, r) = try score(.sedEvalDefault(labels: ["dogBark"]), [([ev(1, 2, "cat")], [ev(1, 2, "cat")])])
        #expect(r.overall.counts?.truePositives == 1)
        #expect(r.classWise["dogBark"]?.counts?.reference == 0)
        #expect(r.classWise["cat"] == nil)
    }

    @Test func mixedFilesAreRejected() {
        var m = EventBasedMetrics.sedEvalDefault(labels: ["dogBark"])
        #expect(throws: ScoringError.multipleFiles(list: "reference", files: ["a", "b"])) {
            try m.evaluate(reference: [ev(1, 2, file: "a"), ev(3, 4, file: "b")], estimated: [])
        }
    }

    @Test func resetForgetsCounts() throws {
        var m = EventBasedMetrics.sedEvalDefault(labels: ["dogBark"])
        try m.evaluate(reference: [ev(1, 2)], estimated: [ev(1, 2)])
        m.reset()
        #expect(m.overallCounts == ScoreCounts())
        #expect(m.evaluatedFiles == 0)
    }
}
