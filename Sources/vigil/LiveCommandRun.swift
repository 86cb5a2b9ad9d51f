import Foundation
import Logging
import ServiceLifecycle
import VigilLive
import VigilPipeline

/// The asynchronous part of `vigil live`: one service in a ServiceGroup that shuts down
/// gracefully on SIGINT and SIGTERM (as Hummingbird's applications do). It runs the HTTP server
/// and the pacer until the source ends (or a signal arrives: the pacer stops after its current
/// block, the session flushes its pending records and the "end" record to stdout and the stream
/// clients), then stops the server; optionally measures latency with an internal SSE client.
struct LiveCommandRun: Service {
    var server: LiveServer
    var runner: LiveRunner
    var host: String
    var measure: Bool
    var linger: Bool
    /// Where the latency report goes (stdout, even with --quiet).
    var report: JSONLinesSink
    /// The exit status, set when the service returns.
    let status = StatusBox()

    final class StatusBox: @unchecked Sendable { var value: Int32 = 0 }

    /// Runs the service group and returns the exit status.
    func runGroup() async -> Int32 {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: self, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: Logger(label: "vigil-live", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch {
            FileHandle.standardError.write(Data("vigil live: \(error)\n".utf8))
            return 1
        }
        return status.value
    }

    func run() async throws {
        let runner = self.runner
        status.value = await withGracefulShutdownHandler {
            await serve()
        } onGracefulShutdown: {
            runner.stop()
        }
    }

    private func serve() async -> Int32 {
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
        guard let port else { return ExitStatus.usage }
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
            return 1
        }
        return 0
    }

    /// Runs `body` on the concurrency pool and blocks the calling thread until it returns.
    static func block(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let semaphore = DispatchSemaphore(value: 0)
        let box = StatusBox()
        Task.detached {
            box.value = await body()
            semaphore.signal()
        }
        semaphore.wait()
        return box.value
    }
}
