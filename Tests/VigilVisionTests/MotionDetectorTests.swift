import Testing
import VigilCore
import VigilImaging

@testable import VigilVision

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Grid 0...2048 on both axes over a 320 x 180 frame: grid x = px * 2048 / 319, y = py * 2048 / 179.
private func gridX(_ px: Int) -> Int { px * 2048 / 319 }
private func gridY(_ py: Int) -> Int { py * 2048 / 179 }

/// Zone 1: left third; zone 2: right third; privacy zone 3: the middle third's top half.
private func threeZones(
    outside: Sensitivity? = nil, anchor: BlobAnchor = .anyPixel, rotation: Int = 0, flipH: Bool = false, flipV: Bool = false
)
    -> MotionConfiguration
{
    MotionConfiguration(
        imageRotation: rotation, imageFlipHorizontal: flipH, imageFlipVertical: flipV,
        zones: [
            ActivityZone(
                id: 1, name: "left", vertices: [(0, 0), (gridX(100), 0), (gridX(100), 2048), (0, 2048)], sensitivity: Sensitivity(8)),
            ActivityZone(
                id: 2, name: "right", vertices: [(gridX(220), 0), (2048, 0), (2048, 2048), (gridX(220), 2048)], sensitivity: Sensitivity(8)),
        ],
        privacyZones: [
            ActivityZone(
                id: 3, name: "private", vertices: [(gridX(110), 0), (gridX(210), 0), (gridX(210), gridY(90)), (gridX(110), gridY(90))],
                sensitivity: .medium)
        ],
        outsideSensitivity: outside, anchor: anchor)
}

/// Runs `scene` for `frames` frames at 30 fps; returns per frame the set of zones with motion.
private func run(_ scene: SyntheticScene, _ configuration: MotionConfiguration, frames: Int) -> [(FrameMotion, Set<UInt16?>)] {
    let detector = MotionDetector(configuration: configuration)
    return (0..<frames).map { i in
        let result = detector.process(scene.frame(i), time: Double(i) / 30)
        return (result, Set(result.zones.map(\.zoneID)))
    }
}

@Suite("Motion detector on synthesized scenes")
struct MotionDetectorTests {
    /// A 20 x 30 object crossing the frame left to right at 4 px per frame, in the lower half.
    func crossingScene(noise: Double = 2) -> SyntheticScene {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = noise
        scene.objects = [
            .init(width: 20, height: 30, level: 235, position: { i in i >= 10 ? (x: -20 + (i - 10) * 4, y: 120) : nil })
        ]
        return scene
    }

    @Test("an object crossing the frame is reported in the zones it is in, and only there")
    func crossing() {
        let results = run(crossingScene(), threeZones(), frames: 100)
        var zone1 = 0, zone2 = 0
        for (i, (_, zones)) in results.enumerated() {
            let left = i >= 10 ? -20 + (i - 10) * 4 : -1000
            let right = left + 19
            let inZone1 = left <= 100 && right >= 0
            let inZone2 = right >= 220 && left <= 319
            // Exact truth away from the zone borders (one working pixel of slack).
            if zones.contains(1) {
                zone1 += 1
                #expect(left <= 102 && right >= -2, "frame \(i): zone 1 reported with the object at \(left)...\(right)")
            } else if inZone1 && right >= 6 && left <= 94 {
                Issue.record("frame \(i): object at \(left)...\(right) inside zone 1 but not reported")
            }
            if zones.contains(2) {
                zone2 += 1
                #expect(right >= 218, "frame \(i): zone 2 reported with the object at \(left)...\(right)")
            } else if inZone2 && right >= 226 && left <= 313 {
                Issue.record("frame \(i): object at \(left)...\(right) inside zone 2 but not reported")
            }
            #expect(!zones.contains(3), "privacy zone reported")
            #expect(!zones.contains(nil), "outside motion reported although not configured")
        }
        #expect(zone1 > 20 && zone2 > 20)
    }

    @Test("motion outside every zone is reported as zone nil when configured")
    func outside() {
        let results = run(crossingScene(), threeZones(outside: Sensitivity(8)), frames: 100)
        let outsideFrames = results.enumerated().filter { $0.element.1.contains(nil) }.map(\.offset)
        #expect(!outsideFrames.isEmpty)
        for i in outsideFrames {
            let left = -20 + (i - 10) * 4
            // Between the zones (x 101...219) lie the privacy zone's lower half and free space.
            #expect(left + 19 >= 98 && left <= 222, "frame \(i): outside motion with the object at \(left)")
        }
    }

