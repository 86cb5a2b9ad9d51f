/// An input that the metrics refuse, as `sed_eval` does (it raises `ValueError` in these cases).
package enum ScoringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One call to `evaluate` received events of several files; evaluate file by file.
    /// `list` is `"reference"` or `"estimated"`.
    case multipleFiles(list: String, files: [String])
    /// Segment-based scoring met a label that is not in the metric's label list.
    case unknownLabel(label: String, file: String)

    /// A human-readable message with the context.
    package var description: String {
        switch self {
        case .multipleFiles(let list, let files):
            return "\(list) event list contains events from multiple files (\(files.joined(separator: ", "))); evaluate file by file"
        case .unknownLabel(let label, let file):
            return "label \"\(label)\" (file \"\(file)\") is not in the metric's label list"
        }
    }
}
