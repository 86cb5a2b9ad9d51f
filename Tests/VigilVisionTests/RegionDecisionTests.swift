import Testing
import VigilCore
import VigilImaging
import VigilVision

/// 320 x 180 frames (analysed at full resolution): a textured background and, from frame 5, a
/// 10 x 10 bright square moving right at rows 80...89 inside zone 1 (the left half).
private func frame(_ i: Int) -> RasterImage {
    let w = 320, h = 180
    var pixels = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h { for x in 0..<w { pixels[y * w + x] = UInt8(60 + (x * 7 + y * 13) % 40) } }
    if i >= 5 { for y in 80..<90 { for x in (20 + 2 * i)..<(30 + 2 * i) { pixels[y * w + x] = 230 } } }
    return RasterImage(width: w, height: h, format: .gray, pixels: pixels)
}

/// Zone 1 (left half) at sensitivity 1 (minimum area 0.6 % of the frame, 345 px); outside at 10
/// (0.03 %, 17 px), so the 100-pixel square is a blob, but too small for zone 1.
private let configuration = MotionConfiguration(
    zones: [ActivityZone(id: 1, name: "left", vertices: [(0, 0), (1024, 0), (1024, 2048), (0, 2048)], sensitivity: Sensitivity(1))],
    outsideSensitivity: Sensitivity(10))

@Suite("MotionDetector region decisions and motion mask")
struct RegionDecisionTests {
    @Test("a mover below a zone's minimum area is suppressed as tooSmall; the mask holds it; nothing is recorded when off")
    func tooSmall() throws {
        let detector = MotionDetector(configuration: configuration)
        detector.recordsRegionDecisions = true
        let quiet = MotionDetector(configuration: configuration)
        var mask = [UInt8](repeating: 7, count: 320 * 180)
        for i in 0..<12 {
            let result = detector.process(frame(i), time: Double(i) / 10)
            #expect(quiet.process(frame(i), time: Double(i) / 10).decisions.isEmpty)
            #expect(result.decisions.map(\.zoneID) == [1, nil], "zone 1, then outside")
            let ok = mask.withUnsafeMutableBufferPointer { detector.writeMotionMask(into: $0, width: 320, height: 180) }
            #expect(ok)
            if i == 0 { #expect(result.decisions.allSatisfy { $0.reason == .initialising }) }
            guard i >= 6 else { continue }
            let zone1 = result.decisions[0]
            #expect(zone1.outcome == .suppressed && zone1.reason == .tooSmall, "frame \(i): \(zone1)")
            #expect(zone1.motionPixels >= 80 && zone1.motionPixels <= 120, "frame \(i): \(zone1)")
            #expect(abs((zone1.fraction ?? 0) - Double(zone1.motionPixels) / (160 * 180)) < 0.002)
            #expect(result.decisions[1].outcome == .none, "nothing moves outside zone 1")
            #expect(result.zones.isEmpty, "no region reports motion")
            // The mask: the square (within a pixel of its edges), nothing else.
            let x0 = 20 + 2 * i
            var inside = 0, stray = 0
            for y in 0..<180 {
                for x in 0..<320 where mask[y * 320 + x] == 255 {
                    if x >= x0 - 1 && x < x0 + 11 && y >= 79 && y < 91 { inside += 1 } else { stray += 1 }
                }
            }
            #expect(stray == 0 && inside >= 80, "frame \(i): \(inside) on the square, \(stray) elsewhere")
            #expect(mask.allSatisfy { $0 == 0 || $0 == 255 })
        }
        // A buffer of another size is left alone.
        var small = [UInt8](repeating: 7, count: 16)
        #expect(!small.withUnsafeMutableBufferPointer { detector.writeMotionMask(into: $0, width: 4, height: 4) })
        #expect(small.allSatisfy { $0 == 7 })
    }
}
