/// A polygon on the integer grid; it closes implicitly (the last vertex joins the first).
public struct GridPolygon: Sendable, Hashable {
    /// The vertices in order.
    public var vertices: [GridPoint]

    /// Creates a polygon from its vertices.
    public init(_ vertices: [GridPoint]) {
        self.vertices = vertices
    }

    /// Creates a polygon from `(x, y)` pairs.
    public init(_ pairs: [(Int32, Int32)]) {
        self.vertices = pairs.map { GridPoint(x: $0.0, y: $0.1) }
    }

    /// The first reason the polygon is not simple, or `nil` if it is simple.
    ///
    /// The rule (Matter ZoneManagement), checked in this order:
    /// 1. fewer than 3 vertices is a defect;
    /// 2. any repeated vertex (anywhere, first == last included) is a defect;
    /// 3. exactly 3 vertices are a defect only when collinear;
    /// 4. otherwise no two non-adjacent edges may intersect; touching and collinear
    ///    overlap count as intersecting. Adjacent edges (sharing a vertex) are not compared.
    ///
    /// Cross products are computed in 64-bit integers, so the answer is exact.
    public var simplicityDefect: PolygonDefect? {
        let count = vertices.count
        if count < 3 { return .tooFewVertices(count: count) }
        var firstIndex: [GridPoint: Int] = [:]
        for (index, vertex) in vertices.enumerated() {
            if let earlier = firstIndex[vertex] { return .repeatedVertex(first: earlier, second: index) }
            firstIndex[vertex] = index
        }
        if count == 3 {
            return Self.orientation(vertices[0], vertices[1], vertices[2]) == 0 ? .collinearTriangle : nil
        }
        for i in 0..<count {
            let a = vertices[i]
            let b = vertices[(i + 1) % count]
            // Edge j > i + 1 is non-adjacent unless it is the closing edge next to edge 0.
            var j = i + 2
            while j < count {
                if !(i == 0 && j == count - 1) {
                    let c = vertices[j]
                    let d = vertices[(j + 1) % count]
                    if Self.segmentsIntersect(a, b, c, d) { return .intersectingEdges(first: i, second: j) }
                }
                j += 1
            }
        }
        return nil
    }

    /// Whether the polygon is not simple (see ``simplicityDefect``).
    public var isSelfIntersecting: Bool { simplicityDefect != nil }

    /// Twice the signed area (shoelace formula) in 64-bit integers: positive when the vertices
    /// run clockwise on screen (y down), i.e. counter-clockwise in y-up coordinates.
    public var doubledSignedArea: Int64 {
        let count = vertices.count
        guard count >= 3 else { return 0 }
        var sum: Int64 = 0
        for i in 0..<count {
            let p = vertices[i]
            let q = vertices[(i + 1) % count]
            sum += Int64(p.x) * Int64(q.y) - Int64(q.x) * Int64(p.y)
        }
        return sum
    }

    /// The enclosed area (absolute shoelace area; meaningful for simple polygons).
    public var area: Double { Double(doubledSignedArea.magnitude) / 2 }

    /// Even-odd point-in-polygon test for a real-valued point.
    ///
    /// Uses the half-open crossing rule: an edge counts when exactly one end lies strictly
    /// below `y` (greater y), and the crossing lies strictly right of `x`. Points exactly on
    /// the boundary are therefore inside on some edges and outside on others; callers that
    /// need a boundary convention should not rely on either answer. Polygons with fewer than
    /// 3 vertices contain no point.
    public func contains(x: Double, y: Double) -> Bool {
        let count = vertices.count
        guard count >= 3 else { return false }
        var inside = false
        var previous = vertices[count - 1]
        for current in vertices {
            let xi = Double(current.x), yi = Double(current.y)
            let xj = Double(previous.x), yj = Double(previous.y)
            if (yi > y) != (yj > y) {
                let crossingX = xi + (y - yi) * (xj - xi) / (yj - yi)
                if x < crossingX { inside.toggle() }
            }
            previous = current
        }
        return inside
    }

    /// The sign of the cross product (b - a) x (c - a): > 0, 0 (collinear) or < 0.
    public static func orientation(_ a: GridPoint, _ b: GridPoint, _ c: GridPoint) -> Int {
        let cross =
            (Int64(b.x) - Int64(a.x)) * (Int64(c.y) - Int64(a.y))
            - (Int64(b.y) - Int64(a.y)) * (Int64(c.x) - Int64(a.x))
        return cross > 0 ? 1 : (cross < 0 ? -1 : 0)
    }

    /// Whether closed segments `ab` and `cd` share at least one point (crossing, touching,
    /// or collinear overlap).
    public static func segmentsIntersect(_ a: GridPoint, _ b: GridPoint, _ c: GridPoint, _ d: GridPoint) -> Bool {
        let o1 = orientation(a, b, c)
        let o2 = orientation(a, b, d)
        let o3 = orientation(c, d, a)
        let o4 = orientation(c, d, b)
        if o1 != o2 && o3 != o4 && o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 { return true }
        if o1 == 0 && onSegment(a, b, c) { return true }
        if o2 == 0 && onSegment(a, b, d) { return true }
        if o3 == 0 && onSegment(c, d, a) { return true }
        if o4 == 0 && onSegment(c, d, b) { return true }
        return false
    }

    /// For `p` collinear with `ab`: whether `p` lies within the bounding box of `ab`.
    private static func onSegment(_ a: GridPoint, _ b: GridPoint, _ p: GridPoint) -> Bool {
        min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }
}
