/// How long to wait before reconnecting to a dropped stream: bounded exponential backoff.
/// The n-th consecutive failed attempt waits `min(initialDelay * multiplier^(n-1), maximumDelay)`
/// seconds; after ``maximumAttempts`` consecutive failures (if set) the reader gives up. A
/// connection that delivers media resets the count. Pure.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Seconds before the first retry.
    public var initialDelay: Double
    /// The longest wait, in seconds.
    public var maximumDelay: Double
    /// Growth factor per failed attempt (at least 1).
    public var multiplier: Double
    /// Consecutive failed attempts after which the reader gives up; `nil` retries forever.
    public var maximumAttempts: Int?

    /// The defaults: 0.5 s, doubling up to 30 s, retrying forever.
    public static let standard = ReconnectPolicy()
    /// Never reconnect: the first failure ends the stream.
    public static let never = ReconnectPolicy(maximumAttempts: 0)

    /// Creates a policy; out-of-range values are clamped (delays to 0...3600 s, multiplier to
    /// 1...10, the maximum delay to at least the initial one, attempts to at least 0).
    public init(initialDelay: Double = 0.5, maximumDelay: Double = 30, multiplier: Double = 2, maximumAttempts: Int? = nil) {
        let initial = initialDelay.isFinite ? min(max(initialDelay, 0), 3600) : 0.5
        self.initialDelay = initial
        self.maximumDelay = maximumDelay.isFinite ? min(max(maximumDelay, initial), 3600) : max(initial, 30)
        self.multiplier = multiplier.isFinite ? min(max(multiplier, 1), 10) : 2
        self.maximumAttempts = maximumAttempts.map { max($0, 0) }
    }

    /// Whether to try again after `failures` consecutive failed attempts (the drop counts as one).
    public func allowsRetry(afterFailures failures: Int) -> Bool {
        guard let maximumAttempts else { return true }
        return failures <= maximumAttempts
    }

    /// Seconds to wait before the attempt that follows `failures` consecutive failures (≥ 1).
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 1 else { return initialDelay }
        var delay = initialDelay
        for _ in 1..<failures {
            delay *= multiplier
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
