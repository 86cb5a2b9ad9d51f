import Foundation
import Testing
import VigilScoring

/// Agreement with `sed_eval` on the fixtures written by `Benchmarks/scoring-fixtures/make_fixtures.py`.
struct SedEvalFixtureTests {
    static let fixtureDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/scoring-fixtures")

    static let tolerance = 0.001

    static func fixtureNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtureDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtureNames().count >= 8)
    }

    @Test(arguments: fixtureNames())
    func agreesWithSedEval(fixture: String) throws {
        let doc = try FixtureJSON.load(Self.fixtureDirectory.appendingPathComponent(fixture))
        let scenario = try #require(doc["scenario"])
        let labelValues = try #require(scenario["labels"]?.array)
        let labels = labelValues.compactMap { $0.string }
        let files = try #require(scenario["files"]?.array)
        let metrics = try #require(doc["metrics"]?.object)
        #expect(metrics.count >= 7)

        var comparison = Comparison(fixture: fixture)
        for (key, expected) in metrics.sorted(by: { $0.key < $1.key }) {
            let settings = try #require(expected["settings"])
            let results: ScoringResults
            if settings["kind"]?.string == "event" {
                var m = EventBasedMetrics(
                    labels: labels, tCollar: try number(settings["t_collar"]),
                    percentageOfLength: try number(settings["percentage_of_length"]),
                    evaluateOnset: settings["evaluate_onset"]?.bool ?? true,
                    evaluateOffset: settings["evaluate_offset"]?.bool ?? true,
                    matching: try #require(EventMatching(rawValue: settings["event_matching_type"]?.string ?? "")))
                for f in files {
                    let (name, ref, est) = try events(f)
                    _ = name
                    try m.evaluate(reference: ref, estimated: est)
                }
                results = m.results()
            } else {
                var m = SegmentBasedMetrics(labels: labels, timeResolution: try number(settings["time_resolution"]))
                for f in files {
                    let (_, ref, est) = try events(f)
                    let length = f["evaluated_length"]?.double
                    try m.evaluate(reference: ref, estimated: est, evaluatedLength: length)
                }
                results = m.results()
            }
            try comparison.check(key, results: results, expected: expected, labels: labels)
        }
        print("sed_eval agreement \(fixture): \(comparison.checked) values, max abs difference \(comparison.maxDifference)")
        #expect(comparison.checked > 100)
    }

    private func events(_ f: FixtureJSON) throws -> (String, [ScoredEvent], [ScoredEvent]) {
        let name = try #require(f["name"]?.string)
        func list(_ key: String) throws -> [ScoredEvent] {
            let rows = try #require(f[key]?.array)
            return try rows.map { item in
                let row = try #require(item.array)
                return ScoredEvent(
                    file: name, onset: try number(row[0]), offset: try number(row[1]),
                    label: try #require(row[2].string))
            }
        }
        return (name, try list("reference"), try list("estimated"))
    }
}

/// The number in a fixture value (NaN and infinities are written as strings).
func number(_ value: FixtureJSON?) throws -> Double {
    try #require(value?.double, "not a number: \(String(describing: value))")
}

/// Compares Swift results with one `sed_eval` setting block and records the largest difference.
struct Comparison {
    let fixture: String
    var checked = 0
    var maxDifference = 0.0

    mutating func expectClose(_ actual: Double?, _ expectedValue: FixtureJSON?, _ what: String) throws {
        let expected = try number(expectedValue)
        let actual = try #require(actual, "\(fixture) \(what): Swift reports no value, sed_eval gives \(expected)")
        checked += 1
        if expected.isNaN || actual.isNaN {
            #expect(expected.isNaN && actual.isNaN, "\(fixture) \(what): Swift \(actual), sed_eval \(expected)")
            return
        }
        // Rates with no references divide by numpy.spacing(1) and reach ~1e16: compare those relatively.
        let difference = abs(actual - expected) / max(1, abs(expected))
        maxDifference = max(maxDifference, difference)
        #expect(difference <= SedEvalFixtureTests.tolerance, "\(fixture) \(what): Swift \(actual), sed_eval \(expected)")
    }

    /// Checks one `{f_measure: {...}, error_rate: {...}, accuracy: {...}}` block, including that the same
    /// fields are reported.
    mutating func checkBlock(_ summary: ScoreSummary, _ block: FixtureJSON, _ what: String) throws {
        var expectedKeys: Set<String> = []
        for group in ["f_measure", "error_rate", "accuracy"] {
            let values = block[group]?.object ?? [:]
            for (k, v) in values {
                expectedKeys.insert(k)
                try expectClose(summary.sedEvalValues[k], v, "\(what) \(k)")
            }
        }
        #expect(Set(summary.sedEvalValues.keys) == expectedKeys, "\(fixture) \(what): reported fields differ")
    }

    mutating func check(_ key: String, results: ScoringResults, expected: FixtureJSON, labels: [String]) throws {
        try expectClose(Double(results.evaluatedFiles), expected["evaluated_files"], "\(key) evaluated_files")
        try expectClose(results.evaluatedLength, expected["evaluated_length"], "\(key) evaluated_length")
        let r = try #require(expected["results"])
        try checkBlock(results.overall, try #require(r["overall"]), "\(key) overall")
        try checkBlock(results.classWiseAverage, try #require(r["class_wise_average"]), "\(key) average")
        let classWise = try #require(r["class_wise"])
        let classCounts = try #require(expected["class_wise_counts"])
        let isSegment = key.hasPrefix("segment")
        for label in labels {
            let summary = try #require(results.classWise[label])
            try checkBlock(summary, try #require(classWise[label]), "\(key) \(label)")
            let c = try #require(summary.counts)
            let count = try #require(classWise[label]?["count"])
            try expectClose(Double(c.reference), count["Nref"], "\(key) \(label) Nref")
            try expectClose(Double(c.system), count["Nsys"], "\(key) \(label) Nsys")
            let internalCounts = try #require(classCounts[label])
            try expectClose(Double(c.truePositives), internalCounts["Ntp"], "\(key) \(label) Ntp")
            try expectClose(Double(c.falsePositives), internalCounts["Nfp"], "\(key) \(label) Nfp")
            try expectClose(Double(c.falseNegatives), internalCounts["Nfn"], "\(key) \(label) Nfn")
            try expectClose(Double(c.trueNegatives), internalCounts["Ntn"], "\(key) \(label) Ntn")
        }
        let o = try #require(results.overall.counts)
        let oc = try #require(expected["overall_counts"])
        try expectClose(Double(o.reference), oc["Nref"], "\(key) overall Nref")
        try expectClose(Double(o.system), oc["Nsys"], "\(key) overall Nsys")
        try expectClose(Double(o.truePositives), oc["Ntp"], "\(key) overall Ntp")
        try expectClose(Double(o.falsePositives), oc["Nfp"], "\(key) overall Nfp")
        try expectClose(Double(o.falseNegatives), oc["Nfn"], "\(key) overall Nfn")
        if isSegment {
            try expectClose(Double(o.trueNegatives), oc["Ntn"], "\(key) overall Ntn")
            try expectClose(Double(o.substitutions), oc["S"], "\(key) overall S")
            try expectClose(Double(o.deletions), oc["D"], "\(key) overall D")
            try expectClose(Double(o.insertions), oc["I"], "\(key) overall I")
        } else {
            try expectClose(Double(o.substitutions), oc["Nsubs"], "\(key) overall Nsubs")
        }
    }
}
