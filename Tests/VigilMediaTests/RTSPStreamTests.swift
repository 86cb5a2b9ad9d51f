import Foundation
import NIOConcurrencyHelpers
import Testing
import VigilMedia

/// An RTSP server on loopback standing for a camera: Debian's rtsp-server-perl relay fed by
/// `ffmpeg -re ... -f rtsp` with a clip in a loop. ``stop()`` kills both (a camera losing power:
/// the relay keeps a killed publisher's mount, so both restart), ``start()`` brings them back on
/// the same ports.
final class RTSPCamera: Sendable {
    /// The running processes and the number of starts so far.
    private struct Processes {
        var relay: Process?
        var publisher: Process?
        var runs = 0
    }

    /// Held by start() and stop(): a stop waits for a start running on another thread.
    private let processes = NIOLockedValueBox(Processes())
    let directory: URL
    let clientPort: Int
    let sourcePort: Int
    let clip: URL

    init(clip: URL) throws {
        directory = try temporaryDirectory()
        self.clip = clip
        clientPort = freeLoopbackPort()
        sourcePort = freeLoopbackPort()
        try start()
    }

    var url: String { "rtsp://127.0.0.1:\(clientPort)/cam" }

    /// Starts the relay, waits until it listens, then the publisher; a publisher that gives up
    /// (the relay not ready under load) is started again.
    func start() throws {
        try processes.withLockedValue { processes in
            processes.runs += 1
            let runs = processes.runs
            processes.relay = try VigilMediaTests.start(
                [
                    "rtsp-server-perl", "--clientport", "\(clientPort)", "--serverport", "\(sourcePort)", "--client_listen_address",
                    "127.0.0.1", "--source_listen_address", "127.0.0.1", "--rtp_start_port", "\(20_000 + (clientPort % 20_000))", "-l", "0",
                ], log: directory.appendingPathComponent("relay-\(runs).log"))
            guard wait(seconds: 30, until: { portAccepts(sourcePort) && portAccepts(clientPort) }) else {
                throw CommandFailed(description: "rtsp-server-perl did not listen on \(sourcePort) and \(clientPort)")
            }
            var lastLog = ""
            for attempt in 1...10 {
                let log = directory.appendingPathComponent("publisher-\(runs)-\(attempt).log")
                let process = try VigilMediaTests.start(
                    [
                        "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", clip.path, "-an", "-c:v", "copy",
                        "-f", "rtsp", "rtsp://127.0.0.1:\(sourcePort)/cam",
                    ], log: log)
                processes.publisher = process
                Thread.sleep(forTimeInterval: Double(min(attempt, 3)))
                if process.isRunning { return }
                lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            }
            throw CommandFailed(description: "ffmpeg could not publish to the relay in 10 attempts; the last said: \(lastLog)")
        }
    }

    func stop() {
        processes.withLockedValue { processes in
            if let publisher = processes.publisher { kill(publisher) }
            if let relay = processes.relay { kill(relay) }
            processes.publisher = nil
            processes.relay = nil
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("Live RTSP stream", .serialized, .enabled(if: rtspServerAvailable, "needs ffmpeg and rtsp-server-perl (Debian packages)"))
struct RTSPStreamTests {
    @Test("an RTSP stream is read, and the reader reconnects across three restarts of the camera with a monotonic timeline")
    func reconnectsAcrossRestart() throws {
        let media = try GeneratedMedia.shared.get()
        let camera = try RTSPCamera(clip: media.videoOnly)
        let reader = LiveMediaStreamReader(
            input: camera.url, options: MediaReaderOptions(analysisFPS: 5, openTimeout: 3, readTimeout: 2),
            policy: ReconnectPolicy(initialDelay: 0.2, maximumDelay: 1, maximumAttempts: 30))
        var times: [Double] = []
        func readFrames(_ count: Int) throws {
            var read = 0
            while read < count, let chunk = try reader.nextChunk() {
                if case .video(let frame) = chunk {
                    #expect(frame.width == 128 && frame.height == 72 && frame.luma.count == 128 * 72)
                    times.append(frame.time)
                    read += 1
                }
            }
        }
        try readFrames(5)
        #expect(reader.status.state == .connected && reader.status.reconnects == 0)
        // The camera goes away and comes back while the reader waits; three times.
        for restart in 1...3 {
            camera.stop()
            let comeBack = Thread { try? camera.start() }
            comeBack.start()
            // Frames already received before the drop still come first.
            while reader.status.reconnects < restart, try reader.nextChunk() != nil {}
            try readFrames(5)
            #expect(reader.status.reconnects == restart, "\(reader.status)")
        }
        let status = reader.status
        #expect(status.reconnects >= 3 && status.state == .connected, "\(status)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "the timeline goes back: \(times)")
        // Frames a fifth of a second apart (a frame or two more at the seam).
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.filter { abs($0 - 0.2) < 0.05 }.count >= steps.count - 6, "\(steps)")
        reader.monitor.stop()
        #expect(try reader.nextChunk() == nil)
    }
}
