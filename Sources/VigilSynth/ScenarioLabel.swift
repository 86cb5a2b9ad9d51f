/// One labelled event of a rendered scenario: onset and offset in seconds and the label
/// (an event trigger name such as `smokeAlarm`, or any text the scenario gives).
public struct ScenarioLabel: Sendable, Hashable {
    /// Onset in seconds.
    public var onset: Double
    /// Offset in seconds.
    public var offset: Double
    /// The label.
    public var label: String

    /// Creates a label.
    public init(onset: Double, offset: Double, label: String) {
        self.onset = onset
        self.offset = offset
        self.label = label
    }
}
