/// A polygonal zone on the 2D Cartesian grid (Matter `TwoDCartesianZoneStruct`).
public struct TwoDCartesianZone: Sendable, Hashable {
    /// Display name, at most ``maxNameLength`` characters.
    public var name: String
    /// Uses: one entry for Matter's single value, several for Google's list.
    public var use: [ZoneUse]
    /// 3...12 vertices; the polygon closes implicitly.
    public var vertices: [TwoDCartesianVertex]
    /// "#RRGGBB" or "#RRGGBBAA", if any.
    public var color: String?

    /// Longest allowed name, in characters.
    public static let maxNameLength = 32
    /// Allowed vertex counts.
    public static let vertexCountRange = 3...12

    /// Creates a zone.
    public init(name: String, use: [ZoneUse], vertices: [TwoDCartesianVertex], color: String? = nil) {
        self.name = name
        self.use = use
        self.vertices = vertices
        self.color = color
    }

    /// Whether motion in this zone is detected (use contains motion).
    public var isMotionZone: Bool { use.contains(.motion) }
    /// Whether this zone is a privacy mask.
    public var isPrivacyZone: Bool { use.contains(.privacy) }

    /// The state-independent checks, in order: name length, use (non-empty, all known), vertex
    /// count 3...12, color format. Each failure is ConstraintError.
    public func constraintError() -> MatterCommandError? {
        if name.count > Self.maxNameLength {
            return MatterCommandError(
                .constraintError, field: "name", "\(name.count) characters exceed the maximum \(Self.maxNameLength)")
        }
        if use.isEmpty { return MatterCommandError(.constraintError, field: "use", "at least one use is required") }
        if let index = use.firstIndex(where: { !$0.isKnown }) {
            let field = use.count == 1 ? "use" : "use[\(index)]"
            return MatterCommandError(.constraintError, field: field, "unknown zone use \"\(use[index].wireName)\"")
        }
        if !Self.vertexCountRange.contains(vertices.count) {
            return MatterCommandError(
                .constraintError, field: "vertices", "\(vertices.count) vertices, expected 3...12")
        }
        if let color, !Self.isValidColor(color) {
            return MatterCommandError(.constraintError, field: "color", "\"\(color)\" is not #RRGGBB or #RRGGBBAA")
        }
        return nil
    }

    /// Whether `text` is "#RRGGBB" or "#RRGGBBAA" with hex digits.
    public static func isValidColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 7 || bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
