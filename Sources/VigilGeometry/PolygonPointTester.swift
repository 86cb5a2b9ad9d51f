/// Batched even-odd point-in-polygon tests for zone anchors and benchmarks, in `SIMD8<Float>`.
///
/// Built from a ``PreparedPolygon`` and evaluating exactly its `Float` expressions
/// (`crossingX = edgeX + (y - edgeY) * inverseSlope`, half-open straddle test), so its answers
/// equal ``PreparedPolygon/contains(x:y:)`` and ``ZoneRasterizer`` bit for bit. Edges are stored
/// as contiguous tuples and points are processed sixteen at a time (two independent SIMD8
/// accumulators) for instruction-level parallelism; results are bytes (1 inside, 0 outside).
public struct PolygonPointTester: Sendable {
    /// One edge: lower and upper y (the straddle interval is `low <= y < high`), start point and slope.
    @usableFromInline
    struct Edge: Sendable {
        @usableFromInline var low: Float
        @usableFromInline var high: Float
        @usableFromInline var x0: Float
        @usableFromInline var y0: Float
        @usableFromInline var slope: Float
    }

    @usableFromInline let edges: [Edge]
    /// Bounding box of the polygon (points outside it are outside without an edge test).
    public let minX: Float, minY: Float, maxX: Float, maxY: Float

    /// Prepares `polygon` (grid or any coordinates).
    public init(_ polygon: PreparedPolygon) {
        var edges: [Edge] = []
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for i in 0..<polygon.edgeCount {
            let y0 = polygon.edgeY[i], y1 = polygon.edgeEndY[i]
            minX = min(minX, polygon.edgeX[i])
            maxX = max(maxX, polygon.edgeX[i])
            minY = min(minY, y0)
            maxY = max(maxY, y0)
            // Horizontal edges never straddle; drop them.
            if y0 == y1 { continue }
            edges.append(Edge(low: min(y0, y1), high: max(y0, y1), x0: polygon.edgeX[i], y0: y0, slope: polygon.inverseSlope[i]))
        }
        self.edges = polygon.edgeCount >= 3 ? edges : []
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Prepares a grid polygon.
    public init(_ polygon: GridPolygon) { self.init(PreparedPolygon(polygon)) }

    /// Prepares a polygon from `(x, y)` vertices (it closes implicitly).
    public init(vertices: [(x: Float, y: Float)]) { self.init(PreparedPolygon(vertices: vertices)) }

    /// Whether (x, y) is inside (scalar; same answer as the batch).
    public func contains(x: Float, y: Float) -> Bool {
        var inside = false
        for e in edges where e.low <= y && y < e.high && x < e.x0 + (y - e.y0) * e.slope { inside.toggle() }
        return inside
    }

    /// Tests `xs.count` points; `results[i]` becomes 1 inside, 0 outside.
    /// - Precondition: the three buffers have equal counts.
    public func contains(xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, into results: UnsafeMutableBufferPointer<UInt8>) {
        precondition(xs.count == ys.count && xs.count == results.count, "xs, ys and results must have equal counts")
        let count = xs.count
        guard count > 0 else { return }
        guard !edges.isEmpty else {
            results.update(repeating: 0)
            return
        }
        let px = xs.baseAddress!, py = ys.baseAddress!, out = results.baseAddress!
        edges.withUnsafeBufferPointer { edgeBuffer in
            let e = edgeBuffer.baseAddress!
            let edgeCount = edgeBuffer.count
            var start = 0
            while start + 16 <= count {
                let xa = UnsafeRawPointer(px + start).loadUnaligned(as: SIMD8<Float>.self)
                let ya = UnsafeRawPointer(py + start).loadUnaligned(as: SIMD8<Float>.self)
                let xb = UnsafeRawPointer(px + start + 8).loadUnaligned(as: SIMD8<Float>.self)
                let yb = UnsafeRawPointer(py + start + 8).loadUnaligned(as: SIMD8<Float>.self)
                var ia = SIMD8<Int32>(repeating: 0)
                var ib = SIMD8<Int32>(repeating: 0)
                for k in 0..<edgeCount {
                    let edge = e[k]
                    let low = SIMD8<Float>(repeating: edge.low), high = SIMD8<Float>(repeating: edge.high)
                    let x0 = SIMD8<Float>(repeating: edge.x0), y0 = SIMD8<Float>(repeating: edge.y0)
                    let slope = SIMD8<Float>(repeating: edge.slope)
                    let ca = x0 + (ya - y0) * slope
                    let cb = x0 + (yb - y0) * slope
                    let ha = (low .<= ya) .& (ya .< high) .& (xa .< ca)
                    let hb = (low .<= yb) .& (yb .< high) .& (xb .< cb)
                    ia ^= SIMD8<Int32>(repeating: 1).replacing(with: 0, where: .!ha)
                    ib ^= SIMD8<Int32>(repeating: 1).replacing(with: 0, where: .!hb)
                }
                UnsafeMutableRawPointer(out + start).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: ia), as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(out + start + 8).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: ib), as: SIMD8<UInt8>.self)
                start += 16
            }
            while start < count {
                out[start] = contains(x: px[start], y: py[start]) ? 1 : 0
                start += 1
            }
        }
    }

    /// Array convenience: one Bool per point.
    public func contains(xs: [Float], ys: [Float]) -> [Bool] {
        precondition(xs.count == ys.count, "xs and ys must have equal counts")
        var bytes = [UInt8](repeating: 0, count: xs.count)
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in bytes.withUnsafeMutableBufferPointer { contains(xs: x, ys: y, into: $0) } }
        }
        return bytes.map { $0 != 0 }
    }
}
