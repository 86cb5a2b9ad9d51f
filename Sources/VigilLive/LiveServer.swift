import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import VigilControl
import VigilCore
import VigilDevice

/// The HTTP face of a live session on Hummingbird: the event stream (SSE and WebSocket), the
/// device state, health and metrics, and the control endpoints that mirror the trait commands.
/// Every endpoint, request and response is documented in docs/live.md.
public struct LiveServer: Sendable {
    /// The request context (WebSocket-capable).
    public typealias Context = BasicWebSocketRequestContext

    /// The session served.
    public let session: LiveSession
    /// Listen address, token and limits.
    public let configuration: LiveServerConfiguration

    /// Creates a server for `session`.
    public init(session: LiveSession, configuration: LiveServerConfiguration) {
        self.session = session
        self.configuration = configuration
    }

    /// The HTTP router with every endpoint.
    public func makeRouter() -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: UnknownEndpointMiddleware())
        let session = self.session
        let configuration = self.configuration
        router.get("/health") { _, _ in
            let metrics = session.metrics
            var body: JSONValue = [
                "status": .string(session.isFinished ? "finished" : "ok"), "source": .string(session.sourceName),
                "mediaTime": .number((session.mediaTime * 1000).rounded() / 1000), "clients": .number(Double(metrics.connectedClients)),
                "lagSeconds": .number((metrics.currentLag * 1000).rounded() / 1000), "authRequired": .bool(configuration.token != nil),
            ]
            if session.analyzesAudio, case .object(var object) = body {
                // A stream analysed at its own rate has none until its first audio.
                let rate = session.sampleRate
                object["audioSampleRate"] = rate > 0 ? .number(rate) : .null
                body = .object(object)
            }
            if let stream = metrics.stream, case .object(var object) = body {
                object["stream"] = [
                    "state": .string(stream.status.state.rawValue), "reconnects": .number(Double(stream.status.reconnects)),
                    "consecutiveFailures": .number(Double(stream.status.consecutiveFailures)),
                    "lastError": stream.status.lastError.map { .string($0.description) } ?? .null,
                    "lagSeconds": .number((stream.lag * 1000).rounded() / 1000),
                ]
                body = .object(object)
            }
            return Self.json(200, body)
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: session.metrics.prometheusText())))
        }
        router.get("/device") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: DeviceFile.encode(session.device.current))))
        }
        router.get("/events") { request, _ in
            if session.hub.subscriberCount >= configuration.maxStreamClients {
                session.metrics.streamRefused()
                var response = Self.errorResponse(.tooManyClients(limit: configuration.maxStreamClients))
                response.headers[.retryAfter] = "5"
                return response
            }
            let lastEventID = request.headers.first(where: { $0.name.canonicalName == "last-event-id" }).flatMap { UInt64($0.value) }
            let after = lastEventID ?? request.uri.queryParameters.get("after").flatMap { UInt64($0) }
            let subscription = session.hub.subscribe(kind: "sse", after: after)
            let body = ResponseBody { writer in
                defer { subscription.cancel() }
                try await writer.write(ByteBuffer(string: ": vigil live event stream\n\n"))
                for await record in subscription.records {
                    try await writer.write(ByteBuffer(string: record.sseFrame))
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }

        let device = session.device
        router.post("/zones") { request, context in
            await self.control(request, status: 201) { body throws(ControlError) in
                let id = try device.createZone(body)
                return ["zoneID": .number(Double(id))]
            }
        }
        router.put("/zones/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await self.control(request) { body throws(ControlError) in
                try device.updateZone(id: id, body)
                return ["zoneID": .number(Double(UInt16(id) ?? 0))]
            }
        }
        router.delete("/zones/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await self.control(request, needsBody: false) { _ throws(ControlError) in
                try device.removeZone(id: id)
                return ["zoneID": .number(Double(UInt16(id) ?? 0))]
            }
        }
        router.post("/triggers") { request, _ in
            await self.control(request) { body throws(ControlError) in
                let trigger = try device.createOrUpdateTrigger(body)
                let stored = device.current.jsonValue["triggers"]?.arrayValue?.first { $0["zoneID"]?.intValue == Int(trigger.zoneID) }
                return stored ?? ["zoneID": .number(Double(trigger.zoneID))]
            }
        }
        router.delete("/triggers/:zoneID") { request, context in
            let id = context.parameters.get("zoneID") ?? ""
            return await self.control(request, needsBody: false) { _ throws(ControlError) in
                try device.removeTrigger(zoneID: id)
                return ["zoneID": .number(Double(UInt16(id) ?? 0))]
            }
        }
        router.post("/event-detection-triggers") { request, _ in
            await self.control(request) { body throws(ControlError) in
                let enabled = try device.setEventDetectionTriggers(body)
                return ["enabledEventTriggers": .array(enabled.map { .string($0.rawValue) })]
            }
        }
        router.put("/recording-mode") { request, _ in
            await self.control(request) { body throws(ControlError) in
                let index = try device.selectRecordingMode(body)
                let mode = device.current.recordingModes.supportedRecordingModes[index].recordingMode
                return ["selectedRecordingMode": .number(Double(index)), "recordingMode": .string(mode.rawValue)]
            }
        }
        router.put("/transport") { request, _ in
            await self.control(request) { body throws(ControlError) in
                _ = try device.setTransport(body)
                return device.current.jsonValue["transport"] ?? .null
            }
        }
        router.put("/audio") { request, _ in
            await self.control(request) { body throws(ControlError) in
                _ = try device.setAudio(body)
                return device.current.jsonValue["audio"] ?? .null
            }
        }
        return router
    }

    /// The router consulted for WebSocket upgrades: `GET /events` with `Upgrade: websocket`
    /// streams every record as one text message (optionally resuming `?after=SEQ`).
    public func makeWebSocketRouter() -> Router<Context> {
        let router = Router(context: Context.self)
        let hub = session.hub
        let configuration = self.configuration
        router.ws(
            "/events",
            shouldUpgrade: { _, _ in
                hub.subscriberCount >= configuration.maxStreamClients ? .dontUpgrade : .upgrade([:])
            }
        ) { inbound, outbound, context in
            let after = context.request.uri.queryParameters.get("after").flatMap { UInt64($0) }
            let subscription = hub.subscribe(kind: "websocket", after: after)
            defer { subscription.cancel() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await record in subscription.records where !record.isHeartbeat { try await outbound.write(.text(record.line)) }
                }
                group.addTask {
                    // The client closing (or sending anything) ends our interest in its input.
                    for try await _ in inbound {}
                    subscription.cancel()
                }
                try await group.next()
                group.cancelAll()
            }
        }
        return router
    }

    /// The Hummingbird application: HTTP/1.1 with WebSocket upgrade, bound per the configuration.
    /// Server logs go to stderr, critical ones only (a cancelled server logs its child channels as errors).
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "vigil-live") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .critical
        return Application(
            router: makeRouter(),
            server: makeServerBuilder(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "vigil-live"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// HTTP/1.1 with WebSocket upgrade and the configuration's timeouts: Hummingbird's idle
    /// timeout, and a ``RequestHeadDeadlineHandler`` in front for the first request head.
    func makeServerBuilder() -> HTTPServerBuilder {
        let webSocketResponder = makeWebSocketRouter().buildResponder()
        let http1 = HTTP1Channel.Configuration(idleTimeout: Self.timeAmount(configuration.idleTimeout))
        let headTimeout = Self.timeAmount(configuration.requestTimeout)
        let metrics = session.metrics
        return HTTPServerBuilder { responder in
            RequestHeadDeadlineChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: .init(http1: http1)),
                timeout: headTimeout, onTimeout: { metrics.requestTimedOut() })
        }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Builds the application and runs it until the task is cancelled; `onServerRunning`
    /// receives the bound port.
    ///
    /// - Throws: ``LiveServerListenError`` when the address cannot be listened on (port in use, no
    ///   permission, unknown address), otherwise the server's error.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        do {
            try await makeApplication(onServerRunning: onServerRunning).run()
        } catch let error as IOError {
            throw LiveServerListenError(host: configuration.host, port: configuration.port, errno: error.errnoCode, underlying: "\(error)")
        }
    }

    // MARK: Helpers

    /// Answers a request no endpoint matches with a JSON `NotFound` error, like the control errors.
    struct UnknownEndpointMiddleware: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                let reason = "no endpoint \(request.method) \(request.uri.path) (the endpoints are listed in docs/live.md)"
                return LiveServer.errorResponse(ControlError(status: "NotFound", field: "", reason: reason, httpStatus: 404))
            }
        }
    }

    static func json(_ status: Int, _ value: JSONValue) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: value.serialized(.compact) + "\n")))
    }

    static func errorResponse(_ error: ControlError) -> Response {
        var response = json(error.httpStatus, error.json)
        if error.httpStatus == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }

    /// Runs a control command: token check (401), body limit (413), JSON parse (400), the
    /// command (its Matter status), then the success JSON.
    ///
    /// A request refused before its body was read to the end (401, 413) is answered first and
    /// the rest of its body is then read and discarded, within ``refusedBodyDrainLimit`` and
    /// the request timeout, before the connection closes (``UnreadRequestBody``).
    func control(
        _ request: Request, status: Int = 200, needsBody: Bool = true, _ command: (JSONValue) throws(ControlError) -> JSONValue
    ) async -> Response {
        let response: Response
        var body = request.body.makeAsyncIterator()
        var bodyRead = false
        do throws(ControlError) {
            guard configuration.authorizes(request.headers[.authorization]) else {
                throw .unsupportedAccess(
                    request.headers[.authorization] == nil ? "missing Authorization: Bearer token" : "wrong bearer token")
            }
            let bytes = try await Self.readBody(
                &body, declaredLength: request.headers[.contentLength].flatMap { Int($0) }, limit: configuration.maxBodySize,
                timeout: configuration.requestTimeout)
            bodyRead = true
            let parsed: JSONValue = needsBody ? try ControlRequestDecoder.parse(bytes, maxDepth: configuration.maxBodyDepth) : .null
            if !needsBody && !bytes.isEmpty { throw .invalidCommand(field: "", "this request takes no body") }
            response = Self.json(status, try command(parsed))
        } catch {
            response =
                bodyRead
                ? Self.errorResponse(error)
                : Self.refusal(
                    error, unread: UnreadRequestBody(body), drainLimit: error.httpStatus == 408 ? 0 : Self.refusedBodyDrainLimit,
                    drainTime: configuration.requestTimeout)
        }
        session.metrics.controlRequest(status: Int(response.status.code))
        return response
    }

    /// How much of a refused request body the server reads and discards after its answer
    /// before it closes the connection (8 MiB): enough for any client that sends a whole
    /// oversized body before it reads, small and fast to discard.
    public static let refusedBodyDrainLimit = 8 << 20

    /// The request body, refusing more than `limit` bytes (by `declaredLength`, the
    /// Content-Length, or while reading) and a body still arriving after `timeout` (a client
    /// dripping bytes; one that stops sending altogether is closed by the idle timeout).
    /// Returns only after the whole body was read; on an error the rest is still in `body`.
    static func readBody(
        _ body: inout RequestBody.AsyncIterator, declaredLength: Int?, limit: Int, timeout: Duration
    ) async throws(ControlError) -> [UInt8] {
        if let declaredLength, declaredLength > limit { throw .tooLarge(limit: limit) }
        var bytes: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        do {
            while let buffer = try await body.next() {
                if clock.now > deadline { throw ControlError.timedOut(timeout) }
                if bytes.count + buffer.readableBytes > limit { throw ControlError.tooLarge(limit: limit) }
                bytes += buffer.readableBytesView
            }
        } catch let error as ControlError {
            throw error
        } catch {
            throw .invalidCommand(field: "", "cannot read the request body: \(error)")
        }
        return bytes
    }

    /// The answer to a request refused before its body was read: the error JSON (with
    /// `Content-Length`), sent at once, then the lingering close that nginx and Apache do. The server keeps reading and discarding the unread body, at most
    /// `drainLimit` bytes and for at most `drainTime`, before the connection closes.
    ///
    /// Closing a socket with unread data in its receive buffer makes the kernel send a reset,
    /// and a reset can destroy the answer before the client reads it. A client still sending
    /// its body would then see only a failed write. Draining lets the client finish its write
    /// and read the answer. A body larger than the limit, or one still arriving after
    /// `drainTime`, ends the drain and the connection; `drainLimit` 0 closes at once (408).
    /// A body drained to its end leaves a keep-alive connection usable.
    static func refusal(_ error: ControlError, unread: UnreadRequestBody, drainLimit: Int, drainTime: Duration) -> Response {
        let payload = ByteBuffer(string: error.json.serialized(.compact) + "\n")
        var headers: HTTPFields = [.contentType: "application/json"]
        if error.httpStatus == 401 { headers[.wwwAuthenticate] = "Bearer" }
        let body = ResponseBody(contentLength: payload.readableBytes) { writer in
            try await writer.write(payload)
            try await unread.drain(limit: drainLimit, time: drainTime)
            try await writer.finish(nil)
        }
        return Response(status: HTTPResponse.Status(code: error.httpStatus), headers: headers, body: body)
    }
}

/// The rest of a refused request's body, handed from the handler that refused it to the
/// response that drains it (``LiveServer/refusal(_:unread:drainLimit:drainTime:)``).
///
/// Hummingbird writes a response body only after the handler has returned, so the iterator is
/// used by one task at a time; that is what makes the unchecked sendability sound.
final class UnreadRequestBody: @unchecked Sendable {
    private var iterator: RequestBody.AsyncIterator

    init(_ iterator: RequestBody.AsyncIterator) { self.iterator = iterator }

    /// Why a drain ended before the body did; the error closes the connection.
    struct DrainEnded: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads and discards the rest of the body. Throws ``DrainEnded`` when more than `limit`
    /// bytes remain or the body is still arriving after `time`.
    func drain(limit: Int, time: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: time)
        var discarded = 0
        if limit == 0 { throw DrainEnded(description: "refused request body: not read") }
        while discarded <= limit, clock.now <= deadline {
            guard let buffer = try await iterator.next() else { return }
            discarded += buffer.readableBytes
        }
        throw DrainEnded(description: "refused request body: stopped discarding after \(discarded) bytes")
    }
}
