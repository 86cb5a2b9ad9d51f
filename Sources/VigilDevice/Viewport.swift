/// The digital crop/zoom window in sensor coordinates (Matter `ViewportStruct`).
/// Zones stay in sensor space and do not move with it.
public struct Viewport: Sendable, Hashable {
    /// Left edge.
    public var x1: UInt16
    /// Top edge.
    public var y1: UInt16
    /// Right edge.
    public var x2: UInt16
    /// Bottom edge.
    public var y2: UInt16

    /// Creates a viewport.
    public init(x1: UInt16, y1: UInt16, x2: UInt16, y2: UInt16) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// Every problem: x1 < x2 and y1 < y2 (ConstraintError); x2, y2 within `maximum`
    /// (DynamicConstraintError). Fields relative to the viewport.
    public func validationErrors(maximum: TwoDCartesianVertex) -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if x1 >= x2 { errors.append(MatterCommandError(.constraintError, field: "x2", "\(x2) is not greater than x1 \(x1)")) }
        if y1 >= y2 { errors.append(MatterCommandError(.constraintError, field: "y2", "\(y2) is not greater than y1 \(y1)")) }
        if x2 > maximum.x {
            errors.append(MatterCommandError(.dynamicConstraintError, field: "x2", "\(x2) exceeds twoDCartesianMax.x \(maximum.x)"))
        }
        if y2 > maximum.y {
            errors.append(MatterCommandError(.dynamicConstraintError, field: "y2", "\(y2) exceeds twoDCartesianMax.y \(maximum.y)"))
        }
        return errors
    }
}
