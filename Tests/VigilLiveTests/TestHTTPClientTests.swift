import Foundation
import Hummingbird
import Testing
import VigilDevice
import VigilLive
import VigilServerTesting

/// The live tests' own HTTP client (Tests/VigilServerTesting): a server that never answers is an
/// error naming the request within the timeout, and a real server's answer arrives whole.
@Suite("Test HTTP client")
struct TestHTTPClientTests {
    @Test("a server that accepts but never answers gives an error naming the request, after the timeout")
    func silentServer() async throws {
        let listener = try SSEClientTests.SilentListener()
        let client = TestHTTPClient(port: listener.port, timeout: .milliseconds(300))
        let started = LiveClock.now()
        do {
            _ = try await client.execute(uri: "/health", method: .get)
            Issue.record("execute returned although the server never answered")
        } catch let error as TestHTTPClientError {
            #expect(error.request == "GET /health")
            #expect(error.reason.contains("no response"), "\(error)")
        }
        #expect(LiveClock.now() - started >= 0.25)
    }

    @Test(
        "requests with and without a body get the server's status, headers and whole body; concurrent requests do not wait for each other")
    func realServer() async throws {
        let stack = LiveTestSupport.stack(device: .default)
        try await stack.server.withTestClient { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(health.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(LiveTestSupport.json(health)["status"]?.stringValue == "ok")
            let zone = #"{"name":"Drive","use":"motion","vertices":[{"x":0,"y":0},{"x":900,"y":0},{"x":900,"y":700}]}"#
            let created = try await client.execute(uri: "/zones", method: .post, body: ByteBuffer(string: zone))
            #expect(created.status.code == 201, "\(String(buffer: created.body))")
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { Int(try await client.execute(uri: "/device", method: .get).status.code) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(codes == Array(repeating: 200, count: 20))
        }
    }

    @Test("an answer sent before the request body was read is returned, although the body's write fails")
    func earlyAnswer() async throws {
        // The listener answers 413 as soon as it has the request head, then closes without
        // reading the body: the client's write fails, and the answer must still come back.
        // 32 MiB is more than the loopback socket buffers hold, so the write cannot complete.
        let listener = try SSEClientTests.SilentListener()
        let listenerFD = listener.fd
        let answered = Thread.detachNewThreadWithResult { () -> Bool in
            let connection = accept(listenerFD, nil, nil)
            guard connection >= 0 else { return false }
            defer { close(connection) }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.reversed().starts(with: Array("\n\r\n\r".utf8)), recv(connection, &byte, 1, 0) == 1 { head.append(byte) }
            let answer = Array("HTTP/1.1 413 Content Too Large\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large".utf8)
            guard send(connection, answer, answer.count, Int32(MSG_NOSIGNAL)) == answer.count else { return false }
            usleep(300_000)  // the answer reaches the client before the close resets the connection
            return true
        }
        let client = TestHTTPClient(port: listener.port, timeout: .seconds(30))
        let response = try await client.execute(uri: "/zones", method: .post, body: ByteBuffer(repeating: 0x61, count: 32 << 20))
        #expect(response.status.code == 413)
        #expect(String(buffer: response.body) == "too large")
        #expect(await answered.value)
    }
}

extension Thread {
    /// Runs blocking `body` on a new thread; the task's value is its result.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> Task<T, Never> {
        let (stream, continuation) = AsyncStream.makeStream(of: T.self)
        Thread.detachNewThread {
            continuation.yield(body())
            continuation.finish()
        }
        return Task {
            for await value in stream { return value }
            fatalError("the thread ended without a result")
        }
    }
}
