/// A point on an integer grid (origin top-left, x grows right, y grows down).
///
/// Coordinates are `Int32`; the polygon predicates in this module are exact (64-bit integer
/// arithmetic) for coordinates in `-2^30 ..< 2^30`, which covers every `UInt16` zone vertex.
public struct GridPoint: Sendable, Hashable {
    /// Horizontal coordinate.
    public var x: Int32
    /// Vertical coordinate.
    public var y: Int32

    /// Creates a point.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

extension GridPoint: CustomStringConvertible {
    /// "(x, y)".
    public var description: String { "(\(x), \(y))" }
}
