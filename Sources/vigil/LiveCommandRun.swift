import Foundation
import VigilLive

/// The asynchronous part of `vigil live`: runs the HTTP server and the pacer until the source
/// ends (or Ctrl-C), then shuts down; optionally measures latency with an internal SSE client.
enum LiveCommandRun {
    /// Runs `body` on the concurrency pool and blocks the calling thread until it returns.
    static func block(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Task.detached {
            box.value = await body()
            semaphore.signal()
        }
        semaphore.wait()
        return box.value
    }

    final class ResultBox: @unchecked Sendable { var value: Int32 = 0 }

    static func serve(server: LiveServer, runner: LiveRunner, host: String, measure: Bool, linger: Bool, output: StdoutLineWriter) async -> Int32 {
        let started = AsyncStream<Int>.makeStream()
        // Ctrl-C / SIGTERM finish the stream cleanly (an "end" record), then the server stops.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { runner.stop() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }

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
            let report = await probe.report(runner: runner)
            output.writeAlways(report.json.serialized(.compact))
        }
        if linger {
            FileHandle.standardError.write(Data("vigil live: source ended; still serving (Ctrl-C to stop)\n".utf8))
            let stopped = AsyncStream<Void>.makeStream()
            for source in sources { source.setEventHandler { stopped.continuation.finish() } }
            for await _ in stopped.stream {}
        }
        serverTask.cancel()
        await serverTask.value
        if let error = runner.error {
            FileHandle.standardError.write(Data("vigil live: \(runner.source.name): \(error)\n".utf8))
            return 1
        }
        return 0
    }
}
