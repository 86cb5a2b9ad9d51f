import Foundation

/// Writes every record as one line of JSON (JSON Lines) to a file handle, standard output by
/// default, as soon as it is received. One write per batch of records.
public final class JSONLinesSink: EventSink, @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    /// A sink writing to `handle`.
    public init(handle: FileHandle = .standardOutput) { self.handle = handle }

    /// Writes the records, one line each.
    public func receive(_ records: [OutputRecord]) {
        guard !records.isEmpty else { return }
        var text = ""
        for record in records { text += record.line + "\n" }
        lock.withLock { handle.write(Data(text.utf8)) }
    }
}
