import VigilGeometry

/// The ZoneManagement cluster state of a device (Matter 0x0550, Google ZoneManagementTrait):
/// its limits, zones and per-zone motion triggers, changed only through commands that
/// validate in the order the spec states.
public struct ZoneManagement: Sendable, Hashable {
    /// Most user-defined zones (at least 5).
    public private(set) var maxUserDefinedZones: Int
    /// Most zones of any source (at least maxUserDefinedZones).
    public private(set) var maxZones: Int
    /// Largest valid vertex; the grid is 0...max inclusive on each axis.
    public private(set) var twoDCartesianMax: TwoDCartesianVertex
    /// Highest sensitivity level (2...10).
    public private(set) var sensitivityMax: Int
    /// Device-level sensitivity 1...sensitivityMax, the default for zones without their own;
    /// `nil` when the device has none (then the transport's motionSensitivity or 10 applies).
    public private(set) var sensitivity: Int?
    /// Whether focus zones may be created.
    public private(set) var supportsFocusZones: Bool
    /// The zones, in creation order.
    public private(set) var zones: [ZoneInformation]
    /// The zone triggers, in creation order (at most one per zone).
    public private(set) var triggers: [ZoneTriggerControl]

    /// Allowed sensitivityMax values.
    public static let sensitivityMaxRange = 2...10
    /// Smallest allowed maxUserDefinedZones.
    public static let minimumUserDefinedZones = 5

    /// Creates an empty zone manager after checking the limits (see ``limitErrors(maxUserDefinedZones:maxZones:twoDCartesianMax:sensitivityMax:sensitivity:)``).
    public init(
        maxUserDefinedZones: Int = 8, maxZones: Int? = nil,
        twoDCartesianMax: TwoDCartesianVertex = TwoDCartesianVertex(x: 2048, y: 2048),
        sensitivityMax: Int = 10, sensitivity: Int? = 5, supportsFocusZones: Bool = false
    ) throws(MatterCommandError) {
        let maxZones = maxZones ?? maxUserDefinedZones
        if let error = Self.limitErrors(
            maxUserDefinedZones: maxUserDefinedZones, maxZones: maxZones, twoDCartesianMax: twoDCartesianMax,
            sensitivityMax: sensitivityMax, sensitivity: sensitivity
        ).first {
            throw error
        }
        self.maxUserDefinedZones = maxUserDefinedZones
        self.maxZones = maxZones
        self.twoDCartesianMax = twoDCartesianMax
        self.sensitivityMax = sensitivityMax
        self.sensitivity = sensitivity
        self.supportsFocusZones = supportsFocusZones
        self.zones = []
        self.triggers = []
    }

