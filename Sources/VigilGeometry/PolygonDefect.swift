/// Why a vertex list is not a simple (non-self-intersecting) polygon.
///
/// Vertex and edge indices are 0-based; edge `i` joins vertex `i` to vertex `(i + 1) % count`.
public enum PolygonDefect: Sendable, Hashable {
    /// Fewer than 3 vertices: no area at all.
    case tooFewVertices(count: Int)
    /// The same point appears at two positions (including first == last).
    case repeatedVertex(first: Int, second: Int)
    /// Exactly 3 vertices on one line.
    case collinearTriangle
    /// Two non-adjacent edges intersect, touch, or overlap.
    case intersectingEdges(first: Int, second: Int)
}

extension PolygonDefect: CustomStringConvertible {
    /// A short English explanation, e.g. "edges 0 and 2 intersect".
    public var description: String {
        switch self {
        case .tooFewVertices(let count): return "only \(count) vertices, at least 3 needed"
        case .repeatedVertex(let first, let second): return "vertices \(first) and \(second) are the same point"
        case .collinearTriangle: return "the 3 vertices are collinear"
        case .intersectingEdges(let first, let second): return "edges \(first) and \(second) intersect"
        }
    }
}
