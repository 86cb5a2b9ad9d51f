/// The kind of a zone (Matter `ZoneTypeEnum`); only 2D Cartesian zones exist.
public enum ZoneType: String, Sendable, Hashable, CaseIterable {
    /// A 2D Cartesian polygon zone (0).
    case twoDCARTZone

    /// Matter's numeric value.
    public var matterValue: Int { 0 }
}
