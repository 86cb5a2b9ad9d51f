/// One zone of a device (Matter `ZoneInformationStruct`).
public struct ZoneInformation: Sendable, Hashable {
    /// The zone's ID (1...65535).
    public var zoneID: UInt16
    /// The zone's kind.
    public var zoneType: ZoneType
    /// Who defined the zone; manufacturer zones are read-only.
    public var zoneSource: ZoneSource
    /// The polygon.
    public var zone: TwoDCartesianZone

    /// Creates zone information.
    public init(zoneID: UInt16, zoneType: ZoneType = .twoDCARTZone, zoneSource: ZoneSource = .user, zone: TwoDCartesianZone) {
        self.zoneID = zoneID
        self.zoneType = zoneType
        self.zoneSource = zoneSource
        self.zone = zone
    }
}
