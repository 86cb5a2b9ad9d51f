import Foundation

/// A progress bar on stderr, shown only when stderr is a terminal. It uses the wall clock
/// for its own redraw rate and ETA only; results never depend on it. Callers serialize their
/// calls (``parallelMap(_:jobs:onDone:_:)`` calls `onDone` under its lock).
final class ProgressBar: @unchecked Sendable {
    private let total: Double
    private let unit: String
    private let enabled: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var done: Double = 0
    private var label = ""

    /// A bar over `total` units (e.g. seconds of media); disabled when stderr is not a terminal
    /// or `enabled` is false.
    init(total: Double, unit: String, enabled: Bool = true) {
        self.total = max(total, 1e-9)
        self.unit = unit
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Sets the completed amount and the current item's label; redraws at most 10 times a second.
    func update(done: Double, label: String) {
        self.done = done
        self.label = label
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        draw(now: now)
    }

    /// Clears the bar.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    private func draw(now: Date) {
        let fraction = min(max(done / total, 0), 1)
        let width = 28
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? done / elapsed : 0
        let eta = rate > 0 ? (total - done) / rate : 0
        let name = label.count > 30 ? "…" + label.suffix(29) : label
        let text = String(format: "\r\u{1B}[2K[%@] %3.0f%%  %.0fx real time  ETA %@  %@", bar, fraction * 100, rate, Self.duration(eta), name)
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
