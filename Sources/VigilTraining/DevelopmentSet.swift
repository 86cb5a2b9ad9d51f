import VigilScoring

/// Parsing of the development set's TSV files and its group-aware train/validation split.
/// Pure: takes the files' text, never reads files itself.
package enum DevelopmentSet {
    /// Events of a DCASE label file `filename<TAB>onset<TAB>offset<TAB>label` (header and
    /// malformed lines skipped).
    package static func parseLabels(_ text: String) -> [LabelEvent] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 4, let on = Double(f[1]), let off = Double(f[2]) else { return nil }
            return LabelEvent(file: String(f[0]), onset: on, offset: off, label: String(f[3]))
        }
    }

    /// `filename<TAB>duration` lines.
    package static func parseDurations(_ text: String) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: "\t")
            if f.count >= 2, let d = Double(f[1]) { out[String(f[0])] = d }
        }
        return out
    }

    /// One PROVENANCE.tsv row (the columns the split needs).
    package struct SourceRow: Sendable, Hashable {
        package var file: String
        package var role: String
        package var sourceClass: String
        package var localPath: String
        package var license: String
        package var repository: String
        /// Where the source clip was cut (seconds into the source), when the file says.
        package var sourceStart: Double? = nil
        /// Where the cut ended (seconds into the source), when the file says.
        package var sourceEnd: Double? = nil
        /// Where the clip was placed in the development file (seconds), when the file says.
        package var outputStart: Double? = nil
    }

    /// Rows of PROVENANCE.tsv (header skipped).
    package static func parseProvenance(_ text: String) -> [SourceRow] {
        var lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.first else { return [] }
        let names = header.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        func col(_ n: String) -> Int? { names.firstIndex(of: n) }
        guard let fi = col("filename"), let ri = col("role"), let ci = col("source_class"), let pi = col("local_path")
        else { return [] }
        let li = col("license")
        let repo = col("source_repo")
        let ss = col("src_start_s")
        let se = col("src_end_s")
        let os = col("out_start_s")
        lines.removeFirst()
        return lines.compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count > max(fi, ri, ci, pi) else { return nil }
            func field(_ i: Int?) -> String? { i.flatMap { $0 < f.count ? f[$0] : nil } }
            return SourceRow(
                file: f[fi], role: f[ri], sourceClass: f[ci], localPath: f[pi], license: field(li) ?? "",
                repository: field(repo) ?? "", sourceStart: field(ss).flatMap(Double.init),
                sourceEnd: field(se).flatMap(Double.init), outputStart: field(os).flatMap(Double.init))
        }
    }

    /// The source group of a source clip: the original recording it was cut from
    /// (UrbanSound8K: the Freesound id; crying babies: the speaker id; spoken digits: the
    /// speaker; LibriSpeech: the speaker; otherwise the file stem without trailing `_N` and
    /// `_NN-NNs` cut indices).
    package static func groupKey(localPath: String) -> String {
        let parts = localPath.split(separator: "/").map(String.init)
        guard let last = parts.last else { return localPath }
        let folder = parts.count >= 2 ? parts[parts.count - 2] : ""
        var stem = last
        if let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
        if stem.hasSuffix(".hq") { stem = String(stem.dropLast(3)) }
        if parts[0].hasPrefix("urbansound8k") { return "us8k:" + (stem.split(separator: "-").first.map(String.init) ?? stem) }
        if folder == "negative_crying_baby" { return "baby:" + String(stem.prefix(36)) }
        if folder == "talking_short_words" {
            let f = stem.split(separator: "_")
            return "digits:" + (f.count > 1 ? String(f[1]) : stem)
        }
        if folder == "talking_read_speech" { return "libri:" + (stem.split(separator: "-").first.map(String.init) ?? stem) }
        // Strip "_005-015s" style cut ranges, then trailing "_<digits>" indices.
        func strip(_ s: String) -> String? {
            guard let u = s.lastIndex(of: "_") else { return nil }
            let tail = s[s.index(after: u)...]
            if !tail.isEmpty && tail.allSatisfy(\.isNumber) { return String(s[..<u]) }
            if tail.hasSuffix("s"), tail.dropLast().split(separator: "-").count == 2,
                tail.dropLast().allSatisfy({ $0.isNumber || $0 == "-" })
            {
                return String(s[..<u])
            }
            return nil
        }
        while let s = strip(stem) { stem = s }
        return folder + ":" + stem
    }

    /// Roles whose source clips define the split's groups (foreground material). Background
    /// beds mixed under scenes are shared between splits.
    package static let groupingRoles: Set<String> = ["event", "negative_clip", "hard_negative", "background_speech"]

    /// The group-aware, stratified split. Files connected through a shared foreground source
    /// group form one component (components never straddle the split). Components are visited in
    /// the order of FNV-1a-64(salt + their first file name); a component goes to validation when
    /// that keeps every category (events of each label, seconds of event-free files) at or below
    /// `validationPercent` % of its total (+5 points slack), otherwise to training. Returns the
    /// validation file names. `vigil-dev diagnose` and the tests' development-set fixtures use it; a model
    /// that `vigil train` makes is split as a cross-validation fold's training part is (``TrainingRun``).
    package static func validationFiles(
        provenance: [SourceRow], files: [String], annotations: [LabelEvent] = [], durations: [String: Double] = [:],
        validationPercent: Int = 30, salt: String = "vigil-sounds-split-v1"
    ) -> Set<String> {
        var parent: [String: String] = [:]
        for f in files { parent[f] = f }
        for r in provenance where parent[r.file] == nil { parent[r.file] = r.file }
        func find(_ x: String) -> String {
            var x = x
            while let p = parent[x], p != x {
                parent[x] = parent[p]
                x = p
            }
            return x
        }
        var groups: [String: [String]] = [:]
        for r in provenance where groupingRoles.contains(r.role) { groups[groupKey(localPath: r.localPath), default: []].append(r.file) }
        for key in groups.keys.sorted() {
            let members = groups[key]!.sorted()
            let root = find(members[0])
            for m in members.dropFirst() {
                let other = find(m)
                if other != root { parent[other] = root }
            }
        }
        var components: [String: [String]] = [:]
        for f in parent.keys.sorted() { components[find(f), default: []].append(f) }
        // Category amounts per file.
        let annotated = Set(annotations.map(\.file))
        func amounts(_ file: String) -> [String: Double] {
            var a: [String: Double] = [:]
            for e in annotations where e.file == file { a[e.label, default: 0] += 1 }
            if !annotated.contains(file) { a["negativeSeconds"] = durations[file] ?? 1 }
            a["files"] = 1
            return a
        }
        var total: [String: Double] = [:]
        var perComponent: [(hash: UInt64, members: [String], amounts: [String: Double])] = []
        // Sorted iteration: the sums must not depend on the process's hash seed.
        for key in components.keys.sorted() {
            let members = components[key]!
            var a: [String: Double] = [:]
            for f in members.sorted() { for (k, v) in amounts(f) { a[k, default: 0] += v } }
            for (k, v) in a { total[k, default: 0] += v }
            perComponent.append((FNV1a64.hash(salt + members.min()!), members, a))
        }
        perComponent.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.members.min()! < $1.members.min()! }
        var taken: [String: Double] = [:]
        var validation = Set<String>()
        let limit = Double(validationPercent + 5) / 100
        for c in perComponent {
            let fits = c.amounts.allSatisfy { k, v in k == "files" || (taken[k, default: 0] + v) <= limit * total[k]! }
            if fits {
                validation.formUnion(c.members)
                for (k, v) in c.amounts { taken[k, default: 0] += v }
            }
        }
        return validation.intersection(files.isEmpty ? Set(parent.keys) : Set(files))
    }

    /// Source classes whose material has voices in it that are not annotated as personTalking.
    package static let voiceSourceClasses: Set<String> = [
        "negative_children_playing", "negative_background_room", "negative_street_music",
    ]

    /// Where the development files hold voice-background material (``voiceSourceClasses``): each
    /// such source clip's place in its file, from `out_start_s` and the cut's length
    /// (`src_end_s - src_start_s`); the whole file when PROVENANCE.tsv does not say.
    package static func voiceBackground(provenance: [SourceRow]) -> VoiceBackground {
        var regions: [String: [ClosedRange<Double>]] = [:]
        for r in provenance where voiceSourceClasses.contains(r.sourceClass) {
            if let start = r.outputStart, let a = r.sourceStart, let b = r.sourceEnd, b > a {
                regions[r.file, default: []].append(start...(start + b - a))
            } else {
                regions[r.file, default: []].append(0...Double.greatestFiniteMagnitude)
            }
        }
        return VoiceBackground(regions: regions)
    }
}
