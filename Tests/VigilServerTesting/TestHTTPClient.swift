import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// A response as the test HTTP client received it: status, header fields and the whole body.
public struct TestHTTPResponse: Sendable {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The response header fields.
    public var headers: HTTPFields
    /// The whole response body.
    public var body: ByteBuffer
}

/// Why a test HTTP request got no response.
public struct TestHTTPClientError: Error, CustomStringConvertible {
    /// The request's method and URI.
    public var request: String
    /// What went wrong.
    public var reason: String

    public var description: String { "\(request): \(reason)" }
}

/// A small HTTP/1.1 client for the live server's tests, over real TCP to 127.0.0.1.
///
/// Each request opens its own connection (`Connection: close`), so concurrent requests never
/// queue behind each other, and reads the whole response. It is written on SwiftNIO's HTTP/1
/// codec rather than HummingbirdTesting, whose client pulls AsyncHTTPClient, SwiftNIO SSL and
/// BoringSSL's ~430 C files into every test build: about a third of each of CI's three test
/// builds (plain, AddressSanitizer, ThreadSanitizer) for nothing the tests use.
public struct TestHTTPClient: Sendable {
    /// The port of the server under test on 127.0.0.1.
    public let port: Int
    /// How long a request may take from connecting to the end of the response.
    public var timeout: TimeAmount

    public init(port: Int, timeout: TimeAmount = .seconds(600)) {
        self.port = port
        self.timeout = timeout
    }

    /// Sends one request and returns the complete response.
    ///
    /// Throws `TestHTTPClientError` when the connection closes before a complete response or the
    /// request takes longer than `timeout`.
    public func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws
        -> TestHTTPResponse
    {
        let name = "\(method.rawValue) \(uri)"
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let underlying = channel.channel
        let deadline = underlying.eventLoop.scheduleTask(in: timeout) { underlying.close(promise: nil) }
        defer { deadline.cancel() }

        var head = HTTPHeaders()
        head.add(name: "Host", value: "127.0.0.1:\(port)")
        head.add(name: "Connection", value: "close")
        for field in headers { head.add(name: field.name.rawName, value: field.value) }
        if let body, headers[.contentLength] == nil { head.add(name: "Content-Length", value: String(body.readableBytes)) }
        let requestHead = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri, headers: head)

        return try await channel.executeThenClose { inbound, outbound in
            // A server may answer before it has read the whole request (413 for a body over its
            // limit) and close the connection, so a write can fail while the answer is already
            // on its way. As curl does, a failed write is not the end: the response that arrived
            // is read, and the write's error is reported only when no complete response came.
            var writeError: (any Error)?
            do {
                try await outbound.write(.head(requestHead))
                if let body { try await outbound.write(.body(.byteBuffer(body))) }
                try await outbound.write(.end(nil))
            } catch {
                writeError = error
            }

            var response: HTTPResponseHead?
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let h): response = h
                case .body(var chunk): collected.writeBuffer(&chunk)
                case .end:
                    guard let response else { throw TestHTTPClientError(request: name, reason: "end of response before its head") }
                    return TestHTTPResponse(status: Self.status(response), headers: Self.fields(response.headers), body: collected)
                }
            }
            if let writeError, response == nil {
                throw TestHTTPClientError(request: name, reason: "sending the request failed (\(writeError)) and no response came")
            }
            throw TestHTTPClientError(
                request: name,
                reason: response == nil
                    ? "connection closed with no response (or none within \(Double(timeout.nanoseconds) / 1e9) s)"
                    : "connection closed before the end of the response")
        }
    }

    static func status(_ head: HTTPResponseHead) -> HTTPResponse.Status {
        HTTPResponse.Status(code: Int(head.status.code), reasonPhrase: head.status.reasonPhrase)
    }

    static func fields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return fields
    }
}
