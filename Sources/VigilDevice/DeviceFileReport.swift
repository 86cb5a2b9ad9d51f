/// The outcome of decoding a device file: the device when the file is valid, and every problem
/// and warning found.
public struct DeviceFileReport: Sendable, Hashable {
    /// The decoded device; `nil` when there is at least one problem.
    public var device: Device?
    /// Every problem, in document order within each section.
    public var problems: [DeviceFileProblem]
    /// Every warning (unknown keys).
    public var warnings: [DeviceFileWarning]

    /// Creates a report.
    public init(device: Device?, problems: [DeviceFileProblem], warnings: [DeviceFileWarning]) {
        self.device = device
        self.problems = problems
        self.warnings = warnings
    }

    /// Whether the file is valid (no problems; warnings allowed).
    public var isValid: Bool { problems.isEmpty }

    /// The device, or a ``DeviceFileError`` with the problems and warnings.
    public func get() throws(DeviceFileError) -> Device {
        guard let device, problems.isEmpty else { throw DeviceFileError(problems: problems, warnings: warnings) }
        return device
    }
}
