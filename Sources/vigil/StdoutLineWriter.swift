import Foundation

/// Writes JSON Lines to stdout, one write per line, thread-safe.
final class StdoutLineWriter: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled }

    func write(_ line: String) {
        guard enabled else { return }
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    /// Writes even when record output is disabled (summaries such as the latency report).
    func writeAlways(_ line: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }
}
