/// A polygon prepared for many fast even-odd point-in-polygon tests in `Float`.
///
/// Each edge is stored as its lower-index end point, the y of its other end, and its inverse
/// slope `dx / dy`. The scalar ``contains(x:y:)`` and the batched ``contains(xs:ys:into:)``
/// evaluate exactly the same `Float` expressions, so they agree bit for bit on every point.
/// The crossing rule is the half-open rule of ``GridPolygon/contains(x:y:)``.
public struct PreparedPolygon: Sendable, Hashable {
    /// Edge start x per edge.
    public let edgeX: [Float]
    /// Edge start y per edge.
    public let edgeY: [Float]
    /// Edge end y per edge.
    public let edgeEndY: [Float]
    /// `(endX - startX) / (endY - startY)` per edge; 0 for horizontal edges (which never cross).
    public let inverseSlope: [Float]

    /// Prepares a polygon from vertices given as `(x, y)` pairs in any coordinate space.
    /// Fewer than 3 vertices give a polygon that contains no point.
    public init(vertices: [(x: Float, y: Float)]) {
        let count = vertices.count
        guard count >= 3 else {
            edgeX = []
            edgeY = []
            edgeEndY = []
            inverseSlope = []
            return
        }
        var xs: [Float] = [], ys: [Float] = [], endYs: [Float] = [], slopes: [Float] = []
        xs.reserveCapacity(count)
        ys.reserveCapacity(count)
        endYs.reserveCapacity(count)
        slopes.reserveCapacity(count)
        var previous = vertices[count - 1]
        for current in vertices {
            xs.append(current.x)
            ys.append(current.y)
            endYs.append(previous.y)
            let dy = previous.y - current.y
            slopes.append(dy == 0 ? 0 : (previous.x - current.x) / dy)
            previous = current
        }
        edgeX = xs
        edgeY = ys
        edgeEndY = endYs
        inverseSlope = slopes
    }

    /// Prepares a grid polygon (coordinates converted to `Float`).
    public init(_ polygon: GridPolygon) {
        self.init(vertices: polygon.vertices.map { (x: Float($0.x), y: Float($0.y)) })
    }

    /// Number of edges (0 for a degenerate polygon).
    public var edgeCount: Int { edgeX.count }

    /// Even-odd test of one point.
    public func contains(x: Float, y: Float) -> Bool {
        var inside = false
        for edge in 0..<edgeX.count {
            let y0 = edgeY[edge]
            let y1 = edgeEndY[edge]
            let crossingX = edgeX[edge] + (y - y0) * inverseSlope[edge]
            if ((y0 > y) != (y1 > y)) && x < crossingX { inside.toggle() }
        }
        return inside
    }

    /// Even-odd test of `xs.count` points, eight at a time with `SIMD8<Float>`.
    ///
    /// For each edge the crossing test is branch-free over the eight lanes; the lanes' parity
    /// is accumulated with XOR over all edges. A tail shorter than 8 is padded internally.
    /// - Precondition: `xs`, `ys` and `results` have the same count.
    public func contains(
        xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, into results: UnsafeMutableBufferPointer<Bool>
    ) {
        precondition(xs.count == ys.count && xs.count == results.count, "xs, ys and results must have equal counts")
        let count = xs.count
        var start = 0
        while start < count {
            let lanes = min(8, count - start)
            var px = SIMD8<Float>(repeating: 0)
            var py = SIMD8<Float>(repeating: 0)
            if lanes == 8, let xBase = xs.baseAddress, let yBase = ys.baseAddress {
                px = UnsafeRawPointer(xBase + start).loadUnaligned(as: SIMD8<Float>.self)
                py = UnsafeRawPointer(yBase + start).loadUnaligned(as: SIMD8<Float>.self)
            } else {
                for lane in 0..<lanes {
                    px[lane] = xs[start + lane]
                    py[lane] = ys[start + lane]
                }
            }
            let inside = insideMask(px: px, py: py)
            for lane in 0..<lanes { results[start + lane] = inside[lane] }
            start += 8
        }
    }

    /// Array convenience for ``contains(xs:ys:into:)``.
    public func contains(xs: [Float], ys: [Float]) -> [Bool] {
        precondition(xs.count == ys.count, "xs and ys must have equal counts")
        var results = [Bool](repeating: false, count: xs.count)
        xs.withUnsafeBufferPointer { xBuffer in
            ys.withUnsafeBufferPointer { yBuffer in
                results.withUnsafeMutableBufferPointer { out in
                    contains(xs: xBuffer, ys: yBuffer, into: out)
                }
            }
        }
        return results
    }

    /// The even-odd parity of eight points.
    @inline(__always)
    private func insideMask(px: SIMD8<Float>, py: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> {
        var inside = SIMDMask<SIMD8<Int32>>(repeating: false)
        for edge in 0..<edgeX.count {
            let y0 = SIMD8<Float>(repeating: edgeY[edge])
            let y1 = SIMD8<Float>(repeating: edgeEndY[edge])
            let crossingX = SIMD8<Float>(repeating: edgeX[edge]) + (py - y0) * SIMD8<Float>(repeating: inverseSlope[edge])
            let straddles = (y0 .> py) .^ (y1 .> py)
            inside .^= straddles .& (px .< crossingX)
        }
        return inside
    }
}
