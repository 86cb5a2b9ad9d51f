import Testing
import VigilCore
import VigilDevice

/// Inputs found by the FuzzDeviceFile libFuzzer target (docs/fuzzing.md, "Findings"), fed through
/// the normal API. Each is also a seed in Fuzz/Corpus/FuzzDeviceFile/regression-*.
@Suite("Device file fuzz findings") struct DeviceFileFuzzFindingTests {
    /// Finding 2: `maxUserDefinedZones` above 65535 trapped in `ZoneManagement.limitErrors`
    /// ("Range requires lowerBound <= upperBound"): the lower bound of maxZones' range was
    /// maxUserDefinedZones itself, so the range 65536...65535 was empty. The fuzzer's minimized
    /// input, verbatim (Fuzz/Corpus/FuzzDeviceFile/regression-max-user-zones-above-65535).
    @Test("maxUserDefinedZones above 65535 is a problem, not a trap")
    func fuzzFindingMaxUserDefinedZonesAbove65535() {
        let report = DeviceFile.decode(Array(#"{"maxUserDefinedZones":65536}"#.utf8))
        #expect(report.device == nil)
        #expect(report.problems.map(\.path) == ["name", "maxUserDefinedZones", "maxUserDefinedZones"])
        #expect(report.problems.last?.description == "maxUserDefinedZones: 65536 is out of range 5...65535")
        #expect(report.problems.last?.status == .constraintError)
    }

    /// The same rule with and without maxZones, at and beyond the boundary, with a limit that
    /// lets the zone count itself through (so only the Matter range is left to report).
    @Test(arguments: [
        (#""maxUserDefinedZones": 65535"#, [String]()),
        (#""maxUserDefinedZones": 65536"#, ["maxUserDefinedZones: 65536 is out of range 5...65535"]),
        (#""maxUserDefinedZones": 9007199254740991"#, ["maxUserDefinedZones: 9007199254740991 is out of range 5...65535"]),
        (#""maxUserDefinedZones": 65536, "maxZones": 65535"#, ["maxUserDefinedZones: 65536 is out of range 5...65535"]),
        (
            #""maxUserDefinedZones": 65536, "maxZones": 65536"#,
            ["maxUserDefinedZones: 65536 is out of range 5...65535", "maxZones: 65536 is out of range 65535...65535"]
        ),
    ])
    func hugeMaxUserDefinedZones(_ keys: String, _ problems: [String]) {
        let text = #"{"name": "x", \#(keys)}"#
        let report = DeviceFile.decode(Array(text.utf8), limits: InputLimits(maxZones: .max))
        #expect(report.problems.map(\.description) == problems)
        #expect((report.device != nil) == problems.isEmpty)
    }

    @Test func zoneManagementRejectsHugeMaxUserDefinedZones() {
        let errors = ZoneManagement.limitErrors(
            maxUserDefinedZones: 65536, maxZones: 65535, twoDCartesianMax: TwoDCartesianVertex(x: 10, y: 10),
            sensitivityMax: 10, sensitivity: nil)
        #expect(errors.map(\.field) == ["maxUserDefinedZones"])
        #expect(throws: MatterCommandError.self) { try ZoneManagement(maxUserDefinedZones: Int.max) }
    }
}
