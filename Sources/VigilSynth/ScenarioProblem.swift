/// One reason a scenario is invalid: the JSON path of the offending value (keys joined with
/// ".", array indices as `[n]`, empty for the whole document) and why.
public struct ScenarioProblem: Sendable, Hashable, CustomStringConvertible {
    /// JSON path, e.g. `items[2].frequency`.
    public var path: String
    /// What is wrong, e.g. "expected a number, got \"loud\"".
    public var reason: String

    /// Creates a problem.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "path: reason" (just the reason when the path is empty).
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
