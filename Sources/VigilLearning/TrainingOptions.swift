/// Training settings of a sound model: the trees, and which decisions train them.
public struct TrainingOptions: Sendable, Hashable {
    /// Settings of the gradient-boosted trees.
    public var trees = TreeTrainingOptions()
    /// Decisions within this time of an annotated onset or offset are left out (seconds). 0 by
    /// default: with 0.1 s, a spoken digit of 0.3-0.4 s kept almost none of its decisions, and
    /// personTalking missed single words (validation segment F1 0.841 with 0.1 s, 0.889 with 0).
    public var boundaryMargin: Double = 0
    /// Positive decisions whose nearby frames are never this far above the background
    /// (mean relative band level, log10 units) are left out.
    public var positiveActivity: Float = 0.3
    /// Inputs the trees must not split on, e.g. absolute level.
    public var ignoredInputs: [Int] = []
    /// Where the decision (threshold, smoothing, sensitivity step) is chosen when the recordings come in folds
    /// (cross-validation, and training with clip-labelled recordings).
    public var decisionChoice: DecisionChoice = .validationPart

    /// Where a model's decision is chosen.
    public enum DecisionChoice: String, Sendable, Hashable, CaseIterable {
        /// On one held-out part (the validation part; in cross-validation, the first inner fold), with trees
        /// trained on the rest.
        case validationPart = "part"
        /// On the out-of-fold probabilities of every fold (trees trained on the other folds score each fold), with
        /// the model's trees trained on everything.
        case outOfFold = "out-of-fold"
    }
    /// Creates default options.
    public init() {}

    /// The recipe of the shipped model of `label` (what `vigil train` uses). personTalking teaches
    /// positives down to 1 dB over the background (``positiveActivity`` 0.1): quiet consonants and
    /// unvoiced syllables are speech too. Over six training seeds its validation segment F1 was
    /// 0.899-0.911 (mean 0.904) against 0.890-0.902 (mean 0.896) with 0.3, higher or equal at every
    /// seed (docs/sound-models.md).
    public init(label: String) {
        self.init()
        if label == "personTalking" { positiveActivity = 0.1 }
    }

    /// Room-augmented copies (``TrainingAugmentation``) of every recording of `label` in the training part, in the
    /// recipe `vigil train` uses.
    public static func augmentedCopies(label: String) -> Int { 0 }
}
