#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic wall clock used for pacing and latency measurement (seconds since an
/// arbitrary origin). Analysis never reads it: media time drives analysis.
public enum LiveClock {
    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Sleeps the calling thread until `deadline` (a ``now()`` value).
    public static func sleep(until deadline: Double) {
        while true {
            let remaining = deadline - now()
            if remaining <= 0 { return }
            var spec = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
            _ = nanosleep(&spec, nil)
        }
    }
}
