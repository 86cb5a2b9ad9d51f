import VigilCore
import VigilEvents

/// One line of analysis output: an engine record, or a per-input warning or error, tagged
/// with the input it belongs to.
public struct AnalysisRecord: Sendable, Hashable {
    /// What the record says.
    public enum Content: Sendable, Hashable {
        /// An event, zone lifecycle record or suppressed candidate from the event engine.
        case engine(EngineRecord)
        /// Something the user should know about an input that was still analyzed
        /// (non-finite samples replaced, a file shorter than one analysis frame).
        case warning(String)
        /// An input that failed, fully or from some point on (`kind` names the category).
        case error(kind: String, message: String)
    }

    /// The input's name as reported: relative to the directory argument, or as given.
    public var file: String
    /// The content.
    public var content: Content

    /// Creates a record.
    public init(file: String, content: Content) {
        self.file = file
        self.content = content
    }

    /// The record's `type` field in JSON Lines.
    public var typeName: String {
        switch content {
        case .engine(.eventStarted): return "eventStarted"
        case .engine(.event): return "event"
        case .engine(.zoneTriggered): return "zoneTriggered"
        case .engine(.zoneStopped): return "zoneStopped"
        case .engine(.suppressed): return "suppressed"
        case .warning: return "warning"
        case .error: return "error"
        }
    }
}
