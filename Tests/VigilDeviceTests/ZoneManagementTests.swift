import Testing
import VigilDevice

func vertices(_ pairs: [(UInt16, UInt16)]) -> [TwoDCartesianVertex] { pairs.map { TwoDCartesianVertex(x: $0.0, y: $0.1) } }

let square = vertices([(100, 100), (200, 100), (200, 200), (100, 200)])

func motionZone(_ name: String = "Porch", _ points: [TwoDCartesianVertex] = square, color: String? = "#F439A0")
    -> TwoDCartesianZone
{
    TwoDCartesianZone(name: name, use: [.motion], vertices: points, color: color)
}

func makeZoneManagement(maxUser: Int = 5, focus: Bool = false) throws -> ZoneManagement {
    try ZoneManagement(
        maxUserDefinedZones: maxUser, twoDCartesianMax: TwoDCartesianVertex(x: 2048, y: 2048), sensitivityMax: 10,
        sensitivity: 5, supportsFocusZones: focus)
}

/// Runs `body` and returns the `MatterCommandError` it throws (`nil` if it succeeds; any other
/// error is recorded as an issue).
func commandError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> MatterCommandError? {
    do {
        try body()
        return nil
    } catch let error as MatterCommandError {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite struct ZoneManagementLimitTests {
    @Test func defaultsAreValid() throws {
        let zones = try makeZoneManagement()
        #expect(zones.maxZones == 5)
        #expect(zones.zones.isEmpty && zones.triggers.isEmpty)
    }

    @Test(arguments: [
        (4, 4, 10, 5, "maxUserDefinedZones"),
        (5, 4, 10, 5, "maxZones"),
        (5, 5, 1, 1, "sensitivityMax"),
        (5, 5, 11, 5, "sensitivityMax"),
        (5, 5, 4, 5, "sensitivity"),
        (5, 5, 4, 0, "sensitivity"),
    ])
    func invalidLimitsAreConstraintErrors(maxUser: Int, maxZones: Int, sensitivityMax: Int, sensitivity: Int, field: String) {
        let error = commandError {
            _ = try ZoneManagement(
                maxUserDefinedZones: maxUser, maxZones: maxZones, sensitivityMax: sensitivityMax, sensitivity: sensitivity)
        }
        #expect(error?.status == .constraintError)
        #expect(error?.field == field)
    }

    @Test func zeroGridIsRejected() {
        let errors = ZoneManagement.limitErrors(
            maxUserDefinedZones: 5, maxZones: 5, twoDCartesianMax: TwoDCartesianVertex(x: 0, y: 0), sensitivityMax: 10,
            sensitivity: nil)
        #expect(errors.map(\.field) == ["twoDCartesianMax.x", "twoDCartesianMax.y"])
    }

    @Test func setSensitivityChecksRange() throws {
        var zones = try makeZoneManagement()
        try zones.setSensitivity(10)
        #expect(zones.sensitivity == 10)
        try zones.setSensitivity(nil)
        #expect(zones.sensitivity == nil)
        #expect(commandError { try zones.setSensitivity(11) }?.reason == "11 is out of range 1...10")
    }
}

@Suite struct CreateZoneTests {
    @Test func assignsLowestUnusedIDFromOne() throws {
        var zones = try makeZoneManagement()
        #expect(try zones.createTwoDCartesianZone(motionZone("a", vertices([(0, 0), (10, 0), (0, 10)]))) == 1)
        #expect(try zones.createTwoDCartesianZone(motionZone("b", vertices([(0, 0), (20, 0), (0, 20)]))) == 2)
        #expect(try zones.createTwoDCartesianZone(motionZone("c", vertices([(0, 0), (30, 0), (0, 30)]))) == 3)
        try zones.removeZone(2)
        #expect(try zones.createTwoDCartesianZone(motionZone("d", vertices([(0, 0), (40, 0), (0, 40)]))) == 2)
        #expect(try zones.createTwoDCartesianZone(motionZone("e", vertices([(0, 0), (50, 0), (0, 50)]))) == 4)
        #expect(zones.zones.map(\.zoneID) == [1, 3, 2, 4])
        #expect(zones.zone(id: 2)?.zone.name == "d")
        #expect(zones.zone(id: 2)?.zoneSource == .user)
    }

    static let failures: [(String, TwoDCartesianZone, MatterStatus, String)] = [
        ("name of 33 characters", motionZone(String(repeating: "n", count: 33)), .constraintError, "name"),
        ("no use", TwoDCartesianZone(name: "z", use: [], vertices: square), .constraintError, "use"),
        ("unknown use", TwoDCartesianZone(name: "z", use: [.unrecognized("door")], vertices: square), .constraintError, "use"),
        (
            "unknown use in a list", TwoDCartesianZone(name: "z", use: [.motion, .unrecognized("9")], vertices: square),
            .constraintError, "use[1]"
        ),
        ("2 vertices", motionZone("z", vertices([(0, 0), (5, 5)])), .constraintError, "vertices"),
        (
            "13 vertices", motionZone("z", (0..<13).map { TwoDCartesianVertex(x: UInt16($0 * 10), y: UInt16($0 * $0)) }), .constraintError,
            "vertices"
        ),
        ("color without #", motionZone(color: "F439A0"), .constraintError, "color"),
        ("color of 5 digits", motionZone(color: "#F439A"), .constraintError, "color"),
        ("color with non-hex", motionZone(color: "#GG39A0"), .constraintError, "color"),
        ("focus without support", TwoDCartesianZone(name: "z", use: [.focus], vertices: square), .constraintError, "use"),
        ("x beyond max", motionZone("z", vertices([(0, 0), (2049, 0), (0, 10)])), .dynamicConstraintError, "vertices[1].x"),
        ("y beyond max", motionZone("z", vertices([(0, 0), (10, 0), (0, 3000)])), .dynamicConstraintError, "vertices[2].y"),
        ("hourglass", motionZone("z", vertices([(0, 0), (10, 10), (10, 0), (0, 10)])), .dynamicConstraintError, "vertices"),
        ("collinear triangle", motionZone("z", vertices([(0, 0), (2, 0), (1, 0)])), .dynamicConstraintError, "vertices"),
        ("first equals last", motionZone("z", vertices([(0, 0), (9, 0), (9, 9), (0, 0)])), .dynamicConstraintError, "vertices"),
    ]

    @Test(arguments: failures)
    func rejects(_ name: String, _ zone: TwoDCartesianZone, _ status: MatterStatus, _ field: String) throws {
        var zones = try makeZoneManagement()
        let error = commandError { try zones.createTwoDCartesianZone(zone) }
        #expect(error?.status == status, "\(name)")
        #expect(error?.field == field, "\(name)")
        #expect(zones.zones.isEmpty)
    }

    @Test func acceptsEveryColorFormAndNoColor() throws {
        var zones = try makeZoneManagement()
        try zones.createTwoDCartesianZone(motionZone("a", vertices([(0, 0), (10, 0), (0, 10)]), color: "#a0b1c2"))
        try zones.createTwoDCartesianZone(motionZone("b", vertices([(0, 0), (20, 0), (0, 20)]), color: "#A0B1C2D3"))
        try zones.createTwoDCartesianZone(motionZone("c", vertices([(0, 0), (30, 0), (0, 30)]), color: nil))
        try zones.createTwoDCartesianZone(motionZone(String(repeating: "é", count: 32), vertices([(0, 0), (40, 0), (0, 40)])))
        #expect(zones.zones.count == 4)
    }

    @Test func vertexExactlyAtMaxIsValid() throws {
        var zones = try makeZoneManagement()
        #expect(try zones.createTwoDCartesianZone(motionZone("edge", vertices([(0, 0), (2048, 0), (2048, 2048)]))) == 1)
    }

    @Test func duplicateIsAlreadyExistsOnlyForSameUseAndOrder() throws {
        var zones = try makeZoneManagement()
        try zones.createTwoDCartesianZone(motionZone("a"))
        let duplicate = commandError { try zones.createTwoDCartesianZone(motionZone("other name", color: nil)) }
        #expect(duplicate?.status == .alreadyExists)
        #expect(duplicate?.reason == "same use and vertices as zone 1")
        // Other use, or the same points in another order (rotated), are not duplicates.
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "p", use: [.privacy], vertices: square))
        try zones.createTwoDCartesianZone(motionZone("r", Array(square[1...] + square[..<1])))
        #expect(zones.zones.count == 3)
    }

    @Test func userZoneLimitIsResourceExhausted() throws {
        var zones = try makeZoneManagement(maxUser: 5)
        for index in 0..<5 {
            try zones.createTwoDCartesianZone(motionZone("z\(index)", vertices([(0, 0), (UInt16(10 + index), 0), (0, 10)])))
        }
        let error = commandError { try zones.createTwoDCartesianZone(motionZone("extra")) }
        #expect(error?.status == .resourceExhausted)
        #expect(error?.field == "")
    }

    @Test func focusZoneWithSupport() throws {
        var zones = try makeZoneManagement(focus: true)
        #expect(try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "f", use: [.focus], vertices: square)) == 1)
    }

    // Order of checks: each case breaks two rules; the earlier check must win.
    static let orderCases: [(String, TwoDCartesianZone, MatterStatus, String)] = [
        (
            "long name beats vertex beyond max",
            motionZone(String(repeating: "x", count: 40), vertices([(0, 0), (2100, 0), (0, 10)])), .constraintError, "name"
        ),
        (
            "unknown use beats bad vertex count",
            TwoDCartesianZone(name: "z", use: [.unrecognized("x")], vertices: vertices([(0, 0)])), .constraintError, "use"
        ),
        ("vertex count beats bad color", motionZone("z", vertices([(0, 0)]), color: "red"), .constraintError, "vertices"),
        (
            "bad color beats resource exhausted", motionZone("z", vertices([(0, 0), (1, 0), (0, 1)]), color: "#12"),
            .constraintError, "color"
        ),
        ("resource exhausted beats focus", TwoDCartesianZone(name: "f", use: [.focus], vertices: square), .resourceExhausted, ""),
        (
            "resource exhausted beats vertex beyond max", motionZone("z", vertices([(0, 0), (4000, 0), (0, 10)])),
            .resourceExhausted, ""
        ),
    ]

    @Test(arguments: orderCases)
    func earlierCheckWinsWhenFull(_ name: String, _ zone: TwoDCartesianZone, _ status: MatterStatus, _ field: String) throws {
        var zones = try makeZoneManagement(maxUser: 5)
        for index in 0..<5 {
            try zones.createTwoDCartesianZone(motionZone("z\(index)", vertices([(0, 0), (UInt16(10 + index), 0), (0, 10)])))
        }
        let error = commandError { try zones.createTwoDCartesianZone(zone) }
        #expect(error?.status == status, "\(name)")
        #expect(error?.field == field, "\(name)")
    }

    static let orderCasesWithRoom: [(String, TwoDCartesianZone, MatterStatus, String)] = [
        (
            "focus beats vertex beyond max", TwoDCartesianZone(name: "f", use: [.focus], vertices: vertices([(0, 0), (3000, 0), (0, 9)])),
            .constraintError, "use"
        ),
        (
            "vertex beyond max beats self-intersection", motionZone("z", vertices([(0, 0), (3000, 3000), (3000, 0), (0, 3000)])),
            .dynamicConstraintError, "vertices[1].x"
        ),
    ]

    // (Duplicate before self-intersection cannot be observed: an existing zone is always simple,
    // so an exact duplicate of it is simple too.)
    @Test(arguments: orderCasesWithRoom)
    func earlierCheckWins(_ name: String, _ zone: TwoDCartesianZone, _ status: MatterStatus, _ field: String) throws {
        var zones = try makeZoneManagement()
        let error = commandError { try zones.createTwoDCartesianZone(zone) }
        #expect(error?.status == status, "\(name)")
        #expect(error?.field == field, "\(name)")
    }
}

