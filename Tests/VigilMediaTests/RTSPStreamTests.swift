import Foundation
import Testing
import VigilMedia

/// An RTSP relay on loopback (Debian's rtsp-server-perl) fed by `ffmpeg -re ... -f rtsp`: the
/// publisher can be stopped and started again to drop the stream under a reader.
final class RTSPRelay {
    let directory: URL
    let clientPort: Int
    let sourcePort: Int
    let relay: Process
    var publisher: Process?
    let clip: URL

    init(clip: URL) throws {
        directory = try temporaryDirectory()
        self.clip = clip
        clientPort = freeLoopbackPort()
        sourcePort = freeLoopbackPort()
        relay = try start(
            [
                "rtsp-server-perl", "--clientport", "\(clientPort)", "--serverport", "\(sourcePort)", "--client_listen_address", "127.0.0.1",
                "--source_listen_address", "127.0.0.1", "--rtp_start_port", "\(20_000 + (clientPort % 20_000))", "-l", "0",
            ], log: directory.appendingPathComponent("relay.log"))
        Thread.sleep(forTimeInterval: 1)
    }

    var url: String { "rtsp://127.0.0.1:\(clientPort)/cam" }

    /// Publishes the clip in a loop, paced in real time.
    func startPublishing() throws {
        publisher = try start(
            [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", clip.path, "-an", "-c:v", "copy", "-f", "rtsp",
                "rtsp://127.0.0.1:\(sourcePort)/cam",
            ], log: directory.appendingPathComponent("publisher-\(UUID().uuidString).log"))
        Thread.sleep(forTimeInterval: 1)
    }

    func stopPublishing() {
        if let publisher { stop(publisher) }
        publisher = nil
    }

    deinit {
        stopPublishing()
        stop(relay)
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("Live RTSP stream", .serialized, .enabled(if: rtspServerAvailable, "needs ffmpeg and rtsp-server-perl (Debian packages)"))
struct RTSPStreamTests {
    @Test("an RTSP stream is read, and the reader reconnects across a restart of the stream with a monotonic timeline")
    func reconnectsAcrossRestart() throws {
        let media = try GeneratedMedia.shared.get()
        let relay = try RTSPRelay(clip: media.videoOnly)
        try relay.startPublishing()
        let reader = LiveMediaStreamReader(
            input: relay.url, options: MediaReaderOptions(analysisFPS: 5, openTimeout: 3, readTimeout: 2),
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
        // Drop the stream; start it again while the reader waits.
        relay.stopPublishing()
        let restart = Thread { try? relay.startPublishing() }
        Thread.sleep(forTimeInterval: 0.5)
        restart.start()
        try readFrames(5)
        let status = reader.status
        #expect(status.reconnects >= 1 && status.state == .connected, "\(status)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "the timeline goes back: \(times)")
        // Frames a fifth of a second apart (a frame or two more at the seam).
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.filter { abs($0 - 0.2) < 0.05 }.count >= steps.count - 2, "\(steps)")
        reader.monitor.stop()
        #expect(try reader.nextChunk() == nil)
    }
}
