/// When a transport records (Matter `TransportTriggerOptionsStruct`).
public struct TransportTriggerOptions: Sendable, Hashable {
    /// What starts the transport.
    public var triggerType: TransportTriggerType
    /// Zones whose motion triggers; `nil` or empty means motion anywhere.
    public var motionZones: [TransportZoneOptions]?
    /// 1 Low ... 5 Medium ... 10 High; `nil` falls back to the ZoneManagement sensitivity, or 10.
    public var motionSensitivity: Int?
    /// Clip length control.
    public var motionTimeControl: TransportMotionTimeControl?
    /// Pre-roll in milliseconds.
    public var maxPreRollLen: UInt32?

    /// Allowed sensitivities.
    public static let sensitivityRange = 1...10

    /// Creates trigger options.
    public init(
        triggerType: TransportTriggerType, motionZones: [TransportZoneOptions]? = nil, motionSensitivity: Int? = nil,
        motionTimeControl: TransportMotionTimeControl? = nil, maxPreRollLen: UInt32? = nil
    ) {
        self.triggerType = triggerType
        self.motionZones = motionZones
        self.motionSensitivity = motionSensitivity
        self.motionTimeControl = motionTimeControl
        self.maxPreRollLen = maxPreRollLen
    }

    /// Whether motion in `zoneID` (`nil`: outside every zone) starts the transport.
    public func triggers(onMotionInZone zoneID: UInt16?) -> Bool {
        guard let motionZones, !motionZones.isEmpty else { return true }
        return motionZones.contains(where: { $0.zone == zoneID })
    }

    /// Every problem, fields relative to the options: motionZones entries name existing zones
    /// (NotFound), appear once (AlreadyExists) and have sensitivity 1...10; motionSensitivity 1...10;
    /// the time control's own rules (all ConstraintError unless stated).
    public func validationErrors(knownZoneIDs: Set<UInt16>) -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if let motionZones {
            var seen = Set<UInt16?>()
            for (index, entry) in motionZones.enumerated() {
                if let zone = entry.zone, !knownZoneIDs.contains(zone) {
                    errors.append(MatterCommandError(.notFound, field: "motionZones[\(index)].zone", "no zone with ID \(zone)"))
                } else if !seen.insert(entry.zone).inserted {
                    errors.append(
                        MatterCommandError(
                            .alreadyExists, field: "motionZones[\(index)].zone",
                            entry.zone.map { "zone \($0) is listed twice" } ?? "the outside-all-zones entry is listed twice"))
                }
                if let sensitivity = entry.sensitivity, !Self.sensitivityRange.contains(sensitivity) {
                    errors.append(.outOfRange(sensitivity, Self.sensitivityRange, field: "motionZones[\(index)].sensitivity"))
                }
            }
        }
        if let motionSensitivity, !Self.sensitivityRange.contains(motionSensitivity) {
            errors.append(.outOfRange(motionSensitivity, Self.sensitivityRange, field: "motionSensitivity"))
        }
        if let motionTimeControl {
            errors += motionTimeControl.validationErrors().map {
                MatterCommandError($0.status, field: "motionTimeControl.\($0.field)", $0.reason)
            }
        }
        return errors
    }
}
