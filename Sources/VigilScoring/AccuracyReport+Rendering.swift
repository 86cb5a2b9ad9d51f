import VigilCore

extension AccuracyReport {
    /// A plain-text report: the summary table per label, then the three scorings in full.
    package var text: String {
        var rows: [[String]] = [
            ["Label", "Nref", "Event F1 %", "ER", "Event F1 % (sed_eval default)", "Segment F1 %", "FA/h", "Latency median s", "p90 s"]
        ]
        for label in labels {
            let e = eventBased.classWise[label]
            let d = eventBasedSedEvalDefault.classWise[label]
            let s = segmentBased.classWise[label]
            let fa = falseAlarms[label]
            let l = latency[label]
            rows.append([
                label, e?.counts.map { String($0.reference) } ?? "-", Self.pct(e?.fMeasure), Self.errorRate(e),
                Self.pct(d?.fMeasure), Self.pct(s?.fMeasure),
                fa.map { $0.negativeSeconds > 0 ? Self.num($0.perHour, 1) : "-" } ?? "-", Self.num(l?.median), Self.num(l?.quantile(0.9)),
            ])
        }
        rows.append([
            "overall", eventBased.overall.counts.map { String($0.reference) } ?? "-", Self.pct(eventBased.overall.fMeasure),
            Self.errorRate(eventBased.overall), Self.pct(eventBasedSedEvalDefault.overall.fMeasure),
            Self.pct(segmentBased.overall.fMeasure), "", "", "",
        ])
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        var out =
            "\(files) files, \(Self.num(totalSeconds / 60, 1)) min of audio (\(Self.num(totalSeconds, 2)) s); event-based: onset collar \(settings.collar) s, offsets \(settings.evaluateOffsets ? "within max(collar, 50 %)" : "ignored"); segments \(settings.segment) s\n"
        for label in labels {
            guard let n = notCounted[label] else { continue }
            out +=
                "\(label): voice-background material not counted against it (\(n.regions) regions in \(n.files) files); \(n.detections) detections there left out\n"
        }
        for (i, row) in rows.enumerated() {
            out +=
                row.enumerated().map { c, cell in
                    let pad = String(repeating: " ", count: widths[c] - cell.count)
                    return c == 0 ? cell + pad : pad + cell
                }.joined(separator: "  ") + "\n"
            if i == 0 || i == rows.count - 2 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        out += "\nEvent-based (chosen setting)\n" + ScoreTable.render(eventBased)
        out += "\nEvent-based (sed_eval default)\n" + ScoreTable.render(eventBasedSedEvalDefault)
        out += "\nSegment-based\n" + ScoreTable.render(segmentBased)
        return out
    }

    /// The report as JSON (NaN becomes null).
    package var jsonValue: JSONValue {
        func summary(_ s: ScoreSummary) -> JSONValue {
            var members: [(String, JSONValue)] = []
            if let c = s.counts {
                members += [
                    ("Nref", .number(Double(c.reference))), ("Nsys", .number(Double(c.system))),
                    ("Ntp", .number(Double(c.truePositives))), ("Nfp", .number(Double(c.falsePositives))),
                    ("Nfn", .number(Double(c.falseNegatives))), ("substitutions", .number(Double(c.substitutions))),
                    ("deletions", .number(Double(c.deletions))), ("insertions", .number(Double(c.insertions))),
                ]
            }
            for (key, value) in [
                ("precision", s.precision), ("recall", s.recall), ("f1", s.fMeasure), ("errorRate", s.errorRate),
                ("substitutionRate", s.substitutionRate), ("deletionRate", s.deletionRate), ("insertionRate", s.insertionRate),
            ] {
                if let v = value { members.append((key, v.isFinite ? .number(v) : .null)) }
            }
            return .object(JSONObject(members))
        }
        func results(_ r: ScoringResults) -> JSONValue {
            .object(
                JSONObject([
                    ("settings", .string(r.settings)), ("overall", summary(r.overall)),
                    ("classWiseAverage", summary(r.classWiseAverage)),
                    ("classWise", .object(JSONObject(r.labels.compactMap { l in r.classWise[l].map { (l, summary($0)) } }))),
                ]))
        }
        func number(_ x: Double?) -> JSONValue { x.map { $0.isFinite ? .number($0) : .null } ?? .null }
        return .object(
            JSONObject([
                ("files", .number(Double(files))), ("seconds", .number(totalSeconds)),
                (
                    "settings",
                    [
                        "collar": .number(settings.collar), "evaluateOffsets": .bool(settings.evaluateOffsets),
                        "segment": .number(settings.segment),
                    ]
                ),
                ("labels", .array(labels.map { .string($0) })),
                ("eventBased", results(eventBased)), ("eventBasedSedEvalDefault", results(eventBasedSedEvalDefault)),
                ("segmentBased", results(segmentBased)),
                (
                    "falseAlarms",
                    .object(
                        JSONObject(
                            labels.compactMap { l in
                                falseAlarms[l].map { fa in
                                    (
                                        l,
                                        .object(
                                            JSONObject([
                                                ("falseAlarms", .number(Double(fa.falseAlarms))),
                                                ("negativeSeconds", .number(fa.negativeSeconds)),
                                                ("negativeFiles", .number(Double(fa.negativeFiles))),
                                                ("perHour", number(fa.negativeSeconds > 0 ? fa.perHour : nil)),
                                            ]))
                                    )
                                }
                            }))
                ),
                (
                    "notCounted",
                    .object(
                        JSONObject(
                            labels.compactMap { l in
                                notCounted[l].map { n in
                                    (
                                        l,
                                        .object(
                                            JSONObject([
                                                ("regions", .number(Double(n.regions))), ("files", .number(Double(n.files))),
                                                ("detections", .number(Double(n.detections))),
                                            ]))
                                    )
                                }
                            }))
                ),
                (
                    "latency",
                    .object(
                        JSONObject(
                            labels.compactMap { l in
                                latency[l].map { s in
                                    (
                                        l,
                                        .object(
                                            JSONObject([
                                                ("detected", .number(Double(s.latencies.count))), ("missed", .number(Double(s.missed))),
                                                ("median", number(s.median)), ("p90", number(s.quantile(0.9))),
                                                ("max", number(s.latencies.last)),
                                                ("min", number(s.latencies.first)),
                                            ]))
                                    )
                                }
                            }))
                ),
            ]))
    }

    static func pct(_ x: Double?) -> String {
        guard let x else { return "-" }
        return x.isFinite ? format(x * 100, 1) : "nan"
    }

    /// The error rate for the table: "-" where there is no reference event, since sed_eval
    /// divides by the reference count plus machine epsilon (4.5e15 for a single insertion).
    /// The JSON keeps sed_eval's value.
    static func errorRate(_ summary: ScoreSummary?) -> String {
        guard let summary, let counts = summary.counts, counts.reference > 0 else { return "-" }
        return num(summary.errorRate)
    }

    static func num(_ x: Double?, _ places: Int = 2) -> String {
        guard let x else { return "-" }
        return x.isFinite ? format(x, places) : "nan"
    }

    static func format(_ x: Double, _ places: Int) -> String { DecimalText.fixed(x, places: places) }
}
