/// Why a device-model command or value was rejected: the Matter status, the offending field
/// (a path relative to the command's argument, e.g. `vertices[3].x`; empty for the whole
/// argument) and a human-readable reason.
public struct MatterCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Matter status the command fails with.
    public var status: MatterStatus
    /// The offending field, relative to the command argument; empty when the whole argument is at fault.
    public var field: String
    /// What is wrong, e.g. "2100 exceeds twoDCartesianMax.x 2048".
    public var reason: String

    /// Creates an error.
    public init(_ status: MatterStatus, field: String, _ reason: String) {
        self.status = status
        self.field = field
        self.reason = reason
    }

    /// "ConstraintError: name: 40 characters exceed the maximum 32".
    public var description: String {
        field.isEmpty ? "\(status): \(reason)" : "\(status): \(field): \(reason)"
    }

    /// "X is out of range A...B": the wording used for every range violation.
    static func outOfRange<T: BinaryInteger>(_ value: T, _ range: ClosedRange<T>, field: String) -> MatterCommandError {
        MatterCommandError(.constraintError, field: field, "\(value) is out of range \(range.lowerBound)...\(range.upperBound)")
    }
}

/// The error type of ZoneManagement commands (the same type as every device-model command error).
public typealias ZoneManagementError = MatterCommandError
