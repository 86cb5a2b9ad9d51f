import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import VigilControl
import VigilCore
import VigilDevice
import VigilFrameIO
import VigilImaging
import VigilLive
import VigilPipeline
import VigilServerTesting

/// A small deterministic camera picture: a textured static background and bright squares.
enum MovingSquares {
    static let width = 160
    static let height = 120

    /// The background: a gradient with a blocky texture (levels about 40...150).
    static let background: [UInt8] = {
        var state: UInt32 = 12_345
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixels[y * width + x] = UInt8(40 + x * 50 / width + y * 30 / height + Int(state >> 28) + ((x / 8 + y / 8) % 2) * 10)
            }
        }
        return pixels
    }()

    /// The picture at `time`: a 24 x 20 square at level 235 sweeping `band` (x range, top row)
    /// while `time` is in one of `windows`.
    static func luma(at time: Double, squares: [(windows: [ClosedRange<Double>], xRange: ClosedRange<Int>, top: Int)]) -> [UInt8] {
        var pixels = background
        for square in squares where square.windows.contains(where: { $0.contains(time) }) {
            let span = square.xRange.upperBound - square.xRange.lowerBound - 24
            let phase = Int(time * 30) % (2 * span)
            let left = square.xRange.lowerBound + (phase < span ? phase : 2 * span - phase)
            for y in square.top..<(square.top + 20) {
                for x in left..<(left + 24) { pixels[y * width + x] = 235 }
            }
        }
        return pixels
    }

    /// Frames at `fps` from 0 to `duration`.
    static func frames(
        duration: Double, fps: Double = 10, squares: [(windows: [ClosedRange<Double>], xRange: ClosedRange<Int>, top: Int)]
    ) -> [VideoFrame] {
        (0..<Int(duration * fps)).map { i in
            let time = Double(i) / fps
            let image = RasterImage(width: width, height: height, format: .gray, pixels: luma(at: time, squares: squares))
            return VideoFrame(index: i, time: time, picture: .raster(image))
        }
    }
}

@Suite("Live video: motion in zones from y4m frames")
struct VideoStreamTests {
    /// The front-door device in cvr: zone 1 "Porch" (grid y 1200...2048: rows 70...119 of a
    /// 160 x 120 frame) has a zone trigger; motion elsewhere is not reported (motionZones: [1]).
    static func stack() throws -> (LiveTestSupport.Stack, LiveSession) {
        let device = try LiveTestSupport.frontDoor(mode: 0)
        let controller = DeviceController(device: device)
        let metrics = LiveMetrics()
        let hub = EventHub(clientBufferCapacity: 512, historyCapacity: 4096, metrics: metrics)
        let session = LiveSession(videoSourceName: "camera", device: controller, hub: hub, metrics: metrics)
        let server = LiveServer(session: session, configuration: LiveServerConfiguration(host: "127.0.0.1", port: 0))
        return (LiveTestSupport.Stack(controller: controller, metrics: metrics, hub: hub, session: session, server: server), session)
    }

    /// Motion in the porch zone, and in the upper left before and after a zone is created
    /// there through the control API: only the motion after the change is reported, in the new zone.
    @Test func zoneMotionAndAZoneCreatedMidStream() async throws {
        let (stack, session) = try Self.stack()
        let frames = MovingSquares.frames(
            duration: 14,
            squares: [
                (windows: [2...4], xRange: 30...130, top: 90),  // porch (zone 1)
                (windows: [3...4.5, 8...10], xRange: 4...70, top: 8),  // upper left: no zone until 6 s
            ])
        try await stack.server.withTestClient { client in
            for frame in frames where frame.time < 6 { session.process(frame: frame) }
            let created = try await client.execute(
                uri: "/zones", method: .post,
                body: LiveTestSupport.body(
                    #"{"name":"Drive","use":"motion","vertices":[{"x":0,"y":0},{"x":1000,"y":0},{"x":1000,"y":700},{"x":0,"y":700}]}"#))
            #expect(created.status == .created)
            let zoneID = try #require(LiveTestSupport.json(created)["zoneID"]?.intValue)
            for frame in frames where frame.time >= 6 { session.process(frame: frame) }
            session.finish()
            let body = String(buffer: try await client.execute(uri: "/events?after=0", method: .get).body)
            let messages = LiveTestSupport.sseMessages(body)
            #expect(messages.allSatisfy { $0.json["file"]?.stringValue == "camera" })
            let change = try #require(messages.first { $0.event == "deviceChanged" })
            #expect(abs((change.json["time"]?.doubleValue ?? 0) - 6) < 1e-6)
            let started = messages.filter { $0.event == "eventStarted" }.map(\.json)
            let events = messages.filter { $0.event == "event" }.map(\.json)
            // Porch: announced when the motion began, final when the zone trigger stopped.
            let porch = try #require(started.first { $0["zone"]?.intValue == 1 })
            #expect(abs((porch["detectedAt"]?.doubleValue ?? 0) - 2.1) < 0.25, "\(porch)")
            #expect(porch["trigger"]?.stringValue == "motion")
            #expect(messages.contains { $0.event == "zoneTriggered" && $0.json["zone"]?.intValue == 1 })
            let porchFinal = try #require(events.first { $0["zone"]?.intValue == 1 })
            #expect(porchFinal["id"] == porch["id"])
            // Upper left: nothing before the zone existed; the new zone from the change on.
            let drive = started.filter { $0["zone"]?.intValue == zoneID }
            #expect(!drive.isEmpty)
            #expect(drive.allSatisfy { ($0["detectedAt"]?.doubleValue ?? 0) >= 8 }, "\(drive)")
            #expect(events.contains { $0["zone"]?.intValue == zoneID })
            #expect(events.allSatisfy { $0["zone"]?.intValue == 1 || $0["zone"]?.intValue == zoneID }, "\(events)")
            #expect(messages.last?.event == "end")
        }
    }

    /// Frames paced by their media time through the runner, with records to a callback (as
    /// stdout gets them).
    @Test func pacedRunnerStreamsFramesAtTheirMediaTime() async throws {
        let lines = LineCollector()
        let controller = DeviceController(device: try LiveTestSupport.frontDoor(mode: 0))
        let metrics = LiveMetrics()
        let session = LiveSession(
            videoSourceName: "camera", device: controller, hub: EventHub(clientBufferCapacity: 16, metrics: metrics), metrics: metrics,
            onRecord: { lines.append($0.line) })
        let frames = MovingSquares.frames(duration: 4, fps: 20, squares: [(windows: [0.5...3.5], xRange: 30...130, top: 90)])
        let runner = LiveRunner(session: session, source: FrameListSource(frames: frames, name: "camera"), options: .init(speed: 8))
        let started = LiveClock.now()
        runner.start()
        await runner.wait()
        #expect(LiveClock.now() - started >= 3.9 / 8 * 0.9, "paced by the frames' media time")
        #expect(runner.error == nil)
        let records = lines.all
        #expect(records.contains { $0.contains(#""type":"eventStarted""#) && $0.contains(#""zone":1"#) })
        #expect(records.contains { $0.contains(#""type":"event""#) && $0.contains(#""zone":1"#) })
        #expect(records.last?.contains(#""type":"end""#) == true)
        #expect(metrics.prometheusText().contains("vigil_live_events_total{trigger=\"motion\"} 1"))
    }
}

/// Lines collected from the processing thread.
final class LineCollector: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])
    func append(_ line: String) { lines.withLockedValue { $0.append(line) } }
    var all: [String] { lines.withLockedValue { $0 } }
}