    @Test("motion inside a privacy zone is never reported, even outside-zone motion")
    func privacy() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 2
        // Moves only inside the privacy zone (x 110...210, y 0...90).
        scene.objects = [
            .init(width: 30, height: 30, level: 250, position: { i in i >= 5 ? (x: 120 + (i % 40) * 1, y: 20 + (i % 20)) : nil })
        ]
        let results = run(scene, threeZones(outside: Sensitivity(10)), frames: 80)
        for (i, (frame, zones)) in results.enumerated() {
            #expect(zones.isEmpty, "frame \(i): \(zones)")
            #expect(frame.blobs.isEmpty, "frame \(i): blob from private pixels")
        }
    }

    @Test("sensor noise and lighting flicker alone report nothing")
    func noiseAndFlicker() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 4
        scene.gain = { i in
            let phase: Double = Double(i) * 2 * Double.pi / 3
            return 1 + 0.08 * sin(phase)  // 10 Hz at 30 fps, ±8 %
        }
        scene.offset = { i in Double((i * 37) % 7) - 3 }
        let results = run(scene, threeZones(outside: Sensitivity(10)), frames: 150)
        let reported = results.filter { !$0.1.isEmpty }.count
        #expect(reported == 0, "\(reported) frames with motion")
    }

    @Test("lights switched on and off, IR switch and exposure jumps give no motion and the model recovers within a second")
    func lightSwitch() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 2
        // On at frame 30 (gain 1.6, +25), off at 90; an exposure jump at 150 (x0.7); IR-like inversion of contrast at 210.
        scene.gain = { i in i >= 210 ? 0.4 : i >= 150 ? 0.7 : (i >= 30 && i < 90) ? 1.6 : 1 }
        scene.offset = { i in i >= 210 ? 90 : (i >= 30 && i < 90) ? 25 : 0 }
        // A walker appears at frame 250 in zone 1 to prove the model works again.
        scene.objects = [.init(width: 20, height: 30, level: 10, position: { i in i >= 250 ? (x: 20 + (i - 250) * 2, y: 100) : nil })]
        let results = run(scene, threeZones(outside: Sensitivity(8)), frames: 290)
        for (i, (frame, zones)) in results.enumerated() where i < 250 {
            #expect(zones.isEmpty, "frame \(i): motion \(zones) (state \(frame.state), moving \(frame.movingFraction))")
        }
        for switchFrame in [30, 90, 150, 210] {
            #expect(
                results[switchFrame].0.state == .globalChange, "frame \(switchFrame) not a global change: \(results[switchFrame].0.state)")
            // Within a second (30 frames) the model is analysing again.
            #expect(results[switchFrame + 30].0.state == .analysed)
        }
        let walker = results[255...].filter { $0.1.contains(1) }.count
        #expect(walker >= 30, "walker after the switches seen in \(walker) frames")
    }

    @Test("camera shake gives no motion")
    func shake() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 2
        // Jitter of up to 2 px, and one 10 px jolt at frame 60.
        scene.shift = { i in i == 60 || i == 61 ? (10, 6) : (i % 3 - 1, (i / 3) % 3 - 1) }
        let results = run(scene, threeZones(outside: Sensitivity(5)), frames: 120)
        let reported = results.enumerated().filter { !$0.element.1.isEmpty }.map(\.offset)
        #expect(reported.isEmpty, "motion in frames \(reported)")
    }

    @Test("a mover covering most of the picture is motion, not a whole-frame change")
    func largeMover() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 2
        // 240 x 150 (62 % of the frame), entering from the left at frame 10, 8 px per frame.
        scene.objects = [.init(width: 240, height: 150, level: 230, position: { i in i >= 10 ? (x: -240 + (i - 10) * 8, y: 15) : nil })]
        let results = run(scene, threeZones(outside: Sensitivity(5)), frames: 50)
        for (i, (frame, _)) in results.enumerated() where i > 0 {
            #expect(frame.state == .analysed, "frame \(i): \(frame.state), moving \(frame.movingFraction)")
        }
        let large = results[35...].filter { $0.0.movingFraction > 0.4 && $0.1.contains(1) }.count
        #expect(large >= 10, "frames with more than 40 % moving reported in zone 1: \(large)")
    }

    @Test("an object in the first frame that walks away leaves a ghost that is absorbed within timeConstant / foregroundRateFactor")
    func ghostDissolves() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 2
        // In zone 1 from the start; leaves to the right from frame 5 at 6 px per frame (gone from zone 1 by frame 20).
        scene.objects = [.init(width: 24, height: 36, level: 230, position: { i in (x: 40 + max(0, i - 5) * 6, y: 100) })]
        // 40 s at 30 fps: the defaults absorb a still area under motion after about 4 s / 0.1.
        let results = run(scene, threeZones(), frames: 1_200)
        let early = results[20..<40].filter { $0.1.contains(1) }.count
        let late = results[1_140...].filter { $0.1.contains(1) }
        #expect(early > 0, "the ghost is expected at first")
        #expect(late.isEmpty, "zone 1 still reported in \(late.count) of the last 60 frames")
    }

    @Test(
        "rotation 180 and flips map motion to the zone in sensor space",
        arguments: [(180, false, false), (0, true, false), (0, false, true), (180, true, true)])
    func orientation(rotation: Int, flipH: Bool, flipV: Bool) {
        var scene = crossingScene()
        scene.rotation = rotation
        scene.flipHorizontal = flipH
        scene.flipVertical = flipV
        // In sensor space the object only crosses zone 1 (x < 100): stop it at x = 60.
        scene.objects = [
            .init(width: 20, height: 30, level: 235, position: { i in i >= 10 ? (x: min(-20 + (i - 10) * 4, 60), y: 120) : nil })
        ]
        let results = run(scene, threeZones(rotation: rotation, flipH: flipH, flipV: flipV), frames: 40)
        let zone1 = results.filter { $0.1.contains(1) }.count
        let zone2 = results.filter { $0.1.contains(2) }.count
        #expect(zone1 >= 15, "zone 1 in \(zone1) frames")
        #expect(zone2 == 0, "zone 2 in \(zone2) frames")
    }

    @Test("anchor rules: bottom-centre and centroid assign a blob to the zone its anchor is in")
    func anchors() {
        // Zone 10 covers the lower strip (y >= 140); a tall object whose body is above it and
        // whose feet stand in it.
        let strip = ActivityZone(
            id: 10, vertices: [(0, gridY(140)), (2048, gridY(140)), (2048, 2048), (0, 2048)], sensitivity: Sensitivity(10))
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 1
        scene.objects = [.init(width: 16, height: 60, level: 240, position: { i in i >= 5 ? (x: 40 + i * 3, y: 85) : nil })]
        for (anchor, expected) in [(BlobAnchor.bottomCentre, true), (.centroid, false), (.anyPixel, true)] {
            let config = MotionConfiguration(zones: [strip], outsideSensitivity: nil, anchor: anchor)
            let results = run(scene, config, frames: 30)
            let hits = results.filter { $0.1.contains(10) }.count
            if expected { #expect(hits >= 20, "\(anchor): \(hits)") } else { #expect(hits == 0, "\(anchor): \(hits)") }
        }
    }

    @Test("sensitivity: a faint small object is found at high sensitivity only")
    func sensitivity() {
        var scene = SyntheticScene(width: 320, height: 180)
        scene.noiseSigma = 1.5
        scene.objects = [.init(width: 12, height: 12, level: 140, position: { i in i >= 5 ? (x: 20 + i * 2, y: 60) : nil })]
        func hits(_ level: Int) -> Int {
            let zone = ActivityZone(id: 1, vertices: [(0, 0), (2048, 0), (2048, 2048), (0, 2048)], sensitivity: Sensitivity(level))
            return run(scene, MotionConfiguration(zones: [zone], outsideSensitivity: nil), frames: 40).filter { $0.1.contains(1) }.count
        }
        #expect(hits(10) >= 25)
        #expect(hits(1) == 0)
    }

    @Test("detections carry evidence in grid coordinates and the frame time")
    func detections() throws {
        let scene = crossingScene()
        let detector = MotionDetector(configuration: threeZones())
        var found: Detection?
        for i in 0..<40 {
            let result = detector.process(scene.frame(i), time: Double(i) / 30)
            if let d = result.detections.first(where: { $0.zoneID == 1 }) {
                found = d
                break
            }
        }
        let d = try #require(found)
        #expect(d.trigger == .motion && d.start == d.detectedAt && d.confidence >= 0.5 && d.confidence <= 1)
        guard case .numbers(let box)? = d.evidence["boundingBox"], case .number(let peak)? = d.evidence["peakTime"] else {
            Issue.record("evidence \(d.evidence)")
            return
        }
        #expect(box.count == 4 && box[0] <= box[2] && box[1] <= box[3])
        #expect(box[1] >= Double(gridY(116)) && box[3] <= Double(gridY(153)))
        #expect(peak == d.detectedAt)
        if case .int(let blobs)? = d.evidence["blobs"] { #expect(blobs == 1) } else { Issue.record("no blob count") }
    }
}
