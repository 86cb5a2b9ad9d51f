import Testing
import VigilCore
import VigilInference
import VigilTraining

/// Gradient-boosted trees: training on small synthetic problems, edge cases of the data, the
/// lock-step evaluation against a plain walk, and validation of hand-made trees.
@Suite("Gradient-boosted trees")
struct GradientBoostedTreesTests {
    /// `count` rows of `dimension` inputs drawn from a seeded generator, and 0/1 targets from `rule`.
    static func data(count: Int, dimension: Int, seed: UInt64, rule: ([Float]) -> Bool) -> (x: [Float], y: [Float]) {
        var rng = SplitMix64(seed: seed)
        var x: [Float] = []
        var y: [Float] = []
        for _ in 0..<count {
            let row = (0..<dimension).map { _ in Float(rng.nextUnit() * 2 - 1) }
            x += row
            y.append(rule(row) ? 1 : 0)
        }
        return (x, y)
    }

    static func accuracy(_ trees: GradientBoostedTrees, _ x: [Float], _ y: [Float], dimension: Int) -> Double {
        var right = 0
        x.withUnsafeBufferPointer { xp in
            for i in 0..<y.count {
                let logit = trees.logit(UnsafeBufferPointer(rebasing: xp[(i * dimension)..<((i + 1) * dimension)]))
                if (logit > 0) == (y[i] > 0.5) { right += 1 }
            }
        }
        return Double(right) / Double(y.count)
    }

    @Test("learns an interaction no single split separates (XOR of two inputs), ignores noise inputs")
    func learnsXor() {
        let rule: ([Float]) -> Bool = { ($0[0] > 0) != ($0[1] > 0) }
        let train = Self.data(count: 4000, dimension: 5, seed: 1, rule: rule)
        let test = Self.data(count: 2000, dimension: 5, seed: 2, rule: rule)
        let trees = GradientBoostedTreesTrainer.train(features: train.x, dimension: 5, targets: train.y)
        #expect(trees.validationProblem == nil)
        #expect(Self.accuracy(trees, test.x, test.y, dimension: 5) > 0.95)
        // Most splits fall on the two informative inputs (3 of the 5 inputs are noise: 0.4 by chance).
        let used = trees.nodes.filter { $0.feature >= 0 }.map(\.feature)
        let informativeShare = Double(used.filter { $0 < 2 }.count) / Double(used.count)
        #expect(informativeShare > 0.6, "\(used.count) splits")
    }

    @Test("ignored inputs are never split on; weight-0 rows are left out")
    func ignoredInputsAndWeights() {
        let rule: ([Float]) -> Bool = { $0[0] > 0.2 }
        let train = Self.data(count: 2000, dimension: 3, seed: 3, rule: rule)
        let trees = GradientBoostedTreesTrainer.train(features: train.x, dimension: 3, targets: train.y, ignoredInputs: [0])
        #expect(trees.nodes.allSatisfy { $0.feature != 0 })
        // With every positive row weighted 0 the trees learn a constant "negative".
        let weights = train.y.map { $0 > 0.5 ? Float(0) : 1 }
        let flat = GradientBoostedTreesTrainer.train(features: train.x, dimension: 3, targets: train.y, weights: weights)
        #expect(flat.treeCount == 0 && flat.baseLogit < -5)
    }

    @Test("the same data give the same trees bit for bit")
    func deterministic() {
        let rule: ([Float]) -> Bool = { $0[0] * $0[1] > 0.1 }
        let train = Self.data(count: 1500, dimension: 4, seed: 4, rule: rule)
        var options = TreeTrainingOptions()
        options.iterations = 40
        let a = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        let b = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        #expect(a == b && a.nodes.map(\.value.bitPattern) == b.nodes.map(\.value.bitPattern))
    }

