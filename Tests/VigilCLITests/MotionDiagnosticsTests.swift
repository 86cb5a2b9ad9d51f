import Foundation
import Testing
import VigilCore
import VigilImaging
import VigilTestSupport

/// Zone 1 (motion) covers grid x 0...900; zone 2 (privacy) the upper right (x 1200...2048, y 0...1000).
private let diagnosticsDevice = """
    {"name": "Test camera", "twoDCartesianMax": {"x": 2048, "y": 2048}, "sensitivity": 5,
     "zones": [
       {"zoneID": 1, "zoneSource": "user", "name": "Left", "use": ["motion"],
        "vertices": [{"x": 0, "y": 0}, {"x": 900, "y": 0}, {"x": 900, "y": 2048}, {"x": 0, "y": 2048}]},
       {"zoneID": 2, "zoneSource": "user", "name": "Window", "use": ["privacy"],
        "vertices": [{"x": 1200, "y": 0}, {"x": 2048, "y": 0}, {"x": 2048, "y": 1000}, {"x": 1200, "y": 1000}]}],
     "triggers": [{"zoneID": 1, "initialDuration": 2, "augmentationDuration": 1, "maxDuration": 10, "blindDuration": 1, "sensitivity": 8}],
     "supportedEventTriggers": ["motion"], "enabledEventTriggers": ["motion"],
     "transport": {"transportStatus": "active", "triggerOptions": {"triggerType": "motion", "motionZones": [{"zone": 1}]}}}
    """

private let width = 160, height = 90

/// Where the square of frame `i` is (x, y, size), while it moves in zone 1 (frames 10...30).
private func mover(_ i: Int) -> (x: Int, y: Int, size: Int)? { (10...30).contains(i) ? (5 + (i - 10) * 2, 40, 12) : nil }

/// 160 x 90 luma at 10 fps: a textured background; a bright square moves in zone 1 in frames
/// 10...30, another only inside the privacy zone from frame 40 on; from frame 55 on every pixel is
/// 50 levels brighter (a light switched on).
private func lumaFrame(_ i: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height { for x in 0..<width { pixels[y * width + x] = UInt8(60 + (x * 7 + y * 13) % 40) } }
    func square(_ x0: Int, _ y0: Int, _ size: Int, _ level: UInt8) {
        for y in y0..<min(y0 + size, height) { for x in x0..<min(x0 + size, width) { pixels[y * width + x] = level } }
    }
    if let m = mover(i) { square(m.x, m.y, m.size, 240) }
    if i >= 40 { square(110 + (i - 40) % 20, 5 + (i % 10), 14, 250) }
    if i >= 55 { pixels = pixels.map { UInt8(min(255, Int($0) + 50)) } }
    return pixels
}

/// The clip as y4m: monochrome, or 4:2:0 colour (a bluish picture) that, with `nightFrom`, turns
/// neutral gray from that frame on (an IR switch).
private func clip(frames: Int, colour: Bool = false, nightFrom: Int? = nil) -> [UInt8] {
    var bytes = Array("YUV4MPEG2 W\(width) H\(height) F10:1 Ip A1:1 \(colour ? "C420jpeg" : "Cmono")\n".utf8)
    let chroma = (width / 2) * (height / 2)
    for i in 0..<frames {
        bytes += Array("FRAME\n".utf8) + lumaFrame(i)
        if colour {
            let night = nightFrom.map { i >= $0 } ?? false
            bytes += [UInt8](repeating: night ? 128 : 150, count: chroma) + [UInt8](repeating: night ? 128 : 110, count: chroma)
        }
    }
    return bytes
}

/// Whether frame pixel (x, y) is in the privacy zone (grid point of the pixel inside 1200...2048 x 0...1000).
private func isPrivate(_ x: Int, _ y: Int) -> Bool {
    Double(x) * 2048 / Double(width - 1) >= 1200 && Double(y) * 2048 / Double(height - 1) < 1000
}

