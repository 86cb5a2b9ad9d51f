/// Grouped K-fold assignment: items sharing a source group (directly or through a chain of shared
/// groups) form one component, and every component goes whole to one fold. Deterministic in the seed.
package enum GroupedFolds {
    /// The component of every item: items connected by a shared key of `keys` (item -> its source
    /// groups) are one component, named by its smallest item. An item without keys is its own component.
    package static func components(keys: [String: [String]]) -> [String: String] {
        var parent: [String: String] = [:]
        for item in keys.keys { parent[item] = item }
        func find(_ x: String) -> String {
            var x = x
            while let p = parent[x], p != x {
                parent[x] = parent[p]
                x = p
            }
            return x
        }
        var byKey: [String: [String]] = [:]
        for (item, ks) in keys { for k in Set(ks) { byKey[k, default: []].append(item) } }
        for key in byKey.keys.sorted() {
            let members = byKey[key]!.sorted()
            for m in members.dropFirst() {
                let a = find(members[0]), b = find(m)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var smallest: [String: String] = [:]
        for item in keys.keys.sorted() {
            let root = find(item)
            if smallest[root] == nil { smallest[root] = item }
        }
        return Dictionary(uniqueKeysWithValues: keys.keys.map { ($0, smallest[find($0)]!) })
    }

    /// Assigns every component to one of `folds` folds. `amounts` gives each component's amount per
    /// category (events of a label, clips of a label, seconds of negatives). Components are visited
    /// largest first (by the largest share of a category total they hold), equal ones in the order of
    /// FNV-1a-64("vigil-cv-folds-v1" + seed + component name), and each goes to the fold whose largest
    /// share of a category it holds (taken / total, after adding it) is smallest, ties to the fold with
    /// fewer components, then the lower index: every fold gets about 1/K of every category, as far as the
    /// components allow.
    package static func assign(amounts: [String: [String: Double]], folds: Int, seed: UInt64) -> [String: Int] {
        precondition(folds >= 2, "at least two folds")
        var total: [String: Double] = [:]
        for name in amounts.keys.sorted() { for (k, v) in amounts[name]!.sorted(by: { $0.key < $1.key }) { total[k, default: 0] += v } }
        func largestShare(_ name: String) -> Double {
            var share = 0.0
            for (k, v) in amounts[name]! where total[k]! > 0 { share = max(share, v / total[k]!) }
            return share
        }
        var keyed: [(share: Double, hash: UInt64, name: String)] = []
        for name in amounts.keys.sorted() { keyed.append((largestShare(name), FNV1a64.hash("vigil-cv-folds-v1\(seed)" + name), name)) }
        keyed.sort { a, b in
            if a.share != b.share { return a.share > b.share }
            return a.hash != b.hash ? a.hash < b.hash : a.name < b.name
        }
        let order = keyed.map(\.name)
        var taken = [[String: Double]](repeating: [:], count: folds)
        var members = [Int](repeating: 0, count: folds)
        var out: [String: Int] = [:]
        for name in order {
            let a = amounts[name]!
            var best = 0
            var bestCost = Double.infinity
            for f in 0..<folds {
                var cost = 0.0
                for (k, v) in a where total[k]! > 0 { cost = max(cost, (taken[f][k, default: 0] + v) / total[k]!) }
                if cost < bestCost - 1e-12 || (abs(cost - bestCost) <= 1e-12 && members[f] < members[best]) {
                    best = f
                    bestCost = cost
                }
            }
            out[name] = best
            members[best] += 1
            for (k, v) in a { taken[best][k, default: 0] += v }
        }
        return out
    }

    /// How many ids apart two Freesound uploads may lie and still be one group
    /// (``joiningAdjacentFreesoundUploads(_:adjacency:)``).
    package static let freesoundBatchAdjacency = 2

    /// `keys` with one more key for every Freesound group (`us8k:ID`) that joins it with the Freesound groups
    /// whose ids lie at most `adjacency` apart, directly or through a chain. Freesound numbers uploads in
    /// order, so one user's batch gets consecutive ids: the same dog, street or microphone under several ids
    /// (the development set's pairs of bark recordings inside its batches of consecutive ids are among the most
    /// alike of all its pairs; docs/sound-models.md, "Cross-validation"). Each id its own group let such a batch
    /// straddle folds.
    package static func joiningAdjacentFreesoundUploads(
        _ keys: [String: [String]], adjacency: Int = freesoundBatchAdjacency
    ) -> [String: [String]] {
        func id(_ key: String) -> Int? { key.hasPrefix("us8k:") ? Int(key.dropFirst(5)) : nil }
        let ids = Set(keys.values.flatMap { $0.compactMap(id) }).sorted()
        var run: [Int: Int] = [:]
        var first = ids.first ?? 0
        for (i, v) in ids.enumerated() {
            if i > 0 && v - ids[i - 1] > adjacency { first = v }
            run[v] = first
        }
        return keys.mapValues { ks in ks + ks.compactMap(id).map { "freesound-run:\(run[$0]!)" } }
    }
}
