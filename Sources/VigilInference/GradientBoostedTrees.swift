/// An ensemble of binary regression trees whose summed leaf values are a logit: the classifier
/// of the learned sound detectors (trained by ``GradientBoostedTreesTrainer``).
///
/// Every tree is stored in one flat node array: an inner node sends `x` to its left child
/// (`left`) when `x[feature] <= value`, otherwise to `left + 1`; a leaf (`feature < 0`) holds its
/// output in `value` (already scaled by the learning rate).
///
/// Evaluation walks eight trees at once, branch-free, in lock step for as many steps as the
/// deepest of the eight: in the inference form (built once at creation) a leaf compares against
/// +infinity and points at itself, so a walk that has reached its leaf stays there. The eight
/// independent chains of loads keep the processor busy where one walk would wait on each load
/// and mispredict each branch. No allocation.
public struct GradientBoostedTrees: Sendable, Hashable {
    /// One node of a tree.
    public struct Node: Sendable, Hashable {
        /// Input index compared at an inner node; -1 at a leaf.
        public var feature: Int32
        /// Index of the left child (the right child follows it); unused at a leaf.
        public var left: Int32
        /// The threshold at an inner node (`x <= value` goes left); the output at a leaf.
        public var value: Float

        /// Creates a node.
        public init(feature: Int32, left: Int32, value: Float) {
            self.feature = feature
            self.left = left
            self.value = value
        }
    }

    /// Input dimension.
    public let inputs: Int
    /// The logit before any tree (the training prior).
    public var baseLogit: Float
    /// Index of each tree's root in ``nodes``.
    public var roots: [Int32] { didSet { walk = Self.lockStepForm(inputs: inputs, roots: roots, nodes: nodes) } }
    /// All nodes of all trees.
    public var nodes: [Node] { didSet { walk = Self.lockStepForm(inputs: inputs, roots: roots, nodes: nodes) } }

    /// Creates an ensemble from its parts; `nodes` and `roots` must form valid trees over `inputs`
    /// (``validationProblem`` says what is wrong otherwise).
    public init(inputs: Int, baseLogit: Float, roots: [Int32], nodes: [Node]) {
        self.inputs = inputs
        self.baseLogit = baseLogit
        self.roots = roots
        self.nodes = nodes
        walk = Self.lockStepForm(inputs: inputs, roots: roots, nodes: nodes)
    }

    /// The inference form (not part of the model's identity); empty while the trees are invalid.
    private var walk: LockStepForm

    private static func lockStepForm(inputs: Int, roots: [Int32], nodes: [Node]) -> LockStepForm {
        problem(inputs: inputs, baseLogit: .zero, roots: roots, nodes: nodes) == nil
            ? LockStepForm(roots: roots, nodes: nodes) : LockStepForm(roots: [], nodes: [])
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.inputs == b.inputs && a.baseLogit == b.baseLogit && a.roots == b.roots && a.nodes == b.nodes
    }

    public func hash(into h: inout Hasher) {
        h.combine(inputs)
        h.combine(baseLogit)
        h.combine(roots)
        h.combine(nodes)
    }

    /// Why the trees cannot be evaluated safely (an input or child index out of range, a cycle),
    /// or nil when they can. Children must come after their parent, so every path ends.
    public var validationProblem: String? {
        Self.problem(inputs: inputs, baseLogit: baseLogit, roots: roots, nodes: nodes)
    }

    private static func problem(inputs: Int, baseLogit: Float, roots: [Int32], nodes: [Node]) -> String? {
        guard baseLogit.isFinite else { return "baseLogit is not finite" }
        for r in roots where r < 0 || Int(r) >= nodes.count { return "root \(r) is out of range" }
        for (i, n) in nodes.enumerated() {
            guard n.value.isFinite else { return "node \(i) has a value that is not finite" }
            guard n.feature >= 0 else { continue }
            guard Int(n.feature) < inputs else { return "node \(i) reads input \(n.feature) of \(inputs)" }
            guard Int(n.left) > i, Int(n.left) + 1 < nodes.count else { return "node \(i) has children out of range" }
        }
        return nil
    }

    /// The number of trees.
    public var treeCount: Int { roots.count }

