/// One reason a device file is invalid: where (a JSON path such as `zones[1].vertices[3].x`,
/// empty for the whole document) and why. Rule violations carry the Matter status the
/// equivalent command would fail with; type, syntax and missing-key problems have none.
public struct DeviceFileProblem: Sendable, Hashable, CustomStringConvertible {
    /// JSON path of the offending value: keys joined with ".", array indices as `[n]`.
    public var path: String
    /// What is wrong, e.g. "2100 exceeds twoDCartesianMax.x 2048".
    public var reason: String
    /// The Matter status for model-rule violations; `nil` for syntax, type and missing-key problems.
    public var status: MatterStatus?

    /// Creates a problem.
    public init(path: String, reason: String, status: MatterStatus? = nil) {
        self.path = path
        self.reason = reason
        self.status = status
    }

    /// "path: reason" (just the reason when the path is empty).
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
