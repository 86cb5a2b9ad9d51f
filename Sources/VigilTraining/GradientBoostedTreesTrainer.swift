import VigilCore
import VigilInference

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Settings of ``GradientBoostedTreesTrainer``.
package struct TreeTrainingOptions: Sendable, Hashable {
    /// Trees (boosting rounds).
    package var iterations = 200
    /// Factor applied to every leaf's Newton step.
    package var learningRate: Float = 0.1
    /// Leaves per tree (grown best-first).
    package var maxLeaves = 16
    /// Deepest leaf (root = depth 0): bounds the work of one evaluation (``GradientBoostedTrees``
    /// walks eight trees in lock step for as many steps as the deepest of them).
    package var maxDepth = 6
    /// Fewest training examples in a leaf.
    package var minSamplesPerLeaf = 20
    /// L2 regularisation of the leaf values (added to the hessian sum).
    package var l2: Double = 1
    /// Bins per input (at most 256): inputs are cut at quantiles of the training values.
    package var maxBins = 255
    /// Largest weight given to the positive class to balance it (pos weight = min(this, neg/pos)).
    package var maxPositiveWeight: Float = 1
    /// Share of the training examples each tree is fitted to, drawn anew per tree (stochastic
    /// gradient boosting; the others get no gradient in that round). 1: every example.
    package var rowSubsample: Double = 1
    /// Share of the inputs each tree may split on, drawn anew per tree. 1: every input.
    package var inputSubsample: Double = 1
    /// Seed of the draws of ``rowSubsample`` and ``inputSubsample``.
    package var subsampleSeed: UInt64 = 20_251_122
    /// Creates default options.
    package init() {}
}

