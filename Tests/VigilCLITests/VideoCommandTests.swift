import Foundation
import Testing
import VigilAnalysis
import VigilCore
import VigilImaging
import VigilTestSupport

/// A device in images mode: zone 1 "Left" (motion, trigger) covers x 0...900, zone 2 "Window"
/// (privacy) covers the right upper quarter; motion outside zones is not reported (motionZones [1]).
private let imagesDevice = """
    {"name": "Test camera", "twoDCartesianMax": {"x": 2048, "y": 2048}, "sensitivity": 5,
     "zones": [
       {"zoneID": 1, "zoneSource": "user", "name": "Left", "use": ["motion"],
        "vertices": [{"x": 0, "y": 0}, {"x": 900, "y": 0}, {"x": 900, "y": 2048}, {"x": 0, "y": 2048}], "color": "#00FF00"},
       {"zoneID": 2, "zoneSource": "user", "name": "Window", "use": ["privacy"],
        "vertices": [{"x": 1200, "y": 0}, {"x": 2048, "y": 0}, {"x": 2048, "y": 1000}, {"x": 1200, "y": 1000}]}],
     "triggers": [{"zoneID": 1, "initialDuration": 2, "augmentationDuration": 1, "maxDuration": 10, "blindDuration": 1, "sensitivity": 8}],
     "supportedEventTriggers": ["motion", "sound", "personTalking", "dogBark", "glassBreak", "smokeAlarm", "coAlarm"],
     "enabledEventTriggers": ["motion", "sound", "personTalking", "dogBark", "glassBreak", "smokeAlarm", "coAlarm"],
     "recordingMode": {"supportedRecordingModes": [{"recordingMode": "images", "maxDuration": 0, "expiryDurationSeconds": 86400}],
                       "availableRecordingModes": [0], "selectedRecordingMode": 0},
     "transport": {"transportStatus": "active", "triggerOptions": {"triggerType": "motion", "motionZones": [{"zone": 1}]}},
     "audio": {"microphoneMuted": false, "recordingMicrophoneMuted": false},
     "video": {"imageRotation": 0, "imageFlipHorizontal": false, "imageFlipVertical": false,
               "viewport": {"x1": 0, "y1": 0, "x2": 2048, "y2": 2048}, "nightVision": "auto"}}
    """

/// 160 x 90 luma frames at 10 fps: a textured background; from frame 10 to 30 a bright square
/// moves inside zone 1 (x < 70 px), growing at frame 22 (the peak); from frame 40 another square
/// moves only inside the privacy zone (x > 100, y < 40).
private func lumaFrame(_ i: Int) -> [UInt8] {
    let w = 160, h = 90
    var pixels = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h { for x in 0..<w { pixels[y * w + x] = UInt8(60 + (x * 7 + y * 13) % 40) } }
    func square(_ x0: Int, _ y0: Int, _ size: Int, _ level: UInt8) {
        for y in y0..<min(y0 + size, h) { for x in x0..<min(x0 + size, w) { pixels[y * w + x] = level } }
    }
    if (10...30).contains(i) { square(5 + (i - 10) * 2, 40, i == 22 ? 24 : 12, 240) }
    if i >= 40 { square(110 + (i - 40) % 20, 5 + (i % 10), 14, 250) }
    return pixels
}

private func y4m(frames: Int, colour: Bool) -> [UInt8] {
    var bytes = Array("YUV4MPEG2 W160 H90 F10:1 Ip A1:1 \(colour ? "C420jpeg" : "Cmono")\n".utf8)
    for i in 0..<frames {
        bytes += Array("FRAME\n".utf8)
        bytes += lumaFrame(i)
        if colour { bytes += [UInt8](repeating: 128, count: 2 * 80 * 45) }
    }
    return bytes
}

@Suite("vigil analyze --video / --frames, vigil zones draw", .serialized)
struct VideoCommandTests {
    func scene() throws -> (dir: URL, device: URL) {
        let dir = try temporaryDirectory()
        let device = dir.appendingPathComponent("device.json")
        try Data(imagesDevice.utf8).write(to: device)
        return (dir, device)
    }