@Suite("vigil analyze --motion-masks / --motion-trace", .serialized)
struct MotionDiagnosticsTests {
    @Test("--motion-masks: one PNG per frame, 255 on the mover, 0 in the privacy zone and on still frames")
    func masks() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = dir.appendingPathComponent("device.json"), video = dir.appendingPathComponent("clip.y4m")
        try Data(diagnosticsDevice.utf8).write(to: device)
        try Data(clip(frames: 60)).write(to: video)
        let masks = dir.appendingPathComponent("masks")
        let result = try CommandRunner.run(
            ["analyze", "--video", video.path, "--device", device.path, "--format", "jsonl", "--motion-masks", masks.path])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: masks.path).sorted()
        #expect(names == (0..<60).map { String(format: "%06d.png", $0) })
        for i in 0..<60 {
            let mask = try PNGCodec.decode([UInt8](Data(contentsOf: masks.appendingPathComponent(String(format: "%06d.png", i)))))
            #expect(mask.width == width && mask.height == height && mask.format == .gray)
            #expect(mask.pixels.allSatisfy { $0 == 0 || $0 == 255 })
            for y in 0..<height { for x in 0..<width where isPrivate(x, y) { #expect(mask.pixels[y * width + x] == 0) } }
            let moving = mask.pixels.filter { $0 == 255 }.count
            if let m = mover(i), i > 10 {
                // The square, within a two-pixel band at its edges (clean-up, the 3 x 3 shake tolerance).
                var inside = 0, stray = 0
                for y in 0..<height {
                    for x in 0..<width where mask.pixels[y * width + x] == 255 {
                        let near = x >= m.x - 2 && x < m.x + m.size + 2 && y >= m.y - 2 && y < m.y + m.size + 2
                        if near { inside += 1 } else { stray += 1 }
                    }
                }
                #expect(stray == 0, "frame \(i): \(stray) mask pixels away from the square")
                #expect(inside >= m.size * m.size * 3 / 4, "frame \(i): only \(inside) of \(m.size * m.size) square pixels")
            } else if i < 10 || (32..<55).contains(i) {
                #expect(moving == 0, "frame \(i): \(moving) mask pixels without a mover outside the privacy zone")
            }
        }
    }

    @Test("--motion-trace: one row per frame and zone; motion, lighting change, settling and privacy reasons")
    func trace() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = dir.appendingPathComponent("device.json"), video = dir.appendingPathComponent("clip.y4m")
        try Data(diagnosticsDevice.utf8).write(to: device)
        try Data(clip(frames: 60)).write(to: video)
        let tracePath = dir.appendingPathComponent("trace.tsv")
        let result = try CommandRunner.run(
            ["analyze", "--video", video.path, "--device", device.path, "--format", "jsonl", "--motion-trace", tracePath.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: tracePath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "time\tframe\tzone\tfraction\tdecision\treason")
        let rows = lines.dropFirst().filter { !$0.isEmpty }.map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(rows.count == 60 * 2, "one row per frame for zone 1 and privacy zone 2")
        #expect(rows.allSatisfy { $0.count == 6 })
        func row(_ frame: Int, _ zone: String) -> [String]? { rows.first { $0[1] == "\(frame)" && $0[2] == zone } }
        #expect(row(0, "1")?[5] == "initialising")
        #expect(row(5, "1")?[4] == "none")
        let moving = try #require(row(20, "1"))
        #expect(moving[0] == "2.000" && moving[4] == "motion" && moving[5] == "")
        #expect((Double(moving[3]) ?? 0) > 0.01, "\(moving)")
        // The light switched on at frame 55: a lighting change, then the settle period.
        #expect(row(55, "1")?[4] == "suppressed" && row(55, "1")?[5] == "lightingChange", "\(String(describing: row(55, "1")))")
        #expect(row(56, "1")?[5] == "settling")
        // The privacy zone: every frame, no fraction, whatever moves there.
        let privacy = rows.filter { $0[2] == "2" }
        #expect(privacy.count == 60 && privacy.allSatisfy { $0[3] == "" && $0[4] == "suppressed" && $0[5] == "privacy" })
        // The square inside the privacy zone never shows in zone 1.
        #expect((41..<55).allSatisfy { row($0, "1")?[4] == "none" })
    }

    @Test("--motion-trace tells an IR switch (colour to monochrome with the light step) from a lighting change in colour")
    func irSwitch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = dir.appendingPathComponent("device.json")
        try Data(diagnosticsDevice.utf8).write(to: device)
        for (nightFrom, expected) in [(Optional(55), "irSwitch"), (nil, "lightingChange")] {
            let video = dir.appendingPathComponent("clip.y4m"), tracePath = dir.appendingPathComponent("trace.tsv")
            try Data(clip(frames: 60, colour: true, nightFrom: nightFrom)).write(to: video)
            let result = try CommandRunner.run(
                ["analyze", "--video", video.path, "--device", device.path, "--format", "jsonl", "--motion-trace", tracePath.path])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try String(contentsOf: tracePath, encoding: .utf8).split(separator: "\n").map {
                $0.split(separator: "\t", omittingEmptySubsequences: false)
            }
            let frame55 = try #require(rows.first { $0[1] == "55" && $0[2] == "1" })
            #expect(frame55[4] == "suppressed" && String(frame55[5]) == expected, "\(frame55)")
            #expect(!rows.contains { $0[1] != "55" && $0.count > 5 && $0[5] == "irSwitch" })
            let privacy = try #require(rows.first { $0[1] == "55" && $0[2] == "2" })
            #expect(privacy[5] == "privacy")
        }
    }

    @Test("--motion-masks on a file, or a directory that cannot be created, is a usage error naming it")
    func badMaskDirectory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.y4m")
        try Data(clip(frames: 3)).write(to: video)
        for target in [video.path, video.path + "/masks"] {
            let result = try CommandRunner.run(["analyze", "--video", video.path, "--motion-masks", target])
            #expect(result.status == 2, "\(target): \(result.stderr)")
            #expect(result.stderr.contains(target) && result.stderr.contains("--motion-masks"), "\(result.stderr)")
        }
        let trace = try CommandRunner.run(["analyze", "--video", video.path, "--motion-trace", dir.path])
        #expect(trace.status == 2 && trace.stderr.contains("--motion-trace"), "\(trace.stderr)")
        let audioOnly = try CommandRunner.run(["analyze", "Samples", "--motion-masks", dir.path])
        #expect(audioOnly.status == 2 && audioOnly.stderr.contains("--frames or --video"), "\(audioOnly.stderr)")
    }
}
