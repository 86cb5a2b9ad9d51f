/// Maximum-cardinality bipartite matching, a line-by-line port of `sed_eval.util.bipartite_match`
/// (Hopcroft–Karp after mir_eval / D. Eppstein).
///
/// Which maximum matching is found decides which events are left over for substitution counting, so the
/// port keeps Python's dictionary iteration orders (insertion order) exactly.
enum BipartiteMatcher {
    /// - Parameters:
    ///   - keys: left vertices (estimated-event indices) in the graph's insertion order.
    ///   - graph: left vertex → right vertices (reference indices), in insertion order.
    /// - Returns: right vertex → matched left vertex.
    static func match(keys: [Int], graph: [Int: [Int]]) -> [Int: Int] {
        var matching: [Int: Int] = [:]
        for u in keys {
            for v in graph[u, default: []] where matching[v] == nil {
                matching[v] = u
                break
            }
        }

        enum Pred {
            case unmatchedSentinel
            case vertex(Int)
        }

        while true {
            var preds: [Int: [Int]] = [:]
            var unmatched: [Int] = []
            var pred: [Int: Pred] = [:]
            for u in keys { pred[u] = .unmatchedSentinel }
            for (_, u) in matching { pred[u] = nil }
            var layer: [Int] = keys.filter { pred[$0] != nil }

            while !layer.isEmpty && unmatched.isEmpty {
                var newLayerKeys: [Int] = []
                var newLayer: [Int: [Int]] = [:]
                for u in layer {
                    for v in graph[u, default: []] where preds[v] == nil {
                        if newLayer[v] == nil { newLayerKeys.append(v) }
                        newLayer[v, default: []].append(u)
                    }
                }
                layer = []
                for v in newLayerKeys {
                    preds[v] = newLayer[v]
                    if let u = matching[v] {
                        layer.append(u)
                        pred[u] = .vertex(v)
                    } else {
                        unmatched.append(v)
                    }
                }
            }

            if unmatched.isEmpty { return matching }

            func recurse(_ v: Int) -> Bool {
                guard let list = preds[v] else { return false }
                preds[v] = nil
                for u in list {
                    guard let pu = pred[u] else { continue }
                    pred[u] = nil
                    let found: Bool
                    switch pu {
                    case .unmatchedSentinel: found = true
                    case .vertex(let w): found = recurse(w)
                    }
                    if found {
                        matching[v] = u
                        return true
                    }
                }
                return false
            }
            for v in unmatched { _ = recurse(v) }
        }
    }
}
