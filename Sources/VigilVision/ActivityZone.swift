import VigilCore
import VigilGeometry

/// A zone as the motion detector sees it: its ID (`nil` for the region outside every zone),
/// polygon on the grid, sensitivity and drawing colour.
public struct ActivityZone: Sendable, Hashable {
    /// The zone ID; `nil` stands for "outside every zone" (then `polygon` is unused).
    public var id: UInt16?
    /// Display name.
    public var name: String
    /// The polygon in grid coordinates.
    public var polygon: GridPolygon
    /// The motion sensitivity that applies in this zone.
    public var sensitivity: Sensitivity
    /// Outline colour, "#RRGGBB" or "#RRGGBBAA", if any.
    public var color: String?

    /// Creates a zone.
    public init(id: UInt16?, name: String = "", polygon: GridPolygon, sensitivity: Sensitivity, color: String? = nil) {
        self.id = id
        self.name = name
        self.polygon = polygon
        self.sensitivity = sensitivity
        self.color = color
    }

    /// Creates a zone from `(x, y)` grid vertices (for clients that do not import VigilGeometry).
    public init(id: UInt16?, name: String = "", vertices: [(x: Int, y: Int)], sensitivity: Sensitivity, color: String? = nil) {
        self.init(
            id: id, name: name, polygon: GridPolygon(vertices.map { GridPoint(x: Int32($0.x), y: Int32($0.y)) }),
            sensitivity: sensitivity, color: color)
    }
}
