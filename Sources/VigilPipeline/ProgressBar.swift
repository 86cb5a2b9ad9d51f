import Foundation
import NIOConcurrencyHelpers

/// A progress bar on stderr, shown only when stderr is a terminal: the share of media analyzed,
/// recordings done, speed and ETA. Safe to update from several threads. It uses the wall clock
/// for its redraw rate and ETA only; results never depend on it.
public final class ProgressBar: Sendable {
    /// What the lock guards: the progress so far and the last redraw.
    private struct State {
        var lastDraw = Date.distantPast
        var doneSeconds: Double = 0
        var doneItems = 0
        var label = ""
    }

    private let state = NIOLockedValueBox(State())
    private let totalSeconds: Double
    private let totalItems: Int
    private let itemName: String
    private let enabled: Bool
    private let started = Date()

    /// A bar over `totalItems` items holding `totalSeconds` of media; disabled when stderr is not
    /// a terminal or `enabled` is false. With `totalSeconds` 0, progress counts items.
    public init(totalSeconds: Double, totalItems: Int, itemName: String = "recordings", enabled: Bool = true) {
        self.totalSeconds = totalSeconds
        self.totalItems = totalItems
        self.itemName = itemName
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Adds analyzed media time.
    public func add(mediaSeconds: Double, label: String) {
        guard enabled else { return }
        state.withLockedValue { state in
            state.doneSeconds += mediaSeconds
            state.label = label
            drawIfDue(&state)
        }
    }

    /// Marks one item done.
    public func itemDone(label: String) {
        guard enabled else { return }
        state.withLockedValue { state in
            state.doneItems += 1
            state.label = label
            drawIfDue(&state)
        }
    }

    /// Erases the bar so that a message can be printed; the next update redraws it.
    public func clear() {
        guard enabled else { return }
        state.withLockedValue { state in
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
            state.lastDraw = .distantPast
        }
    }

    /// Removes the bar.
    public func finish() { clear() }

    /// Redraws the bar when the last redraw is at least 0.1 s old (call with the lock held).
    private func drawIfDue(_ state: inout State) {
        let now = Date()
        guard now.timeIntervalSince(state.lastDraw) >= 0.1 else { return }
        state.lastDraw = now
        let (doneSeconds, doneItems, label) = (state.doneSeconds, state.doneItems, state.label)
        let fraction =
            totalSeconds > 0
            ? min(max(doneSeconds / totalSeconds, 0), 1) : (totalItems > 0 ? Double(doneItems) / Double(totalItems) : 0)
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar =
            String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        let elapsed = now.timeIntervalSince(started)
        let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        var parts = [String(format: "[%@] %3.0f%%", bar, fraction * 100), "\(doneItems)/\(totalItems) \(itemName)"]
        if totalSeconds > 0 && elapsed > 0 { parts.append(String(format: "%.0fx real time", doneSeconds / elapsed)) }
        if elapsed > 0 && doneItems > 0 { parts.append(String(format: "%.1f/s", Double(doneItems) / elapsed)) }
        parts.append("ETA " + Self.duration(eta))
        parts.append(label.count > 30 ? "…" + label.suffix(29) : label)
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + parts.joined(separator: "  ")).utf8))
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
