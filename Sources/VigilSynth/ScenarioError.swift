/// A scenario that cannot be rendered, with every problem found (each names its JSON path).
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every problem; never empty.
    public var problems: [ScenarioProblem]

    /// Creates an error.
    public init(problems: [ScenarioProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