/// Deterministic training of ``GradientBoostedTrees`` for a binary target (logistic loss), the
/// histogram method of LightGBM and scikit-learn's `HistGradientBoostingClassifier`: every input
/// is cut into at most ``TreeTrainingOptions/maxBins`` bins at quantiles of its training values;
/// each round fits one tree to the loss's gradients and hessians, grown best-first (the leaf
/// whose best split gains most is split next) up to ``TreeTrainingOptions/maxLeaves`` leaves,
/// with a child's histogram obtained from its parent's minus its sibling's. Sums are taken in a
/// fixed order in Double: the same data give the same trees bit for bit.
package enum GradientBoostedTreesTrainer {
    /// Trains on `features` (row-major, `targets.count x dimension`) with 0/1 `targets` and
    /// optional per-example `weights` (a weight of 0 excludes an example); `ignoredInputs` are
    /// never split on.
    package static func train(
        features: [Float], dimension: Int, targets: [Float], weights: [Float]? = nil, ignoredInputs: [Int] = [],
        options: TreeTrainingOptions = TreeTrainingOptions()
    ) -> GradientBoostedTrees {
        precondition(features.count == targets.count * dimension, "feature matrix size")
        precondition(options.maxBins >= 2 && options.maxBins <= 256, "maxBins must be 2...256")
        let rows = (0..<targets.count).filter { (weights?[$0] ?? 1) > 0 }
        let m = rows.count
        let ignored = Set(ignoredInputs)
        let used = (0..<dimension).filter { !ignored.contains($0) }
        guard m > 0, !used.isEmpty else { return GradientBoostedTrees(inputs: dimension, baseLogit: 0, roots: [], nodes: []) }

        // Example weights with the positive class balanced.
        var positives = 0.0
        var negatives = 0.0
        for r in rows {
            if targets[r] > 0.5 { positives += Double(weights?[r] ?? 1) } else { negatives += Double(weights?[r] ?? 1) }
        }
        let positiveWeight = positives > 0 ? min(Double(options.maxPositiveWeight), max(1, negatives / positives)) : 1
        var y = [Double](repeating: 0, count: m)
        var w = [Double](repeating: 0, count: m)
        for (i, r) in rows.enumerated() {
            y[i] = targets[r] > 0.5 ? 1 : 0
            w[i] = Double(weights?[r] ?? 1) * (y[i] > 0 ? positiveWeight : 1)
        }

        // Bins: cut points at quantiles, column-major bin indices.
        let binCount = options.maxBins
        var cuts = [[Float]](repeating: [], count: dimension)
        var bins = [UInt8](repeating: 0, count: used.count * m)
        var column = [Float](repeating: 0, count: m)
        for (k, j) in used.enumerated() {
            for i in 0..<m { column[i] = features[rows[i] * dimension + j] }
            let c = cutPoints(column, maxBins: binCount)
            cuts[j] = c
            c.withUnsafeBufferPointer { cp in
                for i in 0..<m { bins[k * m + i] = UInt8(lowerBound(cp, column[i])) }
            }
        }

        // Prior.
        var sumPositive = 0.0
        var sumAll = 0.0
        for i in 0..<m {
            sumPositive += w[i] * y[i]
            sumAll += w[i]
        }
        let prior = min(max(sumPositive / max(sumAll, 1e-300), 1e-6), 1 - 1e-6)
        let baseLogit = Float(log(prior / (1 - prior)))
        var raw = [Double](repeating: Double(baseLogit), count: m)
        var gradient = [Double](repeating: 0, count: m)
        var hessian = [Double](repeating: 0, count: m)
        var roots: [Int32] = []
        var nodes: [GradientBoostedTrees.Node] = []
        var grower = TreeGrower(
            used: used, cuts: cuts, bins: bins, rowCount: m, binCount: binCount, options: options)
        var random = SplitMix64(seed: options.subsampleSeed)
        let rowThreshold = UInt64(min(1, max(0, options.rowSubsample)) * Double(UInt64.max >> 11)) << 11
        let inputsPerTree = max(1, Int((options.inputSubsample * Double(used.count)).rounded()))
        var inputOrder = Array(0..<used.count)
        for _ in 0..<options.iterations {
            for i in 0..<m {
                let p = 1 / (1 + exp(-raw[i]))
                gradient[i] = w[i] * (p - y[i])
                hessian[i] = max(w[i] * p * (1 - p), 1e-16)
            }
            if options.rowSubsample < 1 {
                for i in 0..<m where random.next() >= rowThreshold {
                    gradient[i] = 0
                    hessian[i] = 1e-16
                }
            }
            if inputsPerTree < used.count {
                // A partial Fisher-Yates shuffle picks the tree's inputs.
                for i in 0..<inputsPerTree {
                    inputOrder.swapAt(i, i + Int(random.next() % UInt64(used.count - i)))
                }
                for k in 0..<used.count { grower.allowed[k] = false }
                for i in 0..<inputsPerTree { grower.allowed[inputOrder[i]] = true }
            }
            let tree = grower.grow(gradient: gradient, hessian: hessian)
            guard tree.nodes.count > 1 else { break }  // no split gains anything any more
            let offset = Int32(nodes.count)
            roots.append(offset)
            for n in tree.nodes {
                nodes.append(.init(feature: n.feature, left: n.feature >= 0 ? n.left + offset : 0, value: n.value))
            }
            for (range, value) in tree.leafRows {
                for i in range { raw[Int(grower.order[i])] += Double(value) }
            }
        }
        return GradientBoostedTrees(inputs: dimension, baseLogit: baseLogit, roots: roots, nodes: nodes)
    }

    /// At most `maxBins - 1` increasing cut points: midpoints between consecutive distinct values
    /// when there are few, otherwise after the values at evenly spaced quantiles.
    static func cutPoints(_ values: [Float], maxBins: Int) -> [Float] {
        let sorted = values.sorted()
        var distinct: [Float] = []
        for v in sorted where distinct.last != v { distinct.append(v) }
        guard distinct.count > 1 else { return [] }
        func midpoint(_ a: Float, _ b: Float) -> Float {
            let c = a + (b - a) / 2
            return c < b ? c : a
        }
        var out: [Float] = []
        if distinct.count <= maxBins {
            for i in 0..<(distinct.count - 1) {
                let c = midpoint(distinct[i], distinct[i + 1])
                if out.last.map({ $0 < c }) ?? true { out.append(c) }
            }
            return out
        }
        for q in 1..<maxBins {
            let v = sorted[q * sorted.count / maxBins]
            let next = distinct.withUnsafeBufferPointer { upperBound($0, v) }
            guard next < distinct.count else { break }
            let c = midpoint(v, distinct[next])
            if out.last.map({ $0 < c }) ?? true { out.append(c) }
        }
        return out
    }

    /// Index of the first element of `a` (sorted) not less than `x`: the bin of `x`.
    @inline(__always)
    static func lowerBound(_ a: UnsafeBufferPointer<Float>, _ x: Float) -> Int {
        var lo = 0
        var hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Index of the first element of `a` (sorted) greater than `x`.
    static func upperBound(_ a: UnsafeBufferPointer<Float>, _ x: Float) -> Int {
        var lo = 0
        var hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// One tree at a time, best-first, on binned inputs (state reused between trees).
struct TreeGrower {
    struct Split {
        var gain = 0.0
        var input = -1  // index into `used`
        var bin = 0
        var leftCount = 0
    }

    struct Leaf {
        var node: Int
        var start: Int
        var count: Int
        var gradient: Double
        var hessian: Double
        var histogram: Int  // slot in the pool
        var depth: Int
        var split: Split
    }

    let used: [Int]
    let cuts: [[Float]]
    let bins: [UInt8]
    let rowCount: Int
    let binCount: Int
    let options: TreeTrainingOptions
    /// Row order: each leaf owns a contiguous range.
    var order: [Int32]
    /// Per used input: whether the next tree may split on it.
    var allowed: [Bool]
    private var scratch: [Int32]
    private var gathered: [Double]
    /// Histogram pool: per slot, per used input, per bin: gradient sum, hessian sum (interleaved).
    private var sums: [Double]
    private var counts: [Int32]
    private var freeSlots: [Int] = []
    private let slotSize: Int

    init(used: [Int], cuts: [[Float]], bins: [UInt8], rowCount: Int, binCount: Int, options: TreeTrainingOptions) {
        self.used = used
        self.cuts = cuts
        self.bins = bins
        self.rowCount = rowCount
        self.binCount = binCount
        self.options = options
        order = (0..<rowCount).map { Int32($0) }
        allowed = [Bool](repeating: true, count: used.count)
        scratch = order
        gathered = [Double](repeating: 0, count: 2 * rowCount)
        slotSize = used.count * binCount
        let slots = options.maxLeaves + 1
        sums = [Double](repeating: 0, count: slots * slotSize * 2)
        counts = [Int32](repeating: 0, count: slots * slotSize)
    }

    /// Grows one tree; returns its nodes (leaf values scaled by the learning rate) and each leaf's
    /// rows (a range of ``order``) with its value.
    mutating func grow(gradient: [Double], hessian: [Double]) -> (
        nodes: [GradientBoostedTrees.Node], leafRows: [(Range<Int>, Float)]
    ) {
        for i in 0..<rowCount { order[i] = Int32(i) }
        freeSlots = Array((0...options.maxLeaves).reversed())
        var g = 0.0
        var h = 0.0
        for i in 0..<rowCount {
            g += gradient[i]
            h += hessian[i]
        }
        var nodes: [GradientBoostedTrees.Node] = [.init(feature: -1, left: 0, value: 0)]
        let rootSlot = freeSlots.removeLast()
        buildHistogram(slot: rootSlot, start: 0, count: rowCount, gradient: gradient, hessian: hessian)
        var leaves = [
            Leaf(node: 0, start: 0, count: rowCount, gradient: g, hessian: h, histogram: rootSlot, depth: 0, split: Split())
        ]
        leaves[0].split = bestSplit(leaves[0])
        while leaves.count < options.maxLeaves {
            // The leaf whose split gains most (ties: the earliest node).
            var pick = -1
            for (i, leaf) in leaves.enumerated() where leaf.split.input >= 0 && leaf.split.gain > 1e-12 {
                if pick < 0 || leaf.split.gain > leaves[pick].split.gain { pick = i }
            }
            guard pick >= 0 else { break }
            let parent = leaves[pick]
            let split = parent.split
            let k = split.input
            // Stable partition of the parent's rows: bin <= split.bin to the left.
            var l = parent.start
            var r = 0
            bins.withUnsafeBufferPointer { b in
                let column = b.baseAddress! + k * rowCount
                for i in parent.start..<(parent.start + parent.count) {
                    let row = order[i]
                    if Int(column[Int(row)]) <= split.bin {
                        order[l] = row
                        l += 1
                    } else {
                        scratch[r] = row
                        r += 1
                    }
                }
            }
            for i in 0..<r { order[l + i] = scratch[i] }
            let leftCount = l - parent.start
            precondition(leftCount == split.leftCount, "partition disagrees with the histogram")
            // Children: the smaller one's histogram directly, the other by subtraction.
            let leftStart = parent.start
            let rightStart = parent.start + leftCount
            let rightCount = parent.count - leftCount
            let smallSlot = freeSlots.removeLast()
            let leftIsSmall = leftCount <= rightCount
            buildHistogram(
                slot: smallSlot, start: leftIsSmall ? leftStart : rightStart, count: leftIsSmall ? leftCount : rightCount,
                gradient: gradient, hessian: hessian)
            subtract(from: parent.histogram, small: smallSlot)  // the parent's slot now holds the larger child
            let leftSlot = leftIsSmall ? smallSlot : parent.histogram
            let rightSlot = leftIsSmall ? parent.histogram : smallSlot
            var lg = 0.0
            var lh = 0.0
            sums.withUnsafeBufferPointer { s in
                // Sums of the left child from input k's histogram bins 0...split.bin of its slot.
                let base = (leftSlot * slotSize + k * binCount) * 2
                for b in 0..<binCount {
                    lg += s[base + 2 * b]
                    lh += s[base + 2 * b + 1]
                }
            }
            let leftNode = nodes.count
            nodes[parent.node] = .init(feature: Int32(used[k]), left: Int32(leftNode), value: cuts[used[k]][split.bin])
            nodes.append(.init(feature: -1, left: 0, value: 0))
            nodes.append(.init(feature: -1, left: 0, value: 0))
            var left = Leaf(
                node: leftNode, start: leftStart, count: leftCount, gradient: lg, hessian: lh, histogram: leftSlot, depth: parent.depth + 1,
                split: Split())
            var right = Leaf(
                node: leftNode + 1, start: rightStart, count: rightCount, gradient: parent.gradient - lg,
                hessian: parent.hessian - lh, histogram: rightSlot, depth: parent.depth + 1, split: Split())
            left.split = bestSplit(left)
            right.split = bestSplit(right)
            leaves[pick] = left
            leaves.insert(right, at: pick + 1)
        }
        var leafRows: [(Range<Int>, Float)] = []
        for leaf in leaves {
            let value = Float(-leaf.gradient / (leaf.hessian + options.l2)) * options.learningRate
            nodes[leaf.node].value = value
            leafRows.append((leaf.start..<(leaf.start + leaf.count), value))
        }
        return (nodes, leafRows)
    }

    private mutating func buildHistogram(slot: Int, start: Int, count: Int, gradient: [Double], hessian: [Double]) {
        let rowCount = self.rowCount
        let binCount = self.binCount
        let slotSize = self.slotSize
        let inputs = used.count
        gathered.withUnsafeMutableBufferPointer { gh in
            order.withUnsafeBufferPointer { o in
                gradient.withUnsafeBufferPointer { gr in
                    hessian.withUnsafeBufferPointer { he in
                        for i in 0..<count {
                            let row = Int(o[start + i])
                            gh[2 * i] = gr[row]
                            gh[2 * i + 1] = he[row]
                        }
                    }
                }
            }
        }
        sums.withUnsafeMutableBufferPointer { s in
            counts.withUnsafeMutableBufferPointer { c in
                bins.withUnsafeBufferPointer { b in
                    order.withUnsafeBufferPointer { o in
                        gathered.withUnsafeBufferPointer { gh in
                            let sBase = s.baseAddress! + slot * slotSize * 2
                            let cBase = c.baseAddress! + slot * slotSize
                            sBase.update(repeating: 0, count: slotSize * 2)
                            cBase.update(repeating: 0, count: slotSize)
                            for k in 0..<inputs {
                                let column = b.baseAddress! + k * rowCount
                                let hs = sBase + k * binCount * 2
                                let hc = cBase + k * binCount
                                for i in 0..<count {
                                    let bin = Int(column[Int(o[start + i])])
                                    hs[2 * bin] += gh[2 * i]
                                    hs[2 * bin + 1] += gh[2 * i + 1]
                                    hc[bin] += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `parent` slot -= `small` slot (the larger child's histogram).
    private mutating func subtract(from parent: Int, small: Int) {
        let n = slotSize
        sums.withUnsafeMutableBufferPointer { s in
            let p = s.baseAddress! + parent * n * 2
            let q = s.baseAddress! + small * n * 2
            for i in 0..<(2 * n) { p[i] -= q[i] }
        }
        counts.withUnsafeMutableBufferPointer { c in
            let p = c.baseAddress! + parent * n
            let q = c.baseAddress! + small * n
            for i in 0..<n { p[i] -= q[i] }
        }
    }

    /// The best split of `leaf` over every used input (none when no split keeps
    /// ``TreeTrainingOptions/minSamplesPerLeaf`` examples and a positive hessian on both sides).
    private func bestSplit(_ leaf: Leaf) -> Split {
        var best = Split()
        let minCount = max(1, options.minSamplesPerLeaf)
        guard leaf.count >= 2 * minCount, leaf.depth < options.maxDepth else { return best }
        let l2 = options.l2
        let parentScore = leaf.gradient * leaf.gradient / (leaf.hessian + l2)
        sums.withUnsafeBufferPointer { s in
            counts.withUnsafeBufferPointer { c in
                for k in 0..<used.count where allowed[k] {
                    let cutCount = cuts[used[k]].count
                    guard cutCount > 0 else { continue }
                    let hs = s.baseAddress! + (leaf.histogram * slotSize + k * binCount) * 2
                    let hc = c.baseAddress! + leaf.histogram * slotSize + k * binCount
                    var lg = 0.0
                    var lh = 0.0
                    var ln = 0
                    for bin in 0..<cutCount {
                        lg += hs[2 * bin]
                        lh += hs[2 * bin + 1]
                        ln += Int(hc[bin])
                        if ln < minCount { continue }
                        let rn = leaf.count - ln
                        if rn < minCount { break }
                        let rg = leaf.gradient - lg
                        let rh = leaf.hessian - lh
                        guard lh > 1e-3, rh > 1e-3 else { continue }
                        let gain = lg * lg / (lh + l2) + rg * rg / (rh + l2) - parentScore
                        if gain > best.gain {
                            best = Split(gain: gain, input: k, bin: bin, leftCount: ln)
                        }
                    }
                }
            }
        }
        return best
    }
}
