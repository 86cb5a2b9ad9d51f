/// Renders ``ScoringResults`` as a plain-text table: one row per label, then the overall (micro) and
/// class-wise average (macro) rows. Pure; returns the text.
package enum ScoreTable {
    /// The table, preceded by the settings line.
    ///
    /// Columns: label, Nref, Nsys, F1 %, precision %, recall %, ER, deletion rate, insertion rate, and (for
    /// segment-based results) sensitivity % and specificity %. Counts are blank for the average row; NaN
    /// is shown as `nan`, absent values as `-`.
    package static func render(_ results: ScoringResults) -> String {
        let withAccuracy = results.overall.accuracy != nil
        var header = ["Label", "Nref", "Nsys", "F1 %", "Pre %", "Rec %", "ER", "Del", "Ins"]
        if withAccuracy { header += ["Sens %", "Spec %"] }
        var rows: [[String]] = [header]
        func row(_ name: String, _ s: ScoreSummary) -> [String] {
            var r = [
                name, s.counts.map { String($0.reference) } ?? "", s.counts.map { String($0.system) } ?? "",
                pct(s.fMeasure), pct(s.precision), pct(s.recall),
            ]
            // Rates are per reference event: none for a class without one (sed_eval's value, kept
            // in the JSON, divides by machine epsilon then). Averages have no counts and keep theirs.
            let hasReferences = s.counts.map { $0.reference > 0 } ?? true
            r += hasReferences ? [num(s.errorRate), num(s.deletionRate), num(s.insertionRate)] : ["-", "-", "-"]
            if withAccuracy { r += [pct(s.sensitivity), pct(s.specificity)] }
            return r
        }
        for label in results.labels {
            if let s = results.classWise[label] { rows.append(row(label, s)) }
        }
        rows.append(row("overall (micro)", results.overall))
        rows.append(row("average (macro)", results.classWiseAverage))

        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        let meaning = results.evaluatedLengthMeaning.isEmpty ? "" : " (\(results.evaluatedLengthMeaning))"
        var out = "\(results.settings); \(results.evaluatedFiles) files, \(num(results.evaluatedLength)) s evaluated\(meaning)\n"
        for (i, r) in rows.enumerated() {
            let cells = r.enumerated().map { c, text in
                let padding = String(repeating: " ", count: widths[c] - text.count)
                return c == 0 ? text + padding : padding + text
            }
            out += cells.joined(separator: "  ") + "\n"
            if i == 0 || i == rows.count - 3 {
                out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
            }
        }
        return out
    }

    private static func pct(_ v: Double?) -> String {
        guard let v else { return "-" }
        return fixed(v * 100, 1)
    }

    private static func num(_ v: Double?) -> String {
        guard let v else { return "-" }
        return fixed(v, 2)
    }

    /// Fixed-point formatting without Foundation.
    private static func fixed(_ v: Double, _ digits: Int) -> String {
        if v.isNaN { return "nan" }
        if v.isInfinite { return v > 0 ? "inf" : "-inf" }
        if abs(v) >= 1e12 { return "\(v)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((abs(v) * scale).rounded())
        let s = String(n)
        let padded = String(repeating: "0", count: max(0, digits + 1 - s.count)) + s
        let cut = padded.index(padded.endIndex, offsetBy: -digits)
        let sign = v < 0 && n != 0 ? "-" : ""
        return sign + padded[..<cut] + (digits > 0 ? "." + padded[cut...] : "")
    }
}
