/// A polygon prepared for many fast even-odd point-in-polygon tests in `Float`.
///
/// Each edge is stored as its lower-index end point, the y of its other end, and its inverse
/// slope `dx / dy`. The scalar ``contains(x:y:)`` and the batched ``contains(xs:ys:into:)``
/// (through ``PolygonPointTester``) evaluate exactly the same `Float` expressions, so they agree
/// bit for bit on every point.
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

    /// Tests a batch of points (`results[i]` = whether `(xs[i], ys[i])` is inside) with the
    /// project's one SIMD kernel, ``PolygonPointTester``; same answers as ``contains(x:y:)``.
    /// - Precondition: `xs`, `ys` and `results` have the same count.
    public func contains(
        xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, into results: UnsafeMutableBufferPointer<Bool>
    ) {
        precondition(xs.count == ys.count && xs.count == results.count, "xs, ys and results must have equal counts")
        // Bool and UInt8 share size and alignment, and the kernel writes only 0 or 1.
        results.withMemoryRebound(to: UInt8.self) { PolygonPointTester(self).contains(xs: xs, ys: ys, into: $0) }
    }

    /// Array convenience for ``contains(xs:ys:into:)``.
    public func contains(xs: [Float], ys: [Float]) -> [Bool] { PolygonPointTester(self).contains(xs: xs, ys: ys) }
}
