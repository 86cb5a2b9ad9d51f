import Testing
import VigilGeometry

@testable import VigilVision

@Suite("Frame-to-grid mapping and zone rasterization")
struct ZoneGeometryTests {
    @Test("corners map exactly to 0 and max, for every orientation", arguments: [0, 90, 180, 270])
    func corners(rotation: Int) {
        for (flipH, flipV) in [(false, false), (true, false), (false, true), (true, true)] {
            let m = GridMapping(
                frameWidth: 1280, frameHeight: 720, maxX: 2048, maxY: 2048, rotation: rotation, flipHorizontal: flipH, flipVertical: flipV)
            var seen = Set<[Float]>()
            for (px, py) in [(0, 0), (1279, 0), (0, 719), (1279, 719)] {
                let g = m.gridPoint(px: px, py: py)
                #expect([0, 2048].contains(g.x) && [0, 2048].contains(g.y), "\(rotation) \(flipH) \(flipV): (\(px), \(py)) -> \(g)")
                seen.insert([g.x, g.y])
                // Round trip through the inverse mapping.
                let back = m.framePoint(gridX: Double(g.x), gridY: Double(g.y))
                #expect(abs(back.x - Double(px)) < 1e-6 && abs(back.y - Double(py)) < 1e-6)
                let s = m.sensorPixel(px: px, py: py)
                #expect(m.framePixel(sx: s.x, sy: s.y) == (px, py))
            }
            #expect(seen.count == 4)
        }
    }

    @Test("the grid spans the whole frame with separate scales (2048 x 2048 over 16:9)")
    func scales() {
        let m = GridMapping(frameWidth: 1920, frameHeight: 1080, maxX: 2048, maxY: 2048)
        #expect(m.gridPoint(px: 1919, py: 1079) == (2048, 2048))
        #expect(abs(Double(m.gridPoint(px: 960, py: 540).x) - 960.0 * 2048 / 1919) < 1e-3)
        #expect(abs(Double(m.gridPoint(px: 960, py: 540).y) - 540.0 * 2048 / 1079) < 1e-3)
        // Rotation 180: frame top-left shows the sensor's bottom-right.
        let r = GridMapping(frameWidth: 1920, frameHeight: 1080, maxX: 2048, maxY: 2048, rotation: 180)
        #expect(r.gridPoint(px: 0, py: 0) == (2048, 2048))
        #expect(r.gridPoint(px: 1919, py: 0) == (0, 2048))
        // 90: the sensor is 1080 wide, 1920 high.
        let q = GridMapping(frameWidth: 1920, frameHeight: 1080, maxX: 2048, maxY: 2048, rotation: 90)
        #expect(q.sensorWidth == 1080 && q.sensorHeight == 1920)
        #expect(GridMapping.normalizedRotation(-90) == 270 && GridMapping.normalizedRotation(200) == 180)
    }

    @Test("rasterized masks agree with the SIMD and scalar point tests on every pixel", arguments: [0, 90, 180, 270])
    func rasterAgreement(rotation: Int) {
        let polygons: [GridPolygon] = [
            GridPolygon([(100, 100), (1900, 300), (1500, 1800), (900, 1200), (300, 1900)]),  // concave
            GridPolygon([(0, 0), (2048, 0), (2048, 2048), (0, 2048)]),  // the whole grid
            GridPolygon(
                [
                    (1024, 0), (2048, 1024), (1024, 2048), (0, 1024), (512, 1024), (1024, 1536), (1536, 1024), (1024, 512), (512, 1024),
                    (0, 1024),
                ].dropLast()),
        ]
        for flip in [false, true] {
            let m = GridMapping(frameWidth: 97, frameHeight: 61, maxX: 2048, maxY: 2048, rotation: rotation, flipHorizontal: flip)
            for polygon in polygons {
                let prepared = PreparedPolygon(polygon)
                let tester = PolygonPointTester(prepared)
                let mask = ZoneRasterizer.mask(of: prepared, mapping: m)
                var xs: [Float] = [], ys: [Float] = []
                for py in 0..<61 {
                    for px in 0..<97 {
                        let p = m.membershipPoint(px: px, py: py)
                        xs.append(p.x)
                        ys.append(p.y)
                    }
                }
                let simd = tester.contains(xs: xs, ys: ys)
                let reference = prepared.contains(xs: xs, ys: ys)
                var mismatches = 0
                for i in mask.indices
                where (mask[i] != 0) != simd[i] || simd[i] != reference[i] || simd[i] != tester.contains(x: xs[i], y: ys[i]) {
                    mismatches += 1
                }
                #expect(mismatches == 0, "rotation \(rotation) flip \(flip): \(mismatches) pixels disagree")
                #expect(mask.contains(1) && mask.contains(0) || polygon.vertices.count == 4)
            }
            // The whole-grid zone covers every pixel, edges included.
            let full = ZoneRasterizer.mask(of: PreparedPolygon(polygons[1]), mapping: m)
            #expect(full.allSatisfy { $0 == 1 })
        }
    }

    @Test("point tester: tails, empty polygons and the 16-point fast path agree with the scalar test")
    func tester() {
        let t = PolygonPointTester(vertices: [(0, 0), (10, 0), (10, 10), (0, 10)])
        for n in [0, 1, 15, 16, 17, 33] {
            let xs = (0..<n).map { Float($0) - 3 }, ys = (0..<n).map { Float($0 % 12) }
            #expect(t.contains(xs: xs, ys: ys) == zip(xs, ys).map { t.contains(x: $0, y: $1) })
        }
        #expect(PolygonPointTester(vertices: [(0, 0), (1, 1)]).contains(xs: [0.5], ys: [0.5]) == [false])
    }

    @Test("layout coverage counts frame pixels exactly at every decimation")
    func coverage() {
        for decimation in [1, 2, 4, 8] {
            var parameters = MotionParameters()
            parameters.decimation = decimation
            let zone = ActivityZone(id: 1, vertices: [(0, 0), (1024, 0), (1024, 2048), (0, 2048)], sensitivity: .medium)
            let config = MotionConfiguration(zones: [zone], outsideSensitivity: .medium, parameters: parameters)
            let layout = ZoneLayout(configuration: config, frameWidth: 64, frameHeight: 48)
            let mask = ZoneRasterizer.mask(of: PreparedPolygon(zone.polygon), mapping: layout.mapping)
            #expect(layout.regions[0].area == mask.reduce(0) { $0 + Int($1) })
            #expect(layout.regions[0].area + layout.regions[1].area == 64 * 48)
            #expect(layout.decimation == decimation && layout.workingWidth == 64 / decimation)
        }
    }
}
