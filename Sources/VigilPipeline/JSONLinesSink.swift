import Foundation
import NIOConcurrencyHelpers

/// Writes every record as one line of JSON (JSON Lines) to a file handle, standard output by
/// default, as soon as it is received. One write per batch of records.
public final class JSONLinesSink: EventSink, Sendable {
    /// The handle written to; holding its lock keeps batches from interleaving.
    private let handle: NIOLockedValueBox<FileHandle>

    /// A sink writing to `handle`.
    public init(handle: FileHandle = .standardOutput) { self.handle = NIOLockedValueBox(handle) }

    /// Writes the records, one line each.
    public func receive(_ records: [OutputRecord]) {
        guard !records.isEmpty else { return }
        var text = ""
        for record in records { text += record.line + "\n" }
        handle.withLockedValue { $0.write(Data(text.utf8)) }
    }
}
