import NIOCore
import VigilLive

extension LiveServer {
    /// Runs the server on its configured host (port 0 picks a free port), calls `body` with a
    /// client for it once it listens, then stops the server.
    ///
    /// The server runs in a child task that is cancelled when `body` returns or throws; this is
    /// how `vigil live` stops it too.
    public func withTestClient<Value>(
        timeout: TimeAmount = .seconds(600), _ body: @Sendable (TestHTTPClient) async throws -> Value
    ) async throws -> Value {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(onServerRunning: { port in continuation.yield(port) })
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                // The server ended before it listened: its error (a bind failure, say) is the reason.
                try await group.next()
                throw TestHTTPClientError(request: "start", reason: "the live server stopped before it listened")
            }
            defer { group.cancelAll() }
            return try await body(TestHTTPClient(port: port, timeout: timeout))
        }
    }
}
