import Testing
import VigilGeometry

/// A deterministic SplitMix64 generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct PointInPolygonTests {
    static let square = GridPolygon([(0, 0), (10, 0), (10, 10), (0, 10)])
    static let concave = GridPolygon([(0, 0), (10, 0), (10, 10), (5, 5), (0, 10)])
    static let porch = GridPolygon([
        (260, 422), (1049, 0), (2048, 0), (2048, 950), (1630, 1349), (880, 2048), (0, 2048), (638, 1090),
    ])

    @Test(arguments: [
        (5.0, 5.0, true), (0.5, 9.5, true), (9.99, 0.01, true),
        (-1, 5, false), (11, 5, false), (5, -0.1, false), (5, 10.1, false), (100, 100, false),
    ])
    func squareInteriorAndExterior(_ x: Double, _ y: Double, _ expected: Bool) {
        #expect(Self.square.contains(x: x, y: y) == expected)
        #expect(PreparedPolygon(Self.square).contains(x: Float(x), y: Float(y)) == expected)
    }

    @Test(arguments: [
        (5.0, 2.0, true), (5.0, 7.0, false), (2.0, 7.0, true), (8.0, 7.0, true), (5.0, 5.5, false), (5.0, 4.5, true),
    ])
    func concaveNotch(_ x: Double, _ y: Double, _ expected: Bool) {
        #expect(Self.concave.contains(x: x, y: y) == expected)
        #expect(PreparedPolygon(Self.concave).contains(x: Float(x), y: Float(y)) == expected)
    }

    /// Boundary points follow the half-open rule: left and top edges are inside, right and bottom outside.
    @Test(arguments: [
        (0.0, 5.0, true), (10.0, 5.0, false), (5.0, 0.0, true), (5.0, 10.0, false),
        (0.0, 0.0, true), (10.0, 0.0, false), (0.0, 10.0, false), (10.0, 10.0, false),
    ])
    func boundaryConvention(_ x: Double, _ y: Double, _ expected: Bool) {
        #expect(Self.square.contains(x: x, y: y) == expected)
        #expect(PreparedPolygon(Self.square).contains(x: Float(x), y: Float(y)) == expected)
    }

    @Test(arguments: [[] as [(Int32, Int32)], [(5, 5)], [(0, 0), (10, 10)], [(0, 0), (5, 0), (10, 0)]])
    func degeneratePolygonsContainNothing(_ points: [(Int32, Int32)]) {
        let polygon = GridPolygon(points)
        let prepared = PreparedPolygon(polygon)
        for (x, y) in [(0.0, 0.0), (5.0, 5.0), (5.0, 0.0), (2.5, 2.5)] {
            #expect(!polygon.contains(x: x, y: y))
            #expect(!prepared.contains(x: Float(x), y: Float(y)))
        }
        #expect(prepared.contains(xs: [0, 5, 2.5], ys: [0, 5, 2.5]) == [false, false, false])
    }

    @Test func preparedPolygonOfDegenerateInputHasNoEdges() {
        #expect(PreparedPolygon(GridPolygon([(1, 1), (2, 2)])).edgeCount == 0)
        #expect(PreparedPolygon(Self.square).edgeCount == 4)
    }

    /// Random points (including tails that are not a multiple of 8): the SIMD batch equals the
    /// `Float` scalar test exactly, and equals the `Double` test away from the boundary.
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 1000, 4099])
    func batchedEqualsScalar(_ count: Int) {
        var generator = SplitMix64(state: UInt64(count) &+ 42)
        let polygons = [Self.square, Self.concave, Self.porch, GridPolygon([(0, 0), (10, 5), (0, 10), (3, 5)])]
        for polygon in polygons {
            let prepared = PreparedPolygon(polygon)
            let xs = (0..<count).map { _ in Float.random(in: -100...2200, using: &generator).rounded(.down) / 2 + 0.25 }
            let ys = (0..<count).map { _ in Float.random(in: -100...2200, using: &generator).rounded(.down) / 2 + 0.25 }
            let batched = prepared.contains(xs: xs, ys: ys)
            #expect(batched.count == count)
            var mismatches = 0
            for index in 0..<count {
                if batched[index] != prepared.contains(x: xs[index], y: ys[index]) { mismatches += 1 }
                if batched[index] != polygon.contains(x: Double(xs[index]), y: Double(ys[index])) { mismatches += 1 }
            }
            #expect(mismatches == 0, "polygon \(polygon.vertices.count) vertices, \(count) points")
        }
    }

    @Test func batchedOnScaledSquareMatchesKnownAnswers() {
        let prepared = PreparedPolygon(Self.square)
        let xs: [Float] = [5, -1, 5, 11, 1, 9, 5, 5, 0.5, 20]
        let ys: [Float] = [5, 5, -1, 5, 1, 9, 11, 9.9, 0.5, 20]
        #expect(prepared.contains(xs: xs, ys: ys) == [true, false, false, false, true, true, false, true, true, false])
    }

    @Test func batchedWritesOnlyItsOwnSlots() {
        let prepared = PreparedPolygon(Self.square)
        let xs: [Float] = [1, 2, 3, 40, 5]
        let ys: [Float] = [1, 2, 3, 4, 5]
        var storage = [Bool](repeating: true, count: 7)
        xs.withUnsafeBufferPointer { xb in
            ys.withUnsafeBufferPointer { yb in
                storage.withUnsafeMutableBufferPointer { out in
                    let window = UnsafeMutableBufferPointer(rebasing: out[1..<6])
                    for index in window.indices { window[index] = false }
                    prepared.contains(xs: xb, ys: yb, into: window)
                }
            }
        }
        #expect(storage == [true, true, true, true, false, true, true])
    }

    /// Buffers that start at an odd offset (not 32-byte aligned) give the same answers.
    @Test func unalignedBuffers() {
        var generator = SplitMix64(state: 7)
        let prepared = PreparedPolygon(Self.porch)
        let xs = (0..<26).map { _ in Float.random(in: 0...2048, using: &generator).rounded() + 0.5 }
        let ys = (0..<26).map { _ in Float.random(in: 0...2048, using: &generator).rounded() + 0.5 }
        let expected = (1..<26).map { prepared.contains(x: xs[$0], y: ys[$0]) }
        var results = [Bool](repeating: false, count: 25)
        xs.withUnsafeBufferPointer { xb in
            ys.withUnsafeBufferPointer { yb in
                results.withUnsafeMutableBufferPointer { out in
                    prepared.contains(
                        xs: UnsafeBufferPointer(rebasing: xb[1...]), ys: UnsafeBufferPointer(rebasing: yb[1...]), into: out)
                }
            }
        }
        #expect(results == expected)
        #expect(expected.contains(true) && expected.contains(false))
    }
}