    @Test("input subsampling: each tree splits on its own draw of inputs; row subsampling still learns; both are seeded")
    func subsampling() {
        let rule: ([Float]) -> Bool = { $0[0] + 0.5 * $0[1] > 0.1 }
        let train = Self.data(count: 3000, dimension: 4, seed: 6, rule: rule)
        let test = Self.data(count: 2000, dimension: 4, seed: 7, rule: rule)
        var options = TreeTrainingOptions()
        options.iterations = 60
        // One input of four per tree: every split of a tree is on that tree's one input, and over
        // the trees every input gets drawn (the noise inputs too).
        options.inputSubsample = 0.25
        let narrow = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        var drawn = Set<Int32>()
        for (t, root) in narrow.roots.enumerated() {
            let end = t + 1 < narrow.roots.count ? Int(narrow.roots[t + 1]) : narrow.nodes.count
            let inputs = Set(narrow.nodes[Int(root)..<end].filter { $0.feature >= 0 }.map(\.feature))
            #expect(inputs.count <= 1, "tree \(t) splits on \(inputs.sorted())")
            drawn.formUnion(inputs)
        }
        #expect(drawn == [0, 1, 2, 3])
        #expect(Self.accuracy(narrow, test.x, test.y, dimension: 4) > 0.9)
        // Each tree fitted to 60 % of the rows: still learns the rule, differs from the full fit,
        // and the same seed gives the same trees while another seed does not.
        options.inputSubsample = 1
        options.rowSubsample = 0.6
        let bagged = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        let again = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        options.subsampleSeed += 1
        let reseeded = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        options.rowSubsample = 1
        let full = GradientBoostedTreesTrainer.train(features: train.x, dimension: 4, targets: train.y, options: options)
        #expect(Self.accuracy(bagged, test.x, test.y, dimension: 4) > 0.95)
        #expect(bagged == again && bagged.nodes.map(\.value.bitPattern) == again.nodes.map(\.value.bitPattern))
        #expect(bagged != reseeded && bagged != full)
    }

    @Test("leaf size, leaf count and depth limits hold in every tree")
    func limits() {
        let rule: ([Float]) -> Bool = { 3 * $0[0] * $0[0] - 1 + $0[1] * $0[2] > 0 }
        let train = Self.data(count: 3000, dimension: 3, seed: 5, rule: rule)
        var options = TreeTrainingOptions()
        options.iterations = 30
        options.maxLeaves = 6
        options.maxDepth = 3
        options.minSamplesPerLeaf = 100
        let trees = GradientBoostedTreesTrainer.train(features: train.x, dimension: 3, targets: train.y, options: options)
        func depth(_ i: Int) -> Int {
            let n = trees.nodes[i]
            return n.feature < 0 ? 0 : 1 + max(depth(Int(n.left)), depth(Int(n.left) + 1))
        }
        func leaves(_ i: Int) -> Int {
            let n = trees.nodes[i]
            return n.feature < 0 ? 1 : leaves(Int(n.left)) + leaves(Int(n.left) + 1)
        }
        #expect(trees.treeCount == 30)
        for r in trees.roots {
            #expect(depth(Int(r)) <= 3 && leaves(Int(r)) <= 6)
        }
        // Every leaf holds at least 100 training rows: count the rows reaching each leaf of the first tree.
        var reach = [Int](repeating: 0, count: trees.nodes.count)
        for i in 0..<train.y.count {
            var n = Int(trees.roots[0])
            while trees.nodes[n].feature >= 0 {
                let node = trees.nodes[n]
                n = Int(node.left) + (train.x[i * 3 + Int(node.feature)] <= node.value ? 0 : 1)
            }
            reach[n] += 1
        }
        for (i, node) in trees.nodes.enumerated() where node.feature < 0 && i < Int(trees.roots[1]) {
            #expect(reach[i] >= 100, "leaf \(i) holds \(reach[i]) rows")
        }
    }

