import VigilCore
import VigilDevice

/// Why a control request was refused: the Matter status name (or `InvalidCommand` for bodies
/// that are not valid JSON of the right shape, `UnsupportedAccess` for a missing or wrong
/// token), the offending field relative to the request body, a reason, and the HTTP status.
///
/// HTTP mapping (docs/live.md): InvalidCommand 400, UnsupportedAccess 401, NotFound 404,
/// AlreadyExists / InvalidInState / ResourceExhausted 409, body too slow 408, body too large 413,
/// too many stream clients 503,
/// ConstraintError / DynamicConstraintError 422.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Matter status name, e.g. `ConstraintError`, or `InvalidCommand` / `UnsupportedAccess`.
    public var status: String
    /// The offending field (a JSON path relative to the body); empty for the whole request.
    public var field: String
    /// What is wrong.
    public var reason: String
    /// The HTTP status code.
    public var httpStatus: Int

    /// Creates an error.
    public init(status: String, field: String, reason: String, httpStatus: Int) {
        self.status = status
        self.field = field
        self.reason = reason
        self.httpStatus = httpStatus
    }

    /// A device-model command error, with the HTTP status of its Matter status.
    public init(_ error: MatterCommandError, fieldPrefix: String = "") {
        let field = fieldPrefix.isEmpty ? error.field : (error.field.isEmpty ? fieldPrefix : fieldPrefix + "." + error.field)
        self.init(status: error.status.rawValue, field: field, reason: error.reason, httpStatus: Self.httpStatus(for: error.status))
    }

    /// A malformed request (bad JSON, wrong type, missing or unknown key): HTTP 400.
    public static func invalidCommand(field: String, _ reason: String) -> ControlError {
        ControlError(status: "InvalidCommand", field: field, reason: reason, httpStatus: 400)
    }

    /// A missing or wrong bearer token: HTTP 401.
    public static func unsupportedAccess(_ reason: String) -> ControlError {
        ControlError(status: "UnsupportedAccess", field: "", reason: reason, httpStatus: 401)
    }

    /// A body larger than `limit` bytes: HTTP 413.
    public static func tooLarge(limit: Int) -> ControlError {
        ControlError(
            status: "InvalidCommand", field: "",
            reason: "request body exceeds the \(limit)-byte limit (raise it with vigil live --max-body-size)",
            httpStatus: 413)
    }

    /// A body that did not arrive within `limit`: HTTP 408.
    public static func timedOut(_ limit: Duration) -> ControlError {
        ControlError(
            status: "InvalidCommand", field: "",
            reason: "request body not complete within \(limit.components.seconds) s (raise it with vigil live --request-timeout)",
            httpStatus: 408)
    }

    /// Too many event-stream clients: HTTP 503.
    public static func tooManyClients(limit: Int) -> ControlError {
        ControlError(
            status: "ResourceExhausted", field: "",
            reason: "\(limit) event-stream clients are connected, the limit (raise it with vigil live --max-clients)", httpStatus: 503)
    }

    /// The HTTP status for a Matter status.
    public static func httpStatus(for status: MatterStatus) -> Int {
        switch status {
        case .constraintError, .dynamicConstraintError: return 422
        case .alreadyExists, .invalidInState, .resourceExhausted: return 409
        case .notFound: return 404
        }
    }

    /// The JSON body `{"status","field","reason"}`.
    public var json: JSONValue {
        .object(JSONObject([("status", .string(status)), ("field", .string(field)), ("reason", .string(reason))]))
    }

    /// "status: field: reason".
    public var description: String { field.isEmpty ? "\(status): \(reason)" : "\(status): \(field): \(reason)" }
}