    func checkMotionRecords(_ records: [JSONValue], file: String) throws {
        let events = records.filter { $0["type"]?.stringValue == "event" && $0["trigger"]?.stringValue == "motion" }
        #expect(events.count == 1, "\(records)")
        let event = try #require(events.first)
        #expect(event["file"]?.stringValue == file)
        #expect(event["zone"]?.doubleValue == 1)
        #expect(abs((event["start"]?.doubleValue ?? -1) - 1.1) < 0.25, "start \(String(describing: event["start"]))")
        // Snapshot at the peak (frame 22, 2.2 s).
        #expect(event["snapshot"]?["index"]?.doubleValue == 1)
        #expect(event["snapshot"]?["time"]?.doubleValue == 2.2)
        #expect(records.contains { $0["type"]?.stringValue == "zoneTriggered" && $0["zone"]?.doubleValue == 1 })
        #expect(!records.contains { $0["zone"]?.doubleValue == 2 }, "privacy zone reported")
    }

    @Test("--video FILE: motion in the zone, never in the privacy zone; snapshot at the peak with privacy black")
    func videoFile() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("clip.y4m")
        try Data(y4m(frames: 60, colour: true)).write(to: clip)
        let out = dir.appendingPathComponent("out")
        let result = try CommandRunner.run(
            ["analyze", "--video", clip.path, "--device", device.path, "--format", "jsonl", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        try checkMotionRecords(try parseLines(result), file: clip.path)
        let snapshotDir = out.appendingPathComponent("clip.y4m").appendingPathComponent("snapshots")
        let png = try Data(contentsOf: snapshotDir.appendingPathComponent("1.png"))
        let image = try PNGCodec.decode([UInt8](png))
        #expect(image.width == 160 && image.height == 90 && image.format == .rgb)
        // Privacy zone x 1200...2048 -> px 94...159, y 0...1000 -> py 0...43: all black.
        for y in 0...43 { for x in 94...159 { #expect(image.color(x: x, y: y) == .black, "(\(x), \(y))") } }
        // The zone outline is drawn in its colour.
        let green = RGBColor(red: 0, green: 255, blue: 0)
        #expect((0..<90).contains { image.color(x: 70, y: $0) == green || image.color(x: 69, y: $0) == green })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("clip.y4m").appendingPathComponent("events.jsonl").path))
    }

    @Test("--video - reads y4m from stdin (gray input)")
    func videoStdin() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("mono.y4m")
        try Data(y4m(frames: 60, colour: false)).write(to: clip)
        let result = try CommandRunner.run(["analyze", "--video", "-", "--device", device.path, "--format", "jsonl"], stdin: clip)
        #expect(result.status == 0, "\(result.stderr)")
        try checkMotionRecords(try parseLines(result), file: "stdin")
        #expect(result.stderr.contains("--out"), "images mode without --out should warn")
    }

    @Test("--frames DIR --fps: a PNG sequence gives the same motion")
    func frames() throws {
        let (dir, device) = try scene()
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        for i in 0..<60 {
            let image = RasterImage(width: 160, height: 90, format: .gray, pixels: lumaFrame(i)).converted(to: .rgb)
            try Data(try PNGCodec.encode(image)).write(to: frames.appendingPathComponent("frame\(i).png"))
        }
        let result = try CommandRunner.run([
            "analyze", "--frames", frames.path, "--fps", "10", "--device", device.path, "--format", "jsonl",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try checkMotionRecords(try parseLines(result), file: frames.path)
    }

    @Test("--audio with --video: sound and motion events from one engine run of one recording")
    func audioCombined() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("clip.y4m")
        try Data(y4m(frames: 60, colour: true)).write(to: clip)
        let result = try CommandRunner.run(
            ["analyze", "--video", clip.path, "--audio", "Samples/demo-scene.flac", "--device", device.path, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try parseLines(result)
        let events = records.filter { $0["type"]?.stringValue == "event" }
        #expect(events.contains { $0["trigger"]?.stringValue == "motion" })
        #expect(events.contains { $0["trigger"]?.stringValue?.isEmpty == false && $0["trigger"]?.stringValue != "motion" })
        #expect(Set(records.compactMap { $0["file"]?.stringValue }) == [clip.path])
        // One engine: snapshot indices 1, 2, 3, ... in event id order, without repeats, for the events
        // within the 6 s of video; the sounds after it have no frame, so no snapshot.
        let ordered = events.sorted { ($0["id"]?.doubleValue ?? 0) < ($1["id"]?.doubleValue ?? 0) }
        let indices = ordered.compactMap { $0["snapshot"]?["index"]?.doubleValue }
        let eventsInVideo = ordered.filter { ($0["detectedAt"]?.doubleValue ?? .infinity) <= 6 }.count
        let expectedIndices: [Double] = (1...eventsInVideo).map { Double($0) }
        #expect(indices == expectedIndices)
        #expect(ordered.allSatisfy { ($0["snapshot"] == nil) == (($0["detectedAt"]?.doubleValue ?? 0) > 6) })
    }

    @Test("errors: a truncated stream, a missing directory, bad option combinations")
    func errors() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("cut.y4m")
        try Data(y4m(frames: 5, colour: true).dropLast(100)).write(to: clip)
        let cut = try CommandRunner.run(["analyze", "--video", clip.path, "--device", device.path, "--format", "jsonl"])
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("truncated"))
        #expect(try parseLines(cut).contains { $0["type"]?.stringValue == "error" && $0["kind"]?.stringValue == "truncated" })
        let missing = try CommandRunner.run(["analyze", "--frames", dir.appendingPathComponent("none").path, "--format", "jsonl"])
        #expect(missing.status == 1)
        #expect(try CommandRunner.run(["analyze", "--video", clip.path, "--frames", dir.path]).status == 2)
        #expect(try CommandRunner.run(["analyze", "--audio", "Samples/demo-scene.flac"]).status == 2)
        #expect(try CommandRunner.run(["analyze", "--frames", dir.path, "--fps", "0"]).status == 2)
    }

    @Test("--explain groups the frames of a suppressed activity into one row and names --triggers")
    func explainGroupsFrames() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("clip.y4m")
        try Data(y4m(frames: 60, colour: true)).write(to: clip)
        let result = try CommandRunner.run(
            ["analyze", "--video", clip.path, "--device", device.path, "--format", "jsonl", "--explain", "--triggers", "sound,smokeAlarm"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try parseLines(result)
        #expect(!records.contains { $0["type"]?.stringValue == "event" })
        let motion = records.filter { $0["type"]?.stringValue == "suppressed" && $0["trigger"]?.stringValue == "motion" }
        // The square moves in zone 1 from 1.0 to 3.0 s (frames 10 to 30): one row, not one per frame.
        let zone1 = motion.filter { $0["zone"]?.doubleValue == 1 }
        #expect(zone1.count == 1, "\(zone1)")
        let row = try #require(zone1.first)
        #expect((row["count"]?.doubleValue ?? 0) >= 10, "\(row)")
        #expect((row["time"]?.doubleValue ?? 9) < 1.5 && (row["end"]?.doubleValue ?? 0) > 2.5, "\(row)")
        // The device enables motion: the reason is the command line's selection.
        #expect(row["rule"]?.stringValue == "--triggers")
        #expect(row["reason"]?.stringValue?.contains("not selected by --triggers") == true, "\(row)")
        // The table shows the row as a time range with its count.
        let table = try CommandRunner.run(
            ["analyze", "--video", clip.path, "--device", device.path, "--format", "table", "--explain", "--triggers", "sound"])
        let lines = table.stdout.split(separator: "\n").filter { $0.contains("--triggers") }
        #expect(lines.count == motion.count, "\(table.stdout)")
        #expect(lines.contains { $0.contains("\(RecordEncoder.fixed(row["time"]?.doubleValue ?? 0))-") }, "\(table.stdout)")
    }

    @Test("--explain says motion in a privacy zone was found and withheld, and nothing more")
    func explainPrivacyMotion() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("clip.y4m")
        try Data(y4m(frames: 60, colour: true)).write(to: clip)
        let explained = try parseLines(
            try CommandRunner.run(["analyze", "--video", clip.path, "--device", device.path, "--format", "jsonl", "--explain"]))
        let zone2 = explained.filter { $0["zone"]?.doubleValue == 2 }
        // The second square moves only inside the privacy zone, from 4.0 s on.
        #expect(zone2.count == 1, "\(zone2)")
        let row = try #require(zone2.first)
        #expect(row["type"]?.stringValue == "suppressed" && row["rule"]?.stringValue == "zones.privacy")
        #expect(row["reason"]?.stringValue?.contains("privacy zone 2 withheld") == true, "\(row)")
        #expect((row["time"]?.doubleValue ?? 0) >= 4 && (row["count"]?.doubleValue ?? 0) > 5, "\(row)")
        #expect(row["evidence"] == nil)
        // Without --explain, nothing at all about the privacy zone.
        let plain = try parseLines(try CommandRunner.run(["analyze", "--video", clip.path, "--device", device.path, "--format", "jsonl"]))
        #expect(!plain.contains { $0["zone"]?.doubleValue == 2 })
    }

    @Test("--explain with --format tsv is a usage error: TSV holds events only")
    func explainTSV() throws {
        let (dir, device) = try scene()
        let clip = dir.appendingPathComponent("clip.y4m")
        try Data(y4m(frames: 20, colour: true)).write(to: clip)
        let result = try CommandRunner.run(["analyze", "--video", clip.path, "--device", device.path, "--format", "tsv", "--explain"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("TSV is the DCASE event list") && result.stderr.contains("suppressed"), "\(result.stderr)")
        let audio = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--format", "tsv", "--explain"])
        #expect(audio.status == 2)
    }

    @Test("--frames without --fps: frames named 1.png ... 40.png are an error naming the folder, not milliseconds")
    func frameNumberNames() throws {
        let (dir, device) = try scene()
        let frames = dir.appendingPathComponent("ffmpeg")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        for i in 0..<40 {
            let image = RasterImage(width: 160, height: 90, format: .gray, pixels: lumaFrame(i))
            try Data(try PNGCodec.encode(image)).write(to: frames.appendingPathComponent("\(i + 1).png"))
        }
        let result = try CommandRunner.run(["analyze", "--frames", frames.path, "--device", device.path, "--format", "jsonl"])
        #expect(result.status == 1)
        let records = try parseLines(result)
        #expect(!records.contains { $0["type"]?.stringValue == "event" })
        let error = try #require(records.first { $0["type"]?.stringValue == "error" })
        #expect(error["kind"]?.stringValue == "unsupportedFormat")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.hasPrefix(frames.path) && message.contains("consecutive frame numbers") && message.contains("--fps"), "\(message)")
        let timed = try CommandRunner.run(["analyze", "--frames", frames.path, "--fps", "10", "--device", device.path, "--format", "jsonl"])
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(try parseLines(timed).contains { $0["type"]?.stringValue == "event" && $0["trigger"]?.stringValue == "motion" })
    }

    @Test("vigil zones draw outlines zones in their colours and blacks out privacy zones")
    func zonesDraw() throws {
        let (dir, device) = try scene()
        let frame = dir.appendingPathComponent("frame.png")
        try Data(try PNGCodec.encode(RasterImage(width: 160, height: 90, format: .rgb, fill: 200))).write(to: frame)
        let overlay = dir.appendingPathComponent("overlay.png")
        let result = try CommandRunner.run(["zones", "draw", device.path, "--frame", frame.path, "--out", overlay.path])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: overlay)))
        #expect(image.color(x: 150, y: 10) == .black)
        #expect(image.color(x: 120, y: 80) == RGBColor(red: 200, green: 200, blue: 200))
        let green = RGBColor(red: 0, green: 255, blue: 0)
        #expect((0..<90).filter { image.color(x: 70, y: $0) == green }.count > 40)
        let bad = try CommandRunner.run(["zones", "draw", device.path, "--frame", device.path, "--out", overlay.path])
        #expect(bad.status == 1 && bad.stderr.contains("PNG"))
    }
}

@Suite("Samples/demo-frames", .serialized)
struct DemoFramesTests {
    @Test("the walker is reported in the porch zone, nothing from the privacy-masked window")
    func demoFrames() throws {
        let result = try CommandRunner.run(
            [
                "analyze", "--frames", "Samples/demo-frames", "--fps", "10", "--device", "Samples/front-door.json", "--format", "jsonl",
                "--explain",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try parseLines(result)
        let events = records.filter { $0["type"]?.stringValue == "event" }
        #expect(events.count == 1)
        #expect(events.first?["zone"]?.doubleValue == 1)
        // The walker enters the porch zone (grid x >= 200) at frame 9.
        #expect(events.first?["start"]?.doubleValue == 0.9)
        // The passer-by behind the privacy-masked window is only ever mentioned as withheld.
        let window = records.filter { $0["zone"]?.doubleValue == 2 }
        #expect(!window.isEmpty)
        #expect(window.allSatisfy { $0["type"]?.stringValue == "suppressed" && $0["rule"]?.stringValue == "zones.privacy" }, "\(window)")
    }
}
