import Testing
import VigilMedia

@Suite("ReconnectPolicy")
struct ReconnectPolicyTests {
    @Test("delays grow exponentially up to the bound")
    func backoff() {
        let policy = ReconnectPolicy(initialDelay: 0.5, maximumDelay: 4, multiplier: 2)
        #expect((1...7).map(policy.delay(afterFailures:)) == [0.5, 1, 2, 4, 4, 4, 4])
        #expect(policy.allowsRetry(afterFailures: 1_000_000))
        #expect(policy.delay(afterFailures: 10_000) == 4, "no overflow after many failures")
    }

    @Test("the attempt limit and clamping")
    func limits() {
        let policy = ReconnectPolicy(initialDelay: 1, maximumDelay: 10, multiplier: 3, maximumAttempts: 2)
        #expect(policy.allowsRetry(afterFailures: 1) && policy.allowsRetry(afterFailures: 2) && !policy.allowsRetry(afterFailures: 3))
        #expect(!ReconnectPolicy.never.allowsRetry(afterFailures: 1))
        let clamped = ReconnectPolicy(initialDelay: -1, maximumDelay: .nan, multiplier: 0.5, maximumAttempts: -3)
        #expect(clamped.initialDelay == 0 && clamped.multiplier == 1 && clamped.maximumAttempts == 0)
        #expect(ReconnectPolicy(initialDelay: 5, maximumDelay: 1).maximumDelay == 5, "the bound is at least the first delay")
    }
}

@Suite("AnalysisFrameSelector")
struct AnalysisFrameSelectorTests {
    @Test("25 fps to 5 fps keeps every fifth frame; timestamps rounded down by the time base still count")
    func subsampling() {
        var selector = AnalysisFrameSelector(fps: 5)
        let times: [Double] = (0..<50).map { (index: Int) -> Double in
            let early: Double = index % 5 == 0 ? 0.0001 : 0
            return Double(index) / 25 - early
        }
        let kept = times.enumerated().filter { selector.select(time: $0.element) }.map(\.offset)
        #expect(kept == Array(stride(from: 0, to: 50, by: 5)))
    }

    @Test("a source slower than the analysis rate keeps every frame; a gap skips the missed slots")
    func slowSource() {
        var selector = AnalysisFrameSelector(fps: 5)
        #expect([0, 0.5, 1.0, 1.5].allSatisfy { selector.select(time: $0) })
        #expect(!selector.select(time: 1.55) && selector.select(time: 10) && !selector.select(time: 10.1) && selector.select(time: 10.2))
        var all = AnalysisFrameSelector(fps: nil)
        #expect(all.select(time: 0) && all.select(time: 0.001))
    }
}

@Suite("StreamTimeline")
struct StreamTimelineTests {
    func audio(_ time: Double, _ count: Int) -> MediaChunk {
        .audio(MediaAudioChunk(time: time, sampleRate: 100, samples: [Float](repeating: 0, count: count)))
    }
    func video(_ time: Double) -> MediaChunk { .video(MediaLumaFrame(index: 0, time: time, width: 1, height: 1, luma: [0])) }

    @Test("a new segment continues where the last one ended, audio and video with one offset")
    func segments() {
        var timeline = StreamTimeline()
        #expect(timeline.place(audio(0, 100), frameDuration: 0.2).time == 0)
        #expect(timeline.place(video(0.8), frameDuration: 0.2).time == 0.8)
        #expect(timeline.place(audio(1, 50), frameDuration: 0.2).time == 1)
        #expect(timeline.end == 1.5)
        timeline.beginSegment()
        // The new connection's clock starts again near 0.
        #expect(timeline.place(video(0.04), frameDuration: 0.2).time == 1.5)
        #expect(abs(timeline.place(audio(0.1, 100), frameDuration: 0.2).time - 1.56) < 1e-12)
        #expect(abs(timeline.place(video(0.24), frameDuration: 0.2).time - 1.7) < 1e-12)
        #expect(timeline.segments == 2)
    }

    @Test("times never go back within a kind")
    func monotonic() {
        var timeline = StreamTimeline()
        _ = timeline.place(video(1.0), frameDuration: 0.2)
        #expect(timeline.place(video(0.9), frameDuration: 0.2).time == 1.2)
        _ = timeline.place(audio(0, 100), frameDuration: 0.2)
        #expect(timeline.place(audio(0.5, 10), frameDuration: 0.2).time == 1.0)
    }
}

@Suite("LiveMediaStreamReader logic")
struct LiveMediaStreamReaderLogicTests {
    /// A source that plays a list of results: chunks, then an error or the end.
    final class ScriptedSource: MediaChunkSource {
        let inputName = "scripted"
        var items: [Result<MediaChunk?, MediaReadError>]
        init(_ items: [Result<MediaChunk?, MediaReadError>]) { self.items = items }
        func nextChunk() throws(MediaReadError) -> MediaChunk? {
            guard !items.isEmpty else { return nil }
            return try items.removeFirst().get()
        }
    }

