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

    @Test("requests with and without a body get the server's status, headers and whole body; concurrent requests do not wait for each other")
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
}