@Suite struct UpdateAndRemoveZoneTests {
    func managerWithMfgZone() throws -> ZoneManagement {
        var zones = try makeZoneManagement()
        try zones.restoreZone(
            ZoneInformation(zoneID: 7, zoneSource: .mfg, zone: motionZone("factory", vertices([(0, 0), (50, 0), (0, 50)]))))
        try zones.createTwoDCartesianZone(motionZone("porch"))
        return zones
    }

    @Test func updateReplacesTheZone() throws {
        var zones = try managerWithMfgZone()
        let moved = motionZone("porch 2", vertices([(300, 300), (400, 300), (400, 400)]))
        try zones.updateTwoDCartesianZone(id: 1, zone: moved)
        #expect(zones.zone(id: 1)?.zone == moved)
        // Updating a zone to its own polygon is not a duplicate of itself.
        try zones.updateTwoDCartesianZone(id: 1, zone: moved)
    }

    @Test func updateFailures() throws {
        var zones = try managerWithMfgZone()
        let valid = motionZone("x", vertices([(500, 500), (600, 500), (600, 600)]))
        #expect(commandError { try zones.updateTwoDCartesianZone(id: 99, zone: valid) }?.status == .notFound)
        let mfg = commandError { try zones.updateTwoDCartesianZone(id: 7, zone: valid) }
        #expect(mfg?.status == .constraintError)
        #expect(mfg?.field == "zoneID")
        // State-independent checks come before NotFound.
        let longName = commandError { try zones.updateTwoDCartesianZone(id: 99, zone: motionZone(String(repeating: "a", count: 33))) }
        #expect(longName?.status == .constraintError)
        #expect(longName?.field == "name")
        let beyond = commandError {
            try zones.updateTwoDCartesianZone(id: 1, zone: motionZone("b", vertices([(0, 0), (9999, 0), (0, 9)])))
        }
        #expect(beyond?.status == .dynamicConstraintError)
        let duplicate = commandError {
            try zones.updateTwoDCartesianZone(id: 1, zone: motionZone("dup", vertices([(0, 0), (50, 0), (0, 50)])))
        }
        #expect(duplicate?.status == .alreadyExists)
        let crossing = commandError {
            try zones.updateTwoDCartesianZone(id: 1, zone: motionZone("h", vertices([(0, 0), (10, 10), (10, 0), (0, 10)])))
        }
        #expect(crossing?.status == .dynamicConstraintError)
        #expect(zones.zone(id: 1)?.zone == motionZone("porch"))
    }

