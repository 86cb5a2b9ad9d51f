/// One entry of the transport's `motionZones` (Matter `TransportZoneOptionsStruct`).
public struct TransportZoneOptions: Sendable, Hashable {
    /// The zone; `nil` means motion anywhere outside every zone.
    public var zone: UInt16?
    /// Sensitivity for this zone, 1...10; `nil` uses the transport's motionSensitivity.
    public var sensitivity: Int?

    /// Creates an entry.
    public init(zone: UInt16?, sensitivity: Int? = nil) {
        self.zone = zone
        self.sensitivity = sensitivity
    }
}
