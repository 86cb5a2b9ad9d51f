import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import VigilPipeline

/// A live run as a service: `vigil live`'s asynchronous part, one service in a ServiceGroup that shuts down
/// gracefully on SIGINT and SIGTERM (as Hummingbird's applications do). It runs the HTTP server
/// and the pacer until the source ends (or a signal arrives: the pacer stops after its current
/// block, the session flushes its pending records and the "end" record to stdout and the stream
/// clients), then stops the server; optionally measures latency with an internal SSE client.
public struct LiveService: Service {
    /// How a live run ended.
    public enum Outcome: Sendable {
        /// The source ended, or a signal stopped the run; everything was flushed.
        case finished
        /// The source failed while streaming (the error was printed).
        case sourceFailed
        /// The server could not listen (the reason was printed).
        case cannotListen
    }

    /// The HTTP server.
    public var server: LiveServer
    /// The pacer feeding the session.
    public var runner: LiveRunner
    /// The host listened on (for messages and the latency probe).
    public var host: String
    /// Measure SSE delivery latency with an internal client.
    public var measure: Bool
    /// Keep serving after the source ends, until a signal.
    public var linger: Bool
    /// Where the latency report goes (stdout, even with --quiet).
    public var report: JSONLinesSink
    private let status = StatusBox()

    /// How the run ended, set by the service and read once the group has ended.
    final class StatusBox: Sendable {
        private let outcome = NIOLockedValueBox(Outcome.finished)
        var value: Outcome {
            get { outcome.withLockedValue { $0 } }
            set { outcome.withLockedValue { $0 = newValue } }
        }
    }

    /// A service running `server` and `runner`.
    public init(server: LiveServer, runner: LiveRunner, host: String, measure: Bool, linger: Bool, report: JSONLinesSink) {
        (self.server, self.runner, self.host, self.measure, self.linger, self.report) = (server, runner, host, measure, linger, report)
    }

    /// Runs the service in a group with SIGTERM and SIGINT as graceful-shutdown signals; returns how it ended.
    public func runGroup() async -> Outcome {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: self, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: Logger(label: "vigil-live", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch {
            FileHandle.standardError.write(Data("vigil live: \(error)\n".utf8))
            return .sourceFailed
        }
        return status.value
    }

    /// Serves until the source ends (or a graceful shutdown), then flushes and stops the server.
    public func run() async throws {
        let runner = self.runner
        status.value = await withGracefulShutdownHandler {
            await serve()
        } onGracefulShutdown: {
            runner.stop()
        }
    }

    private func serve() async -> Outcome {
        let started = AsyncStream<Int>.makeStream()
        let serverTask = Task {
            do {
                try await server.run { port in started.continuation.yield(port) }
            } catch let error as LiveServerListenError {
                FileHandle.standardError.write(Data("vigil live: \(error)\n".utf8))
                started.continuation.finish()
            } catch {
                FileHandle.standardError.write(Data("vigil live: cannot serve on \(host):\(server.configuration.port): \(error)\n".utf8))
                started.continuation.finish()
            }
        }
        var port: Int?
        for await value in started.stream {
            port = value
            break
        }
        guard let port else { return .cannotListen }
        let probeHost = host == "0.0.0.0" || host == "::" || host == "localhost" ? "127.0.0.1" : host
        let shown = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardError.write(Data("vigil live: listening on http://\(shown):\(port) (source \(runner.source.name))\n".utf8))
        var probe: LatencyProbe?
        if measure {
            do {
                probe = try LatencyProbe(host: probeHost, port: port)
                probe?.start()
            } catch {
                FileHandle.standardError.write(Data("vigil live: latency probe: \(error)\n".utf8))
            }
        }
        runner.start()
        await runner.wait()
        if let probe {
            let latency = await probe.report(runner: runner)
            report.receive([OutputRecord(latency.json)])
        }
        if linger {
            FileHandle.standardError.write(Data("vigil live: source ended; still serving (Ctrl-C to stop)\n".utf8))
            try? await gracefulShutdown()
        }
        serverTask.cancel()
        await serverTask.value
        if let error = runner.error {
            FileHandle.standardError.write(Data("vigil live: \(runner.source.name): \(error)\n".utf8))
            return .sourceFailed
        }
        return .finished
    }

    /// Runs the group on the concurrency pool and blocks the calling thread until it ends
    /// (for a synchronous `main`).
    public func runGroupBlocking() -> Outcome {
        let semaphore = DispatchSemaphore(value: 0)
        let box = StatusBox()
        Task.detached {
            box.value = await runGroup()
            semaphore.signal()
        }
        semaphore.wait()
        return box.value
    }
}