    @Test("edge cases: no rows, one row, two rows, one class only, constant inputs", arguments: [0, 1, 2, 50])
    func edgeCases(count: Int) {
        // Constant inputs: nothing to split on.
        let x = [Float](repeating: 0.5, count: count * 2)
        let y = (0..<count).map { Float($0 % 2) }
        let trees = GradientBoostedTreesTrainer.train(features: x, dimension: 2, targets: y)
        #expect(trees.validationProblem == nil)
        #expect(trees.nodes.allSatisfy { $0.feature < 0 })
        let logit = x.isEmpty ? trees.baseLogit : x.withUnsafeBufferPointer { trees.logit(UnsafeBufferPointer(rebasing: $0[0..<2])) }
        #expect(logit.isFinite)
        // One class only: a finite prior, no split.
        let ones = [Float](repeating: 1, count: count)
        let varied = (0..<(count * 2)).map { Float($0) }
        let single = GradientBoostedTreesTrainer.train(features: varied, dimension: 2, targets: ones)
        #expect(single.baseLogit.isFinite && single.validationProblem == nil)
        if count > 0 { #expect(single.baseLogit > 5) }
    }

    @Test("cut points: none for 0 or 1 distinct values, midpoints for few, at most maxBins - 1 for many", arguments: [0, 1, 2, 3, 1000])
    func cutPoints(distinct: Int) {
        var options = TreeTrainingOptions()
        options.maxBins = 16
        options.iterations = 1
        options.minSamplesPerLeaf = 1
        options.maxLeaves = 64
        options.maxDepth = 20
        // One input with `distinct` values, target = value is odd: a tree can isolate each value
        // only with a cut between every pair, so the splits show the cut points.
        let rows = max(distinct, 1) * 4
        let x = (0..<rows).map { Float(distinct == 0 ? 0 : $0 % distinct) }
        let y = x.map { Float(Int($0) % 2) }
        let trees = GradientBoostedTreesTrainer.train(features: x, dimension: 1, targets: y, options: options)
        let thresholds = Set(trees.nodes.filter { $0.feature >= 0 }.map(\.value))
        if distinct <= 1 {
            #expect(thresholds.isEmpty)
        } else if distinct <= 16 {
            #expect(thresholds == Set((0..<(distinct - 1)).map { Float($0) + 0.5 }))
        } else {
            #expect(thresholds.count <= 15 && !thresholds.isEmpty)
        }
    }

    @Test("the lock-step walk of eight trees at a time equals a walk of one tree at a time", arguments: [1, 7, 8, 9, 40])
    func lockStepMatches(iterations: Int) {
        let rule: ([Float]) -> Bool = { $0[0] + $0[1] * $0[1] > 0.3 }
        let train = Self.data(count: 1000, dimension: 3, seed: 6, rule: rule)
        var options = TreeTrainingOptions()
        options.iterations = iterations
        let trees = GradientBoostedTreesTrainer.train(features: train.x, dimension: 3, targets: train.y, options: options)
        #expect(trees.treeCount == iterations)
        train.x.withUnsafeBufferPointer { xp in
            for i in 0..<200 {
                let row = UnsafeBufferPointer(rebasing: xp[(i * 3)..<(i * 3 + 3)])
                #expect(abs(trees.logit(row) - trees.logitTreeByTree(row)) <= 1e-5 * max(1, abs(trees.logit(row))))
            }
        }
    }

    @Test("hand-made trees: children out of range, cycles, unknown inputs and non-finite values are problems")
    func validation() {
        typealias Node = GradientBoostedTrees.Node
        let good = GradientBoostedTrees(
            inputs: 2, baseLogit: 0.5, roots: [0],
            nodes: [Node(feature: 1, left: 1, value: 0.25), Node(feature: -1, left: 0, value: -1), Node(feature: -1, left: 0, value: 2)])
        #expect(good.validationProblem == nil)
        for (x, expected) in [([Float](arrayLiteral: 9, 0.25), Float(-0.5)), ([9, 0.3], 2.5)] {
            #expect(x.withUnsafeBufferPointer { good.logit($0) } == expected)
        }
        var bad = good
        bad.nodes[0].left = 2  // right child would be node 3
        #expect(bad.validationProblem?.contains("children out of range") == true)
        bad = good
        bad.nodes[0].left = 0  // points at itself: a cycle
        #expect(bad.validationProblem != nil)
        bad = good
        bad.nodes[0].feature = 2
        #expect(bad.validationProblem?.contains("reads input 2") == true)
        bad = good
        bad.roots = [3]
        #expect(bad.validationProblem?.contains("root") == true)
        bad = good
        bad.nodes[2].value = .nan
        #expect(bad.validationProblem != nil)
        bad = good
        bad.baseLogit = .infinity
        #expect(bad.validationProblem != nil)
        let empty = GradientBoostedTrees(inputs: 0, baseLogit: -1, roots: [], nodes: [])
        #expect(empty.validationProblem == nil && [Float]().withUnsafeBufferPointer { empty.logit($0) } == -1)
    }
}
