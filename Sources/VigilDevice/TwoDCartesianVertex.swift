import VigilGeometry

/// A zone vertex on the 2D Cartesian grid (Matter `TwoDCartesianVertexStruct`).
/// Origin top-left, x grows right, y grows down.
public struct TwoDCartesianVertex: Sendable, Hashable {
    /// Horizontal coordinate, 0...twoDCartesianMax.x.
    public var x: UInt16
    /// Vertical coordinate, 0...twoDCartesianMax.y.
    public var y: UInt16

    /// Creates a vertex.
    public init(x: UInt16, y: UInt16) {
        self.x = x
        self.y = y
    }

    /// The vertex as a geometry grid point.
    public var gridPoint: GridPoint { GridPoint(x: Int32(x), y: Int32(y)) }
}
