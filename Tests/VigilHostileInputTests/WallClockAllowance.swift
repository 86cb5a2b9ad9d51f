import Foundation

/// How much slower than a plain debug build this test process runs, for the few checks that
/// measure wall-clock time (socket read timeouts, event delivery delay, how long a server
/// takes to close a slow connection).
///
/// The sanitizer runs (`make test-asan`, `make test-tsan`) set `VIGIL_WALL_CLOCK_SCALE`
/// (ThreadSanitizer makes the server 5 to 15 times slower); a plain `make test` leaves it at 1,
/// so the on-time limits are checked at full strength there. Lower bounds (a connection must
/// not be closed *before* its timeout) are never scaled.
enum WallClockAllowance {
    /// The factor from `VIGIL_WALL_CLOCK_SCALE`, at least 1.
    static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["VIGIL_WALL_CLOCK_SCALE"], let value = Double(text),
            value.isFinite, value >= 1
        else { return 1 }
        return value
    }()

    /// `seconds` stretched by ``factor``.
    static func seconds(_ seconds: Double) -> Double { seconds * factor }

    /// A time limit of `minutes` stretched by ``factor`` (whole minutes, for `.timeLimit`).
    static func minutes(_ minutes: Int64) -> Int64 { minutes * Int64(factor.rounded(.up)) }
}
