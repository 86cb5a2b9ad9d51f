import Foundation

/// How much slack the wall-clock checks of the tests (the server abuse suite, the live RTSP
/// stream) get when the test process runs under a sanitizer: wall-clock limits (socket read timeouts, event delivery
/// delay, how long a server takes to close a slow connection) and memory growth.
///
/// The sanitizer runs (`make test-asan`, `make test-tsan`) set `VIGIL_WALL_CLOCK_SCALE`
/// (instrumented code runs 2 to 15 times slower) and, under AddressSanitizer,
/// `VIGIL_MEMORY_SLACK_MIB` (ASan's quarantine keeps freed blocks, 256 MiB by default, so the
/// resident size grows although the memory is released). A plain `make test` leaves both unset,
/// so the limits are checked at full strength there. Lower bounds (a connection must not be
/// closed *before* its timeout) are never relaxed.
public enum SanitizerAllowance {
    /// The factor from `VIGIL_WALL_CLOCK_SCALE`, at least 1.
    public static let factor: Double = environmentNumber("VIGIL_WALL_CLOCK_SCALE").map { max($0, 1) } ?? 1

    /// Extra resident bytes allowed, from `VIGIL_MEMORY_SLACK_MIB` (0 when unset).
    public static let memorySlack: Int = Int(environmentNumber("VIGIL_MEMORY_SLACK_MIB").map { max($0, 0) } ?? 0) << 20

    /// `seconds` stretched by ``factor``.
    public static func seconds(_ seconds: Double) -> Double { seconds * factor }

    /// A time limit of `minutes` stretched by ``factor`` (whole minutes, for `.timeLimit`).
    public static func minutes(_ minutes: Int64) -> Int64 { minutes * Int64(factor.rounded(.up)) }

    /// A memory-growth limit of `bytes` plus ``memorySlack``.
    public static func bytes(_ bytes: Int) -> Int { bytes + memorySlack }

    private static func environmentNumber(_ name: String) -> Double? {
        guard let text = ProcessInfo.processInfo.environment[name], let value = Double(text), value.isFinite, value < 1e6
        else { return nil }
        return value
    }
}