    @Test func updateMayNotDropMotionWhileATriggerExists() throws {
        var zones = try managerWithMfgZone()
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1))
        let privacy = TwoDCartesianZone(name: "p", use: [.privacy], vertices: square)
        #expect(commandError { try zones.updateTwoDCartesianZone(id: 1, zone: privacy) }?.status == .invalidInState)
    }

    @Test func removeFailuresInOrder() throws {
        var zones = try managerWithMfgZone()
        #expect(commandError { try zones.removeZone(42) }?.status == .notFound)
        #expect(commandError { try zones.removeZone(7) }?.status == .constraintError)
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 7))
        // Manufacturer check precedes the trigger check.
        #expect(commandError { try zones.removeZone(7) }?.status == .constraintError)
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1))
        #expect(commandError { try zones.removeZone(1) }?.status == .invalidInState)
        try zones.removeTrigger(zoneID: 1)
        try zones.removeZone(1)
        #expect(zones.zone(id: 1) == nil)
        #expect(zones.zones.map(\.zoneID) == [7])
    }

    @Test func restoreChecksIDs() throws {
        var zones = try managerWithMfgZone()
        let zone = motionZone("n", vertices([(700, 700), (800, 700), (800, 800)]))
        #expect(commandError { try zones.restoreZone(ZoneInformation(zoneID: 0, zone: zone)) }?.status == .constraintError)
        #expect(commandError { try zones.restoreZone(ZoneInformation(zoneID: 7, zone: zone)) }?.status == .alreadyExists)
        try zones.restoreZone(ZoneInformation(zoneID: 500, zone: zone))
        #expect(zones.lowestUnusedZoneID == 2)
    }

    @Test func maxZonesLimitsManufacturerZonesToo() throws {
        var zones = try ZoneManagement(maxUserDefinedZones: 5, maxZones: 5)
        for index in 0..<5 {
            try zones.restoreZone(
                ZoneInformation(
                    zoneID: UInt16(index + 1), zoneSource: .mfg,
                    zone: motionZone("m\(index)", vertices([(0, 0), (UInt16(10 + index), 0), (0, 10)]))))
        }
        #expect(commandError { try zones.createTwoDCartesianZone(motionZone("u")) }?.status == .resourceExhausted)
    }
}

