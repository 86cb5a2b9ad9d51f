/// Training settings of a sound model: the trees, and which decisions train them.
package struct TrainingOptions: Sendable, Hashable {
    /// Settings of the gradient-boosted trees.
    package var trees = TreeTrainingOptions()
    /// Decisions within this time of an annotated onset or offset are left out (seconds). 0 by
    /// default: with 0.1 s, a spoken digit of 0.3-0.4 s kept almost none of its decisions, and
    /// personTalking missed single words (validation segment F1 0.841 with 0.1 s, 0.889 with 0).
    package var boundaryMargin: Double = 0
    /// Positive decisions whose nearby frames are never this far above the background
    /// (mean relative band level, log10 units) are left out.
    package var positiveActivity: Float = 0.3
    /// Inputs the trees must not split on, e.g. absolute level.
    package var ignoredInputs: [Int] = []
    /// Creates default options.
    package init() {}

    /// The options of the shipped model of `label` (what `vigil train` uses): its ``SoundModelRecipe``'s.
    package init(label: String) {
        self.init()
        positiveActivity = SoundModelRecipe.of(label: label).positiveActivity
    }
}
