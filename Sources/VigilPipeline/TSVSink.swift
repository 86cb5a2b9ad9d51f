import Foundation
import VigilAnalysis

/// Writes the DCASE event list (file, onset, offset, label; tab-separated) for the `event`
/// records it receives, as they arrive, to a file handle (standard output by default).
public final class TSVSink: EventSink {
    private let handle: FileHandle

    /// A sink writing to `handle`.
    public init(handle: FileHandle = .standardOutput) { self.handle = handle }

    /// Writes one line per `event` record.
    public func receive(_ records: [OutputRecord]) {
        var text = ""
        for record in records { if let line = RecordEncoder.tsvLine(record.json) { text += line + "\n" } }
        if !text.isEmpty { handle.write(Data(text.utf8)) }
    }
}
