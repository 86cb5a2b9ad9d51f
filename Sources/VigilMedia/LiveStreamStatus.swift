/// Where a ``LiveMediaStreamReader`` stands, for `/health` and `/metrics`.
public struct LiveStreamStatus: Sendable, Hashable {
    /// The connection state.
    public enum State: String, Sendable, Hashable {
        /// Opening the first connection.
        case connecting
        /// Media is flowing.
        case connected
        /// The stream dropped; waiting before the next attempt, or opening it.
        case reconnecting
        /// The input ended (a file that was read to its end, with reconnects off for ends).
        case ended
        /// The reader gave up (policy exhausted or an error a reconnect cannot fix).
        case failed
        /// ``LiveMediaStreamReader/stop()`` was called.
        case stopped
    }

    /// The connection state.
    public var state: State
    /// Successful reconnects after the first connection.
    public var reconnects: Int
    /// Consecutive failed attempts since media last flowed.
    public var consecutiveFailures: Int
    /// The last failure, if any.
    public var lastError: MediaReadError?
    /// The media time reached on the output timeline (end of the latest chunk).
    public var mediaTime: Double
    /// Chunks handed over.
    public var chunks: Int

    /// Creates a status.
    public init(
        state: State = .connecting, reconnects: Int = 0, consecutiveFailures: Int = 0, lastError: MediaReadError? = nil,
        mediaTime: Double = 0, chunks: Int = 0
    ) {
        self.state = state
        self.reconnects = reconnects
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.mediaTime = mediaTime
        self.chunks = chunks
    }
}
