import Foundation
import VigilAnalysis
import VigilCore

/// The terminal table: holds every record and prints one aligned table (``RecordEncoder/table(_:)``)
/// when the run finishes, to a file handle (standard output by default).
public final class TableSink: EventSink {
    private let handle: FileHandle
    private var records: [JSONValue] = []

    /// A sink printing to `handle`.
    public init(handle: FileHandle = .standardOutput) { self.handle = handle }

    /// Holds the records for the table.
    public func receive(_ records: [OutputRecord]) { self.records += records.map(\.json) }

    /// Prints the table.
    public func finish() throws { handle.write(Data(RecordEncoder.table(records).utf8)) }
}
