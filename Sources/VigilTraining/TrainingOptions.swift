import VigilInference

/// Training settings of a sound model: the trees, and which decisions train them.
package struct TrainingOptions: Sendable, Hashable {
    /// The kind of classifier trained.
    package var classifier = ClassifierChoice.trees
    /// Settings of the gradient-boosted trees.
    package var trees = TreeTrainingOptions()
    /// Settings of the temporal convolutional network.
    package var network = NetworkTrainingOptions()
    /// Decisions within this time of an annotated onset or offset are left out (seconds). 0 by
    /// default: with 0.1 s, a spoken digit of 0.3-0.4 s kept almost none of its decisions, and
    /// personTalking missed single words (validation segment F1 0.841 with 0.1 s, 0.889 with 0).
    package var boundaryMargin: Double = 0
    /// Positive decisions whose nearby frames are never this far above the background
    /// (mean relative band level, log10 units) are left out.
    package var positiveActivity: Float = 0.3
    /// Weight of the decisions of the negative clips of a clip-labelled folder (other animals, horns,
    /// street sounds): above 1 they count more than the development set's negatives.
    package var negativeClipWeight: Float = 1
    /// Weight of the positive decisions of the recordings with hand-placed annotations (the development set's
    /// files, not a clip-labelled folder's clips, whose positives are their activity regions): above 1 the
    /// strongly labelled events count more than the clips' regions.
    package var developmentPositiveWeight: Float = 1
    /// Inputs the trees must not split on, e.g. absolute level.
    package var ignoredInputs: [Int] = []
    /// Where the decision (threshold, smoothing, sensitivity step) is chosen when the recordings come in folds
    /// (cross-validation, and training with clip-labelled recordings).
    package var decisionChoice: DecisionChoice = .validationPart
    /// Whether the gain and negative-mix copies may mix in development files with other labels' events
    /// (``SoundModelRecipe/copiesOverOtherLabels``).
    package var copiesOverOtherLabels = false

    /// The kinds of classifier a model can be trained with.
    package enum ClassifierChoice: String, Sendable, Hashable, CaseIterable {
        /// Gradient-boosted trees over the pooled decision vector (``GradientBoostedTrees``).
        case trees
        /// A temporal convolutional network over the per-frame columns (``TemporalConvolutionalNetwork``).
        case network
        /// Both, the logit the mean of theirs (``SoundClassifier/treesAndNetwork(_:_:)``).
        case treesAndNetwork = "trees+network"

        /// The ``SoundClassifier/kind`` of the classifier it trains.
        package var kind: String {
            switch self {
            case .trees: SoundClassifier.treesKind
            case .network: SoundClassifier.networkKind
            case .treesAndNetwork: SoundClassifier.treesAndNetworkKind
            }
        }

        /// Whether trees are trained.
        package var trainsTrees: Bool { self != .network }
        /// Whether a network is trained.
        package var trainsNetwork: Bool { self != .trees }
    }

    /// Where a model's decision is chosen.
    package enum DecisionChoice: String, Sendable, Hashable, CaseIterable {
        /// On one held-out part (the validation part; in cross-validation, the first inner fold), with trees
        /// trained on the rest.
        case validationPart = "part"
        /// On one held-out part, as ``validationPart``; the model's trees are then trained again on everything, that
        /// part included, and keep the decision chosen: a quarter more training material (in cross-validation the
        /// inner part's sources, clips of the label among them) for one more fit.
        case validationPartThenAll = "part-then-all"
        /// On the out-of-fold probabilities of every fold (trees trained on the other folds score each fold), with
        /// the model's trees trained on everything.
        case outOfFold = "out-of-fold"

        /// Whether the model's trees train on every recording, the choice's held-out recordings included.
        package var trainsOnEverything: Bool { self != .validationPart }
    }
    /// Creates default options.
    package init() {}

    /// The options of the shipped model of `label` (what `vigil train` uses): its ``SoundModelRecipe``'s, with its
    /// low-rate settings for the label's low-rate model (`lowRate`).
    package init(label: String, lowRate: Bool = false) {
        self.init()
        let recipe = SoundModelRecipe.of(label: label)
        positiveActivity = recipe.positiveActivity
        decisionChoice = (lowRate ? recipe.lowRateDecisionChoice : nil) ?? recipe.decisionChoice
        copiesOverOtherLabels = (lowRate ? recipe.lowRateCopiesOverOtherLabels : nil) ?? recipe.copiesOverOtherLabels
        classifier = recipe.classifier
        developmentPositiveWeight = recipe.developmentPositiveWeight
    }
}
