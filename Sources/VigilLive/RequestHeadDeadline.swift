import HummingbirdCore
import Logging
import NIOCore

/// Closes a connection whose first request head (everything up to the blank line that ends the
/// headers) has not arrived within `timeout`: a slowloris client that opens connections and
/// drips header bytes holds none of them for longer. Sits first in the pipeline, on raw bytes.
///
/// Hummingbird's own idle timeout covers the rest: it starts once a request head has been
/// decoded (with the WebSocket upgrade channel its handler is added only then), and closes a
/// keep-alive connection that sends no next request within ``LiveServerConfiguration/idleTimeout``.
final class RequestHeadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let onTimeout: @Sendable () -> Void
    private var deadline: Scheduled<Void>?
    /// Whether the input so far ends with a line feed (carriage returns ignored).
    private var sawLineFeed = false
    private var headComplete = false

    init(timeout: TimeAmount, onTimeout: @escaping @Sendable () -> Void = {}) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headComplete {
            let buffer = unwrapInboundIn(data)
            for byte in buffer.readableBytesView {
                // A blank line ends the head: "\r\n\r\n", or "\n\n" from lenient clients.
                if byte == 10 {
                    if sawLineFeed {
                        headComplete = true
                        disarm()
                        break
                    }
                    sawLineFeed = true
                } else if byte != 13 {
                    sawLineFeed = false
                }
            }
        }
        context.fireChannelRead(data)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil, !headComplete else { return }
        let channel = context.channel
        let onTimeout = self.onTimeout
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            onTimeout()
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

/// Closes a connection whose first request could not be parsed. With the WebSocket-upgrade
/// pipeline the HTTP decoder's errors before the first request head reach no handler that
/// answers them (Hummingbird's takes over only after the head), so garbage bytes would hold the
/// connection open forever. Sits last in the pipeline set up for the connection and removes
/// itself once the first decoded request part passes (Hummingbird handles errors from then on).
final class FirstRequestErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private var passed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        if !passed {
            passed = true
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if passed {
            context.fireErrorCaught(error)
        } else {
            context.close(promise: nil)
        }
    }
}

/// A server child channel that puts a ``RequestHeadDeadlineHandler`` in front of `base`.
struct RequestHeadDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let timeout: TimeAmount
    let onTimeout: @Sendable () -> Void

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadDeadlineHandler(timeout: timeout, onTimeout: onTimeout), position: .first)
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(FirstRequestErrorHandler(), position: .last)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
