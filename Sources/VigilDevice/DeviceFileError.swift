/// A device file that is not valid, with every problem found (and the warnings).
public struct DeviceFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every problem; never empty.
    public var problems: [DeviceFileProblem]
    /// Every warning.
    public var warnings: [DeviceFileWarning]

    /// Creates an error.
    public init(problems: [DeviceFileProblem], warnings: [DeviceFileWarning]) {
        self.problems = problems
        self.warnings = warnings
    }

    /// One problem per line, "path: reason".
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