    /// Every problem with a set of limits (all ConstraintError), fields named as in the device file:
    /// maxUserDefinedZones >= 5 (and <= 65535), maxZones in maxUserDefinedZones...65535,
    /// twoDCartesianMax x and y >= 1, sensitivityMax 2...10, sensitivity 1...sensitivityMax.
    public static func limitErrors(
        maxUserDefinedZones: Int, maxZones: Int, twoDCartesianMax: TwoDCartesianVertex, sensitivityMax: Int,
        sensitivity: Int?
    ) -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if !(minimumUserDefinedZones...65535).contains(maxUserDefinedZones) {
            errors.append(.outOfRange(maxUserDefinedZones, minimumUserDefinedZones...65535, field: "maxUserDefinedZones"))
        }
        // The lower bound of maxZones: maxUserDefinedZones, or its nearest valid value when it is out of
        // range (that has its own error). Clamped to 65535 so that the range below is never empty.
        let userZones = min(max(maxUserDefinedZones, minimumUserDefinedZones), 65535)
        if !(userZones...65535).contains(maxZones) {
            errors.append(
                MatterCommandError(
                    .constraintError, field: "maxZones",
                    maxZones < userZones
                        ? "\(maxZones) is below maxUserDefinedZones \(userZones)" : "\(maxZones) is out of range \(userZones)...65535"))
        }
        if twoDCartesianMax.x == 0 { errors.append(.outOfRange(0, 1...65535, field: "twoDCartesianMax.x")) }
        if twoDCartesianMax.y == 0 { errors.append(.outOfRange(0, 1...65535, field: "twoDCartesianMax.y")) }
        if !sensitivityMaxRange.contains(sensitivityMax) {
            errors.append(.outOfRange(sensitivityMax, sensitivityMaxRange, field: "sensitivityMax"))
        }
        if let sensitivity {
            let top = min(max(sensitivityMax, 2), 10)
            if !(1...top).contains(sensitivity) { errors.append(.outOfRange(sensitivity, 1...top, field: "sensitivity")) }
        }
        return errors
    }

    // MARK: Queries

    /// The zone with `zoneID`, if any.
    public func zone(id zoneID: UInt16) -> ZoneInformation? { zones.first(where: { $0.zoneID == zoneID }) }

    /// The trigger of zone `zoneID`, if any.
    public func trigger(forZone zoneID: UInt16) -> ZoneTriggerControl? { triggers.first(where: { $0.zoneID == zoneID }) }

    /// Number of user-defined zones.
    public var userDefinedZoneCount: Int { zones.reduce(0) { $0 + ($1.zoneSource == .user ? 1 : 0) } }

    /// The lowest zone ID, counting from 1, that no zone uses (`nil` if all 65535 are taken).
    public var lowestUnusedZoneID: UInt16? {
        let used = Set(zones.map(\.zoneID))
        var candidate: UInt16 = 1
        while used.contains(candidate) {
            if candidate == UInt16.max { return nil }
            candidate += 1
        }
        return candidate
    }

    // MARK: Settings

    /// Sets the device-level sensitivity (1...sensitivityMax, or `nil`); ConstraintError otherwise.
    public mutating func setSensitivity(_ value: Int?) throws(MatterCommandError) {
        if let value, !(1...sensitivityMax).contains(value) {
            throw .outOfRange(value, 1...sensitivityMax, field: "sensitivity")
        }
        sensitivity = value
    }

    /// Enables or disables focus-zone support (existing focus zones are kept).
    public mutating func setSupportsFocusZones(_ value: Bool) { supportsFocusZones = value }

    // MARK: Zone commands

    /// `CreateTwoDCartesianZone`: adds a user zone and returns its ID, the lowest unused ID from 1.
    ///
    /// Checks, in order: name longer than 32, unknown or missing use, vertex count outside 3...12,
    /// bad color -> ConstraintError; user zones already at maxUserDefinedZones (or all zones at
    /// maxZones) -> ResourceExhausted; Focus without focus support -> ConstraintError; vertex beyond
    /// twoDCartesianMax -> DynamicConstraintError; same use and identical ordered vertices as an
    /// existing zone -> AlreadyExists; self-intersecting polygon -> DynamicConstraintError.
    @discardableResult
    public mutating func createTwoDCartesianZone(_ zone: TwoDCartesianZone) throws(MatterCommandError) -> UInt16 {
        if let error = zone.constraintError() { throw error }
        try checkCapacity(for: .user)
        try checkAgainstState(zone, excluding: nil)
        guard let zoneID = lowestUnusedZoneID else {
            throw MatterCommandError(.resourceExhausted, field: "", "no unused zone ID left")
        }
        zones.append(ZoneInformation(zoneID: zoneID, zoneSource: .user, zone: zone))
        return zoneID
    }

    /// `UpdateTwoDCartesianZone`: replaces the polygon of an existing user zone.
    ///
    /// Checks, in order: the state-independent zone checks (ConstraintError, as for create);
    /// unknown ID -> NotFound; manufacturer zone -> ConstraintError; Focus without support ->
    /// ConstraintError; vertex beyond max -> DynamicConstraintError; duplicate of another zone
    /// (the zone itself is skipped) -> AlreadyExists; self-intersecting -> DynamicConstraintError.
    /// A zone whose trigger exists must keep the motion use (else InvalidInState).
    public mutating func updateTwoDCartesianZone(id zoneID: UInt16, zone: TwoDCartesianZone) throws(MatterCommandError) {
        if let error = zone.constraintError() { throw error }
        guard let index = zones.firstIndex(where: { $0.zoneID == zoneID }) else {
            throw MatterCommandError(.notFound, field: "zoneID", "no zone with ID \(zoneID)")
        }
        if zones[index].zoneSource == .mfg {
            throw MatterCommandError(.constraintError, field: "zoneID", "zone \(zoneID) is manufacturer-defined and read-only")
        }
        try checkAgainstState(zone, excluding: zoneID)
        if !zone.isMotionZone && trigger(forZone: zoneID) != nil {
            throw MatterCommandError(
                .invalidInState, field: "use", "zone \(zoneID) has a trigger, so its use must include motion")
        }
        zones[index].zone = zone
    }

    /// `RemoveZone`: unknown ID -> NotFound; manufacturer zone -> ConstraintError; zone still has a
    /// trigger -> InvalidInState.
    public mutating func removeZone(_ zoneID: UInt16) throws(MatterCommandError) {
        guard let index = zones.firstIndex(where: { $0.zoneID == zoneID }) else {
            throw MatterCommandError(.notFound, field: "zoneID", "no zone with ID \(zoneID)")
        }
        if zones[index].zoneSource == .mfg {
            throw MatterCommandError(.constraintError, field: "zoneID", "zone \(zoneID) is manufacturer-defined and read-only")
        }
        if trigger(forZone: zoneID) != nil {
            throw MatterCommandError(.invalidInState, field: "zoneID", "zone \(zoneID) still has a trigger")
        }
        zones.remove(at: index)
    }

    /// Adds a zone with a given ID and source, as when loading a saved device. Runs every create
    /// check (capacity per source) after: ID 0 -> ConstraintError, ID in use -> AlreadyExists.
    public mutating func restoreZone(_ information: ZoneInformation) throws(MatterCommandError) {
        if information.zoneID == 0 { throw .outOfRange(0, 1...65535, field: "zoneID") }
        if zone(id: information.zoneID) != nil {
            throw MatterCommandError(.alreadyExists, field: "zoneID", "zone ID \(information.zoneID) is already in use")
        }
        if let error = information.zone.constraintError() { throw error }
        try checkCapacity(for: information.zoneSource)
        try checkAgainstState(information.zone, excluding: nil)
        zones.append(information)
    }

    // MARK: Trigger commands

    /// `CreateOrUpdateTrigger`: adds the zone's trigger or replaces it.
    ///
    /// Checks, in order: zone exists (NotFound); zone use includes motion (ConstraintError);
    /// initialDuration 1...65535; augmentationDuration <= initialDuration; maxDuration >=
    /// initialDuration; sensitivity 1...sensitivityMax (all ConstraintError).
    public mutating func createOrUpdateTrigger(_ trigger: ZoneTriggerControl) throws(MatterCommandError) {
        try validate(trigger)
        if let index = triggers.firstIndex(where: { $0.zoneID == trigger.zoneID }) {
            triggers[index] = trigger
        } else {
            triggers.append(trigger)
        }
    }

    /// `RemoveTrigger`: NotFound when the zone has no trigger.
    public mutating func removeTrigger(zoneID: UInt16) throws(MatterCommandError) {
        guard let index = triggers.firstIndex(where: { $0.zoneID == zoneID }) else {
            throw MatterCommandError(.notFound, field: "zoneID", "zone \(zoneID) has no trigger")
        }
        triggers.remove(at: index)
    }

    /// The checks of ``createOrUpdateTrigger(_:)`` without changing anything.
    public func validate(_ trigger: ZoneTriggerControl) throws(MatterCommandError) {
        guard let information = zone(id: trigger.zoneID) else {
            throw MatterCommandError(.notFound, field: "zoneID", "no zone with ID \(trigger.zoneID)")
        }
        if !information.zone.isMotionZone {
            throw MatterCommandError(
                .constraintError, field: "zoneID", "zone \(trigger.zoneID) is not a motion zone")
        }
        if !ZoneTriggerControl.initialDurationRange.contains(trigger.initialDuration) {
            throw .outOfRange(trigger.initialDuration, ZoneTriggerControl.initialDurationRange, field: "initialDuration")
        }
        if trigger.augmentationDuration > trigger.initialDuration {
            throw MatterCommandError(
                .constraintError, field: "augmentationDuration",
                "\(trigger.augmentationDuration) exceeds initialDuration \(trigger.initialDuration)")
        }
        if trigger.maxDuration < trigger.initialDuration {
            throw MatterCommandError(
                .constraintError, field: "maxDuration",
                "\(trigger.maxDuration) is below initialDuration \(trigger.initialDuration)")
        }
        if let sensitivity = trigger.sensitivity, !(1...sensitivityMax).contains(sensitivity) {
            throw .outOfRange(sensitivity, 1...sensitivityMax, field: "sensitivity")
        }
    }

    // MARK: Private checks

    private func checkCapacity(for source: ZoneSource) throws(MatterCommandError) {
        if source == .user && userDefinedZoneCount >= maxUserDefinedZones {
            throw MatterCommandError(
                .resourceExhausted, field: "", "already \(userDefinedZoneCount) user zones, maxUserDefinedZones is \(maxUserDefinedZones)")
        }
        if zones.count >= maxZones {
            throw MatterCommandError(.resourceExhausted, field: "", "already \(zones.count) zones, maxZones is \(maxZones)")
        }
    }

    /// The state-dependent checks shared by create, update and restore, in spec order.
    private func checkAgainstState(_ zone: TwoDCartesianZone, excluding excludedID: UInt16?) throws(MatterCommandError) {
        if zone.use.contains(.focus) && !supportsFocusZones {
            throw MatterCommandError(.constraintError, field: "use", "focus zones are not supported by this device")
        }
        for (index, vertex) in zone.vertices.enumerated() {
            if vertex.x > twoDCartesianMax.x {
                throw MatterCommandError(
                    .dynamicConstraintError, field: "vertices[\(index)].x", "\(vertex.x) exceeds twoDCartesianMax.x \(twoDCartesianMax.x)")
            }
            if vertex.y > twoDCartesianMax.y {
                throw MatterCommandError(
                    .dynamicConstraintError, field: "vertices[\(index)].y", "\(vertex.y) exceeds twoDCartesianMax.y \(twoDCartesianMax.y)")
            }
        }
        if let duplicate = zones.first(where: {
            $0.zoneID != excludedID && Set($0.zone.use) == Set(zone.use) && $0.zone.vertices == zone.vertices
        }) {
            throw MatterCommandError(
                .alreadyExists, field: "vertices", "same use and vertices as zone \(duplicate.zoneID)")
        }
        if let defect = GridPolygon(zone.vertices.map(\.gridPoint)).simplicityDefect {
            throw MatterCommandError(.dynamicConstraintError, field: "vertices", "self-intersecting polygon: \(defect)")
        }
    }
}