@Suite struct ZoneTriggerTests {
    func manager() throws -> ZoneManagement {
        var zones = try makeZoneManagement()
        try zones.createTwoDCartesianZone(motionZone("motion"))  // 1
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "privacy", use: [.privacy], vertices: square))  // 2
        try zones.createTwoDCartesianZone(
            TwoDCartesianZone(name: "mixed", use: [.person, .motion], vertices: vertices([(0, 0), (9, 0), (0, 9)])))  // 3
        return zones
    }

    @Test func createThenUpdateThenRemove() throws {
        var zones = try manager()
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1, sensitivity: 3))
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 3))
        #expect(zones.triggers.count == 2)
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1, initialDuration: 20, maxDuration: 40, sensitivity: 9))
        #expect(zones.triggers.count == 2)
        #expect(zones.trigger(forZone: 1)?.initialDuration == 20)
        #expect(zones.trigger(forZone: 1)?.sensitivity == 9)
        try zones.removeTrigger(zoneID: 1)
        #expect(zones.trigger(forZone: 1) == nil)
        #expect(commandError { try zones.removeTrigger(zoneID: 1) }?.status == .notFound)
    }

    static let failures: [(String, ZoneTriggerControl, MatterStatus, String)] = [
        ("unknown zone", ZoneTriggerControl(zoneID: 9), .notFound, "zoneID"),
        ("privacy zone", ZoneTriggerControl(zoneID: 2), .constraintError, "zoneID"),
        ("initial 0", ZoneTriggerControl(zoneID: 1, initialDuration: 0, augmentationDuration: 0), .constraintError, "initialDuration"),
        ("initial 65536", ZoneTriggerControl(zoneID: 1, initialDuration: 65536, maxDuration: 70000), .constraintError, "initialDuration"),
        (
            "augmentation above initial", ZoneTriggerControl(zoneID: 1, initialDuration: 10, augmentationDuration: 11), .constraintError,
            "augmentationDuration"
        ),
        ("max below initial", ZoneTriggerControl(zoneID: 1, initialDuration: 10, maxDuration: 9), .constraintError, "maxDuration"),
        ("sensitivity 0", ZoneTriggerControl(zoneID: 1, sensitivity: 0), .constraintError, "sensitivity"),
        ("sensitivity above max", ZoneTriggerControl(zoneID: 1, sensitivity: 11), .constraintError, "sensitivity"),
        // Order: unknown zone beats every range problem; non-motion beats them too.
        ("unknown zone and bad ranges", ZoneTriggerControl(zoneID: 9, initialDuration: 0, sensitivity: 99), .notFound, "zoneID"),
        ("privacy and bad ranges", ZoneTriggerControl(zoneID: 2, initialDuration: 0, maxDuration: 0), .constraintError, "zoneID"),
        (
            "initial before augmentation", ZoneTriggerControl(zoneID: 1, initialDuration: 0, augmentationDuration: 5), .constraintError,
            "initialDuration"
        ),
        (
            "augmentation before max", ZoneTriggerControl(zoneID: 1, initialDuration: 10, augmentationDuration: 20, maxDuration: 1),
            .constraintError, "augmentationDuration"
        ),
        (
            "max before sensitivity", ZoneTriggerControl(zoneID: 1, initialDuration: 10, maxDuration: 1, sensitivity: 0), .constraintError,
            "maxDuration"
        ),
    ]

    @Test(arguments: failures)
    func rejects(_ name: String, _ trigger: ZoneTriggerControl, _ status: MatterStatus, _ field: String) throws {
        var zones = try manager()
        let error = commandError { try zones.createOrUpdateTrigger(trigger) }
        #expect(error?.status == status, "\(name)")
        #expect(error?.field == field, "\(name)")
        #expect(zones.triggers.isEmpty)
    }

    @Test func boundaryValuesAreAccepted() throws {
        var zones = try manager()
        try zones.createOrUpdateTrigger(
            ZoneTriggerControl(zoneID: 1, initialDuration: 1, augmentationDuration: 1, maxDuration: 1, blindDuration: 0, sensitivity: 1))
        try zones.createOrUpdateTrigger(
            ZoneTriggerControl(zoneID: 1, initialDuration: 65535, augmentationDuration: 0, maxDuration: 65535, sensitivity: 10))
        #expect(zones.trigger(forZone: 1)?.initialDuration == 65535)
    }

    @Test func sensitivityIsCheckedAgainstSensitivityMax() throws {
        var zones = try ZoneManagement(sensitivityMax: 3, sensitivity: 2)
        try zones.createTwoDCartesianZone(motionZone())
        let error = commandError { try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1, sensitivity: 4)) }
        #expect(error?.reason == "4 is out of range 1...3")
        #expect(error?.description == "ConstraintError: sensitivity: 4 is out of range 1...3")
    }
}
