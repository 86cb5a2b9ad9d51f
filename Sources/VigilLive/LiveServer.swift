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
        let session = self.session
        let configuration = self.configuration
        router.get("/health") { _, _ in
            let metrics = session.metrics
            let body: JSONValue = [
                "status": .string(session.isFinished ? "finished" : "ok"), "source": .string(session.sourceName),
                "mediaTime": .number((session.mediaTime * 1000).rounded() / 1000), "clients": .number(Double(metrics.connectedClients)),
                "lagSeconds": .number((metrics.currentLag * 1000).rounded() / 1000), "authRequired": .bool(configuration.token != nil),
            ]
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
        router.ws("/events", shouldUpgrade: { _, _ in
            hub.subscriberCount >= configuration.maxStreamClients ? .dontUpgrade : .upgrade([:])
        }) { inbound, outbound, context in
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
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await makeApplication(onServerRunning: onServerRunning).run()
    }

    // MARK: Helpers

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
    func control(
        _ request: Request, status: Int = 200, needsBody: Bool = true, _ command: (JSONValue) throws(ControlError) -> JSONValue
    ) async -> Response {
        let response: Response
        do throws(ControlError) {
            guard configuration.authorizes(request.headers[.authorization]) else {
                throw .unsupportedAccess(
                    request.headers[.authorization] == nil ? "missing Authorization: Bearer token" : "wrong bearer token")
            }
            let bytes = try await Self.readBody(request, limit: configuration.maxBodySize, timeout: configuration.requestTimeout)
            let body: JSONValue = needsBody ? try ControlRequestDecoder.parse(bytes, maxDepth: configuration.maxBodyDepth) : .null
            if !needsBody && !bytes.isEmpty { throw .invalidCommand(field: "", "this request takes no body") }
            response = Self.json(status, try command(body))
        } catch {
            response = Self.errorResponse(error)
        }
        session.metrics.controlRequest(status: Int(response.status.code))
        return response
    }

    /// The request body, refusing more than `limit` bytes (by Content-Length or while reading)
    /// and a body still arriving after `timeout` (a client dripping bytes; one that stops
    /// sending altogether is closed by the idle timeout).
    static func readBody(_ request: Request, limit: Int, timeout: Duration) async throws(ControlError) -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw .tooLarge(limit: limit) }
        var bytes: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        do {
            for try await buffer in request.body {
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
}