    /// The logit for `x` (``inputs`` values, finite). Trees with a ``validationProblem`` contribute
    /// nothing (``SoundModel`` refuses such files).
    @inline(__always)
    public func logit(_ x: UnsafeBufferPointer<Float>) -> Float {
        baseLogit + walk.sum(x)
    }

    /// The logit for `x`, one tree at a time (the reference the lock-step walk must equal).
    public func logitTreeByTree(_ x: UnsafeBufferPointer<Float>) -> Float {
        var sum = baseLogit
        for r in roots {
            var n = nodes[Int(r)]
            while n.feature >= 0 {
                n = nodes[Int(n.left) + (x[Int(n.feature)] <= n.value ? 0 : 1)]
            }
            sum += n.value
        }
        return sum
    }
}

/// Trees in the form the lock-step walk reads: per node an input, a threshold and a left child
/// (leaves: input 0, threshold +infinity, themselves as child) and an output (0 at inner nodes);
/// per group of eight trees their roots (a group short of eight is padded with an extra leaf of
/// output 0) and the depth of the deepest.
private struct LockStepForm: Sendable {
    let feature: [Int32]
    let threshold: [Float]
    let left: [Int32]
    let output: [Float]
    let groupRoots: [Int32]
    let groupDepth: [Int32]

    init(roots: [Int32], nodes: [GradientBoostedTrees.Node]) {
        var feature = nodes.map { max(0, $0.feature) }
        var threshold = nodes.map { $0.feature >= 0 ? $0.value : Float.infinity }
        var left = nodes.indices.map { nodes[$0].feature >= 0 ? nodes[$0].left : Int32($0) }
        var output = nodes.map { $0.feature >= 0 ? 0 : $0.value }
        let pad = Int32(nodes.count)
        feature.append(0)
        threshold.append(.infinity)
        left.append(pad)
        output.append(0)
        // Depth of every node's subtree, children before parents (children come after their parent).
        var depth = [Int32](repeating: 0, count: nodes.count + 1)
        for i in stride(from: nodes.count - 1, through: 0, by: -1) where nodes[i].feature >= 0 {
            let l = Int(nodes[i].left)
            depth[i] = 1 + max(depth[l], depth[l + 1])
        }
        var groupRoots: [Int32] = []
        var groupDepth: [Int32] = []
        var k = 0
        while k < roots.count {
            var d: Int32 = 0
            for lane in 0..<8 {
                let r = k + lane < roots.count ? roots[k + lane] : pad
                groupRoots.append(r)
                d = max(d, depth[Int(r)])
            }
            groupDepth.append(d)
            k += 8
        }
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.output = output
        self.groupRoots = groupRoots
        self.groupDepth = groupDepth
    }

    @inline(__always)
    func sum(_ x: UnsafeBufferPointer<Float>) -> Float {
        feature.withUnsafeBufferPointer { f in
            threshold.withUnsafeBufferPointer { t in
                left.withUnsafeBufferPointer { l in
                    output.withUnsafeBufferPointer { o in
                        groupRoots.withUnsafeBufferPointer { roots in
                            var total: Float = 0
                            let xs = x.baseAddress!
                            let fs = f.baseAddress!
                            let ts = t.baseAddress!
                            let ls = l.baseAddress!
                            @inline(__always) func step(_ i: Int) -> Int {
                                Int(ls[i]) + (xs[Int(fs[i])] > ts[i] ? 1 : 0)
                            }
                            for (g, depth) in groupDepth.enumerated() {
                                let r = g * 8
                                var i0 = Int(roots[r]), i1 = Int(roots[r + 1]), i2 = Int(roots[r + 2]), i3 = Int(roots[r + 3])
                                var i4 = Int(roots[r + 4]), i5 = Int(roots[r + 5]), i6 = Int(roots[r + 6]), i7 = Int(roots[r + 7])
                                var d: Int32 = 0
                                while d < depth {
                                    i0 = step(i0)
                                    i1 = step(i1)
                                    i2 = step(i2)
                                    i3 = step(i3)
                                    i4 = step(i4)
                                    i5 = step(i5)
                                    i6 = step(i6)
                                    i7 = step(i7)
                                    d += 1
                                }
                                total += ((o[i0] + o[i1]) + (o[i2] + o[i3])) + ((o[i4] + o[i5]) + (o[i6] + o[i7]))
                            }
                            return total
                        }
                    }
                }
            }
        }
    }
}
