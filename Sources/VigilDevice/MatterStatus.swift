/// The Matter interaction-model statuses a device-model command can fail with.
/// Raw values are the Matter status names.
public enum MatterStatus: String, Sendable, Hashable, CaseIterable {
    /// A value breaks a constraint that does not depend on device state.
    case constraintError = "ConstraintError"
    /// A value breaks a constraint that depends on device state, e.g. twoDCartesianMax.
    case dynamicConstraintError = "DynamicConstraintError"
    /// The thing to create already exists.
    case alreadyExists = "AlreadyExists"
    /// No room left, e.g. user zones already at maxUserDefinedZones.
    case resourceExhausted = "ResourceExhausted"
    /// The referenced zone, trigger or item does not exist.
    case notFound = "NotFound"
    /// The command cannot run in the current state, e.g. removing a zone that still has a trigger.
    case invalidInState = "InvalidInState"
}

extension MatterStatus: CustomStringConvertible {
    /// The Matter name, e.g. "ConstraintError".
    public var description: String { rawValue }
}