    final class Script: @unchecked Sendable {
        var connections: [Result<ScriptedSource, MediaReadError>]
        var sleeps: [Double] = []
        init(_ connections: [Result<ScriptedSource, MediaReadError>]) { self.connections = connections }
    }

    func frame(_ time: Double) -> MediaChunk { .video(MediaLumaFrame(index: 0, time: time, width: 1, height: 1, luma: [0])) }
    let refused = MediaReadError(.unreadable, input: "scripted", reason: "cannot open: Connection refused")
    let dropped = MediaReadError(.readFailed, input: "scripted", reason: "cannot read a packet: End of file")

    @Test("reconnects after drops and failed attempts with backoff, counting reconnects; the timeline stays monotonic")
    func reconnects() throws {
        let script = Script([
            .failure(refused),
            .success(ScriptedSource([.success(frame(0)), .success(frame(0.2)), .failure(dropped)])),
            .failure(refused), .failure(refused),
            .success(ScriptedSource([.success(frame(0)), .success(frame(0.2)), .success(nil)])),
            .success(
                ScriptedSource([.success(frame(5)), .failure(MediaReadError(.unsupportedCodec, input: "scripted", reason: "no decoder"))])),
        ])
        let reader = LiveMediaStreamReader(
            inputName: "scripted", policy: ReconnectPolicy(initialDelay: 1, maximumDelay: 3, multiplier: 2), frameDuration: 0.2,
            sleep: { script.sleeps.append($0) },
            open: { () throws(MediaReadError) -> any MediaChunkSource in try script.connections.removeFirst().get() })
        var times: [Double] = []
        #expect(throws: MediaReadError.self) {
            while let chunk = try reader.nextChunk() { times.append(chunk.time) }
        }
        let expectedTimes: [Double] = [0, 0.2, 0.4, 0.6, 0.8]
        let timesMatch = times.count == 5 && zip(times, expectedTimes).allSatisfy { abs($0 - $1) < 1e-9 }
        #expect(timesMatch, "\(times)")
        let status = reader.status
        #expect(status.state == .failed && status.reconnects == 2 && status.lastError?.kind == .unsupportedCodec)
        // Waits: 1 s after the refused first attempt; after the drop 1, 2, 4 -> capped 3; after the end 1.
        let slept: Double = script.sleeps.reduce(0, +)
        #expect(abs(slept - 8) < 1e-9, "\(script.sleeps)")
    }

    @Test("gives up after the policy's attempts with the last error; stop ends the reader")
    func givesUpAndStops() throws {
        let script = Script([.failure(refused), .failure(refused), .failure(refused)])
        let reader = LiveMediaStreamReader(
            inputName: "scripted", policy: ReconnectPolicy(initialDelay: 0.1, maximumAttempts: 2), frameDuration: 0.2,
            sleep: { script.sleeps.append($0) },
            open: { () throws(MediaReadError) -> any MediaChunkSource in try script.connections.removeFirst().get() })
        #expect(throws: MediaReadError.self) { _ = try reader.nextChunk() }
        #expect(reader.status.state == .failed && reader.status.consecutiveFailures == 3 && reader.status.reconnects == 0)

        let endless = LiveMediaStreamReader(
            inputName: "scripted", policy: .standard, frameDuration: 0.2, sleep: { _ in },
            open: { () throws(MediaReadError) -> any MediaChunkSource in
                ScriptedSource([.success(.video(MediaLumaFrame(index: 0, time: 0, width: 1, height: 1, luma: [0])))])
            })
        #expect(try endless.nextChunk() != nil)
        endless.monitor.stop()
        #expect(try endless.nextChunk() == nil)
        #expect(endless.status.state == .stopped)
    }
}

@Suite("MediaInputName")
struct MediaInputNameTests {
    @Test("passwords are never printed")
    func redaction() {
        #expect(MediaInputName.redacted("rtsp://admin:secret@10.0.0.5:554/stream1") == "rtsp://admin:***@10.0.0.5:554/stream1")
        #expect(MediaInputName.redacted("rtsp://cam.local/a@b") == "rtsp://cam.local/a@b")
        #expect(MediaInputName.redacted("clip.mp4") == "clip.mp4")
        #expect(
            MediaInputName.isNetworkURL("srt://127.0.0.1:9000") && !MediaInputName.isNetworkURL("file:///x.mp4")
                && !MediaInputName.isNetworkURL("a.mp4"))
    }

    @Test("options out of range are an error naming the input")
    func badOptions() {
        #expect(throws: MediaReadError.self) {
            try MediaContainerReader(input: "x.mp4", options: MediaReaderOptions(readsAudio: false, readsVideo: false))
        }
        do {
            _ = try MediaContainerReader(input: "x.mp4", options: MediaReaderOptions(analysisFPS: 0))
        } catch {
            #expect(error.kind == .invalidOptions && error.description.hasPrefix("x.mp4: "))
        }
    }
}
