import Foundation
import Testing
import VigilMedia
import VigilTestSupport

/// The shared loopback RTSP camera (VigilTestSupport), serving video only here.
typealias RTSPCamera = RTSPTestCamera

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
            // One reconnect per restart, or more where the camera's start tried a new relay (see
            // RTSPTestCamera.relayLaunches): never more than the relays started since the first.
            #expect(
                restart...max(restart, camera.relayLaunches - 1) ~= reader.status.reconnects,
                "\(camera.relayLaunches) relays started: \(reader.status)")
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
