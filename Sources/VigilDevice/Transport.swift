/// The PushAvStreamTransport state that matters for detection.
public struct Transport: Sendable, Hashable {
    /// Active, or inactive ("camera video off": no events).
    public var transportStatus: TransportStatus
    /// When the transport records.
    public var triggerOptions: TransportTriggerOptions

    /// Creates a transport.
    public init(transportStatus: TransportStatus, triggerOptions: TransportTriggerOptions) {
        self.transportStatus = transportStatus
        self.triggerOptions = triggerOptions
    }

    /// Active, motion-triggered anywhere, no own sensitivity (the device sensitivity applies),
    /// the standard time control, 4 s pre-roll.
    public static let standard = Transport(
        transportStatus: .active,
        triggerOptions: TransportTriggerOptions(
            triggerType: .motion, motionZones: nil, motionSensitivity: nil,
            motionTimeControl: .standard, maxPreRollLen: 4000))

    /// Every problem, fields relative to the transport (e.g. `triggerOptions.motionSensitivity`).
    public func validationErrors(knownZoneIDs: Set<UInt16>) -> [MatterCommandError] {
        triggerOptions.validationErrors(knownZoneIDs: knownZoneIDs).map {
            MatterCommandError($0.status, field: "triggerOptions.\($0.field)", $0.reason)
        }
    }
}
