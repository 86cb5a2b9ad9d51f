import Foundation
import Testing
import VigilCore
import VigilDevice

/// A copy of ../shared/spec/device.example.json (beside the package), so the main behaviour is tested without shared/.
let exampleDeviceFileText = #"""
    {
      "name": "Front door camera",
      "twoDCartesianMax": { "x": 2048, "y": 2048 },
      "maxUserDefinedZones": 8,
      "sensitivityMax": 10,
      "sensitivity": 5,
      "zones": [
        {
          "zoneID": 1,
          "zoneSource": "user",
          "name": "Front Porch",
          "use": ["motion"],
          "vertices": [
            { "x": 260, "y": 422 }, { "x": 1049, "y": 0 }, { "x": 2048, "y": 0 },
            { "x": 2048, "y": 950 }, { "x": 1630, "y": 1349 }, { "x": 880, "y": 2048 },
            { "x": 0, "y": 2048 }, { "x": 638, "y": 1090 }
          ],
          "color": "#F439A0"
        },
        {
          "zoneID": 2,
          "zoneSource": "user",
          "name": "Neighbour's window",
          "use": ["privacy"],
          "vertices": [ { "x": 1700, "y": 100 }, { "x": 2000, "y": 100 }, { "x": 2000, "y": 400 }, { "x": 1700, "y": 400 } ],
          "color": "#9AA0A6"
        }
      ],
      "triggers": [
        { "zoneID": 1, "initialDuration": 10, "augmentationDuration": 5, "maxDuration": 30, "blindDuration": 30, "sensitivity": 5 }
      ],
      "supportedEventTriggers": ["motion", "sound", "personTalking", "dogBark", "glassBreak", "smokeAlarm", "coAlarm"],
      "enabledEventTriggers": ["motion", "dogBark", "glassBreak", "smokeAlarm", "coAlarm"],
      "recordingMode": {
        "supportedRecordingModes": [
          { "recordingMode": "cvr", "maxDuration": 0, "expiryDurationSeconds": 2592000 },
          { "recordingMode": "ebr", "maxDuration": 60, "expiryDurationSeconds": 2592000 },
          { "recordingMode": "etr", "maxDuration": 10, "expiryDurationSeconds": 2592000 },
          { "recordingMode": "images", "maxDuration": 0, "expiryDurationSeconds": 2592000 },
          { "recordingMode": "liveView", "maxDuration": 0, "expiryDurationSeconds": 0 },
          { "recordingMode": "disabled", "maxDuration": 0, "expiryDurationSeconds": 0 }
        ],
        "availableRecordingModes": [1, 2, 3, 4, 5],
        "selectedRecordingMode": 1
      },
      "transport": {
        "transportStatus": "active",
        "triggerOptions": {
          "triggerType": "motion",
          "motionZones": [ { "zone": 1 } ],
          "motionSensitivity": 5,
          "motionTimeControl": { "initialDuration": 10, "augmentationDuration": 5, "maxDuration": 60, "blindDuration": 10 },
          "maxPreRollLen": 4000
        }
      },
      "audio": { "microphoneMuted": false, "recordingMicrophoneMuted": false },
      "video": { "imageRotation": 0, "imageFlipHorizontal": false, "imageFlipVertical": false,
                 "viewport": { "x1": 0, "y1": 0, "x2": 2048, "y2": 2048 }, "nightVision": "auto" }
    }
    """#

/// The specification's example device file, in ../shared beside the package (absent from a plain clone).
let sharedExamplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("../shared/spec/device.example.json").standardizedFileURL.path

func decode(_ text: String) -> DeviceFileReport { DeviceFile.decode(text: text) }

@Suite struct DeviceFileExampleTests {
    @Test func embeddedExampleIsValid() throws {
        let report = decode(exampleDeviceFileText)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.warnings.isEmpty)
        let device = try #require(report.device)
        #expect(device.name == "Front door camera")
        #expect(device.zoneManagement.zones.map(\.zoneID) == [1, 2])
        #expect(device.zoneManagement.zones[0].zone.vertices.count == 8)
        #expect(device.zoneManagement.zones[1].zone.use == [.privacy])
        #expect(device.zoneManagement.zones[1].zone.name == "Neighbour's window")
        #expect(
            device.zoneManagement.triggers == [
                ZoneTriggerControl(
                    zoneID: 1, initialDuration: 10, augmentationDuration: 5, maxDuration: 30, blindDuration: 30, sensitivity: 5)
            ])
        #expect(device.eventTriggers.supported.count == 7)
        #expect(device.eventTriggers.enabled == [.motion, .dogBark, .glassBreak, .smokeAlarm, .coAlarm])
        #expect(device.recordingModes.selectedMode.recordingMode == .ebr)
        #expect(device.transport.triggerOptions.motionZones == [TransportZoneOptions(zone: 1)])
        #expect(device.transport.triggerOptions.motionSensitivity == 5)
        #expect(device.video.nightVision == .auto)
        #expect(device.video.viewport == Viewport(x1: 0, y1: 0, x2: 2048, y2: 2048))
        #expect(device.sensitivity(forZone: 1) == Sensitivity(5, maximum: 10))
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedExamplePath), "needs ../shared/spec/device.example.json beside the package"))
    func sharedExampleFileIsValidAndMatchesTheEmbeddedCopy() throws {
        let data = try #require(FileManager.default.contents(atPath: sharedExamplePath))
        let report = DeviceFile.decode(data)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.warnings.isEmpty)
        #expect(report.device == decode(exampleDeviceFileText).device)
    }

    @Test func exampleRoundTrips() throws {
        let device = try #require(decode(exampleDeviceFileText).device)
        #expect(decode(DeviceFile.encode(device)).device == device)
        #expect(decode(DeviceFile.encode(device, style: .compact)).device == device)
    }

    @Test func encodingFollowsTheExampleKeyOrder() throws {
        let device = try #require(decode(exampleDeviceFileText).device)
        let exampleKeys = try #require(try JSONValue.parse(exampleDeviceFileText).objectValue?.keys)
        let encodedKeys = try #require(device.jsonValue.objectValue?.keys)
        // The encoder adds maxZones and supportsFocusZones; every example key keeps its relative order.
        #expect(encodedKeys.filter { exampleKeys.contains($0) } == exampleKeys)
        #expect(Set(encodedKeys).subtracting(exampleKeys) == ["maxZones", "supportsFocusZones"])
        let zoneKeys = try #require(device.jsonValue["zones"]?.arrayValue?.first?.objectValue?.keys)
        #expect(zoneKeys == ["zoneID", "zoneSource", "name", "use", "vertices", "color"])
        let optionKeys = try #require(device.jsonValue["transport"]?["triggerOptions"]?.objectValue?.keys)
        #expect(optionKeys == ["triggerType", "motionZones", "motionSensitivity", "motionTimeControl", "maxPreRollLen"])
    }
}

@Suite struct DeviceFileDefaultsTests {
    @Test func defaultDeviceRoundTrips() throws {
        let text = DeviceFile.encode(.default)
        let report = decode(text)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.device == .default)
        #expect(text.hasSuffix("}\n"))
        #expect(try DeviceFile.load(Array(text.utf8)) == .default)
    }

    @Test func nameAloneIsAValidDefaultDevice() throws {
        let report = decode(#"{"name": "x"}"#)
        var expected = Device.default
        expected.name = "x"
        #expect(report.problems.isEmpty)
        #expect(report.device == expected)
    }

    @Test func nameIsRequired() {
        #expect(decode("{}").problems.map(\.description) == ["name: missing required key"])
    }

    @Test func rootMustBeAnObject() {
        #expect(decode("[1]").problems.map(\.description) == ["expected an object, got [1]"])
    }

    @Test func syntaxErrorsCarryLineAndColumn() {
        let report = decode("{\n  \"name\": \"x\",\n  \"sensitivity\": 5,\n}")
        #expect(report.device == nil)
        #expect(report.problems.map(\.description) == ["line 4, column 1: expected a string key, got '}'"])
    }

    @Test func unknownKeysAreWarningsNeverErrors() throws {
        let text = #"""
            {"name": "x", "colour": 1, "zones": [{"zoneID": 1, "name": "a", "use": "motion", "shape": "square",
              "vertices": [{"x": 0, "y": 0, "z": 1}, {"x": 10, "y": 0}, {"x": 0, "y": 10}]}],
             "transport": {"triggerOptions": {"motionTimeControl": {"initialDuration": 10, "extra": true}}},
             "video": {"zoom": 2}}
            """#
        let report = decode(text)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(
            report.warnings.map(\.description) == [
                "colour: unknown key, ignored",
                "zones[0].shape: unknown key, ignored",
                "zones[0].vertices[0].z: unknown key, ignored",
                "transport.triggerOptions.motionTimeControl.extra: unknown key, ignored",
                "video.zoom: unknown key, ignored",
            ])
        #expect(report.device?.zoneManagement.zones.count == 1)
    }

    @Test func viewportDefaultsToTheWholeGrid() throws {
        let device = try #require(decode(#"{"name": "x", "twoDCartesianMax": {"x": 1919, "y": 1079}}"#).device)
        #expect(device.video.viewport == Viewport(x1: 0, y1: 0, x2: 1919, y2: 1079))
    }

    @Test func enabledTriggersDefaultToTheSupportedOnes() throws {
        let device = try #require(decode(#"{"name": "x", "supportedEventTriggers": ["motion", "sound"]}"#).device)
        #expect(device.eventTriggers.enabled == [.motion, .sound])
    }

    @Test func selectedModeDefaultsToAvailableEBR() throws {
        let text = #"""
            {"name": "x", "recordingMode": {"supportedRecordingModes": [{"recordingMode": "cvr"}, {"recordingMode": "ebr", "maxDuration": 30}]}}
            """#
        let device = try #require(decode(text).device)
        #expect(device.recordingModes.availableRecordingModes == [0, 1])
        #expect(device.recordingModes.selectedMode == SupportedRecordingMode(.ebr, maxDuration: 30, expiryDurationSeconds: 0))
    }

    @Test func nullsMeanAbsent() throws {
        let text = #"""
            {"name": "x", "sensitivity": null, "transport": {"triggerOptions": {"motionSensitivity": null, "motionZones": null,
             "motionTimeControl": null, "maxPreRollLen": null}}}
            """#
        let device = try #require(decode(text).device)
        #expect(device.zoneManagement.sensitivity == nil)
        #expect(device.transport.triggerOptions.motionTimeControl == nil)
        #expect(device.motionSensitivityOutsideZones == Sensitivity(10, maximum: 10))
        #expect(decode(DeviceFile.encode(device)).device == device)
    }
}

@Suite struct DeviceFileZoneTests {
    @Test(arguments: [#""motion""#, "0", #"["motion"]"#, "[0]"])
    func matterAndGoogleUseForms(_ use: String) throws {
        let text =
            #"{"name": "x", "zones": [{"zoneID": 3, "name": "a", "use": \#(use), "vertices": [{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]}]}"#
        let device = try #require(decode(text).device)
        #expect(device.zoneManagement.zones.first?.zone.use == [.motion])
        #expect(device.zoneManagement.zones.first?.zoneID == 3)
    }

    @Test func googleMultiUseList() throws {
        let text =
            #"{"name": "x", "zones": [{"zoneID": 1, "name": "a", "use": ["motion", "person", "package"], "zoneType": 0, "vertices": [{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]}]}"#
        let device = try #require(decode(text).device)
        #expect(device.zoneManagement.zones.first?.zone.use == [.motion, .person, .package])
    }

    static func zone(
        _ id: Int, use: String = #""motion""#, vertices: String = #"[{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]"#,
        extra: String = ""
    ) -> String {
        #"{"zoneID": \#(id), "name": "z\#(id)", "use": \#(use), "vertices": \#(vertices)\#(extra)}"#
    }

    @Test(
        arguments: [
            (zone(1, use: #""door""#), #"zones[0].use: unknown zone use "door""#, MatterStatus.constraintError),
            (zone(1, use: "7"), #"zones[0].use: unknown zone use "7""#, .constraintError),
            (zone(1, use: "true"), "zones[0].use: expected a zone use name or number, got true", nil),
            (zone(1, use: #""focus""#), "zones[0].use: focus zones are not supported by this device", .constraintError),
            (
                zone(1, vertices: #"[{"x": 0, "y": 0}, {"x": 9, "y": 9}, {"x": 0, "y": 9}, {"x": 9, "y": 0}]"#),
                "zones[0].vertices: self-intersecting polygon: edges 0 and 2 intersect", .dynamicConstraintError
            ),
            (
                zone(1, vertices: #"[{"x": 0, "y": 0}, {"x": 70000, "y": 0}, {"x": 0, "y": 9}]"#),
                "zones[0].vertices[1].x: 70000 is out of range 0...65535", .constraintError
            ),
            (
                zone(1, vertices: #"[{"x": 0, "y": 0}, {"x": 9.5, "y": 0}, {"x": 0, "y": 9}]"#),
                "zones[0].vertices[1].x: expected an integer, got 9.5", nil
            ),
            (zone(1, vertices: #"[{"x": 0, "y": 0}, {"y": 0}, {"x": 0, "y": 9}]"#), "zones[0].vertices[1].x: missing required key", nil),
            (zone(1, extra: ##", "color": "#12345""##), ##"zones[0].color: "#12345" is not #RRGGBB or #RRGGBBAA"##, .constraintError),
            (
                zone(1, extra: #", "zoneSource": "vendor""#),
                #"zones[0].zoneSource: unknown value "vendor", expected one of "mfg", "user""#, .constraintError
            ),
            (zone(1, extra: #", "zoneType": 1"#), #"zones[0].zoneType: expected "twoDCARTZone" or 0, got 1"#, .constraintError),
            (zone(0), "zones[0].zoneID: 0 is out of range 1...65535", .constraintError),
            (#"{"zoneID": 1, "use": "motion", "vertices": []}"#, "zones[0].name: missing required key", nil),
        ] as [(String, String, MatterStatus?)])
    func singleZoneProblems(_ zone: String, _ message: String, _ status: MatterStatus?) {
        let report = decode(#"{"name": "x", "zones": [\#(zone)]}"#)
        #expect(report.problems.map(\.description) == [message])
        #expect(report.problems.first?.status == status)
        #expect(report.device == nil)
    }

    @Test func tooManyUserZones() {
        let zones = (1...6).map { Self.zone($0, vertices: #"[{"x": 0, "y": 0}, {"x": \#(10 + $0), "y": 0}, {"x": 0, "y": 9}]"#) }
        let report = decode(#"{"name": "x", "maxUserDefinedZones": 5, "maxZones": 10, "zones": [\#(zones.joined(separator: ","))]}"#)
        #expect(report.problems.map(\.description) == ["zones[5]: already 5 user zones, maxUserDefinedZones is 5"])
        #expect(report.problems.first?.status == .resourceExhausted)
    }

    @Test func duplicatesOfIDAndShape() {
        let zones = [Self.zone(1), Self.zone(1, use: #""privacy""#), Self.zone(2), Self.zone(3, use: #""privacy""#)]
        let report = decode(#"{"name": "x", "zones": [\#(zones.joined(separator: ","))]}"#)
        #expect(
            report.problems.map(\.description) == [
                "zones[1].zoneID: zone ID 1 is already used by zones[0]",
                "zones[2].vertices: same use and vertices as zone 1",
            ])
        #expect(report.problems.map(\.status) == [.alreadyExists, .alreadyExists])
    }
}

@Suite struct DeviceFileProblemCollectionTests {
    /// A file with many problems in every section: all of them are reported, with exact paths.
    static let brokenFile = #"""
        {
          "name": "Broken",
          "twoDCartesianMax": { "x": 2048, "y": 2048 },
          "maxUserDefinedZones": 8,
          "sensitivityMax": 10,
          "sensitivity": 11,
          "zones": [
            { "zoneID": 1, "name": "Porch", "use": ["motion"],
              "vertices": [ { "x": 0, "y": 0 }, { "x": 100, "y": 0 }, { "x": 100, "y": 100 }, { "x": 2100, "y": 5 } ] },
            { "zoneID": 2, "name": "Window", "use": ["privacy"],
              "vertices": [ { "x": 0, "y": 0 }, { "x": 50, "y": 0 }, { "x": 0, "y": 50 } ] },
            { "zoneID": 3, "name": "This zone name is far too long to be accepted", "use": "motion",
              "vertices": [ { "x": 0, "y": 0 }, { "x": 3000, "y": 0 }, { "x": 0, "y": 50 } ] },
            { "zoneID": 2, "name": "Again", "use": "motion",
              "vertices": [ { "x": 10, "y": 10 }, { "x": 60, "y": 10 }, { "x": 10, "y": 60 } ] }
          ],
          "triggers": [
            { "zoneID": 1, "initialDuration": 10 },
            { "zoneID": 2, "initialDuration": 10 },
            { "zoneID": 9, "initialDuration": 10 },
            { "zoneID": 4, "initialDuration": 0 }
          ],
          "supportedEventTriggers": ["motion", "sound", "laser"],
          "enabledEventTriggers": ["motion", "dogBark"],
          "recordingMode": {
            "supportedRecordingModes": [ { "recordingMode": "cvr" }, { "recordingMode": "ebr", "maxDuration": 60 } ],
            "availableRecordingModes": [0],
            "selectedRecordingMode": "x"
          },
          "transport": {
            "transportStatus": "paused",
            "triggerOptions": { "triggerType": "motion", "motionZones": [ { "zone": 1 }, { "zone": 7 }, { "zone": null } ],
              "motionSensitivity": 12,
              "motionTimeControl": { "initialDuration": 10, "augmentationDuration": 5, "maxDuration": 5, "blindDuration": 10 } }
          },
          "audio": { "microphoneMuted": "no" },
          "video": { "imageRotation": 400, "nightVision": "auto" },
          "extra": {}
        }
        """#

    @Test func reportsEveryProblemWithExactPaths() {
        let report = decode(Self.brokenFile)
        #expect(report.device == nil)
        let expected = [
            "sensitivity: 11 is out of range 1...10",
            "zones[0].vertices[3].x: 2100 exceeds twoDCartesianMax.x 2048",
            "zones[2].name: 45 characters exceed the maximum 32",
            "zones[3].zoneID: zone ID 2 is already used by zones[1]",
            "triggers[1].zoneID: zone 2 is not a motion zone",
            "triggers[2].zoneID: no zone with ID 9",
            "triggers[3].zoneID: no zone with ID 4",
            #"supportedEventTriggers[2]: unknown value "laser", expected one of "motion", "personDetected", "vehicleDetected", "animalDetected", "packageDetected", "sound", "personTalking", "dogBark", "glassBreak", "smokeAlarm", "coAlarm""#,
            "enabledEventTriggers[1]: dogBark is not in supportedEventTriggers",
            #"recordingMode.selectedRecordingMode: expected an integer, got "x""#,
            #"transport.transportStatus: unknown value "paused", expected one of "active", "inactive""#,
            #"audio.microphoneMuted: expected a boolean, got "no""#,
            "video.imageRotation: 400 is out of range 0...359",
        ]
        let actual = report.problems.map(\.description)
        #expect(actual.count == expected.count)
        for (index, line) in expected.enumerated() where index < actual.count {
            #expect(actual[index] == line)
        }
        #expect(report.warnings.map(\.description) == ["extra: unknown key, ignored"])
    }

    @Test func problemsCarryMatterStatuses() {
        let report = decode(Self.brokenFile)
        let statuses = Dictionary(report.problems.map { ($0.path, $0.status) }, uniquingKeysWith: { first, _ in first })
        #expect(statuses["zones[0].vertices[3].x"] == .some(.dynamicConstraintError))
        #expect(statuses["zones[2].name"] == .some(.constraintError))
        #expect(statuses["zones[3].zoneID"] == .some(.alreadyExists))
        #expect(statuses["triggers[2].zoneID"] == .some(.notFound))
        #expect(statuses["recordingMode.selectedRecordingMode"] == .some(nil))
    }

    @Test func transportAndTriggerRulesWhenTheRestIsValid() {
        let text = #"""
            {"name": "x",
             "zones": [{"zoneID": 1, "name": "a", "use": "motion", "vertices": [{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]},
                       {"zoneID": 2, "name": "b", "use": "motion", "vertices": [{"x": 0, "y": 0}, {"x": 9, "y": 9}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]}],
             "triggers": [{"zoneID": 1, "initialDuration": 10, "augmentationDuration": 11}, {"zoneID": 1}, {"zoneID": 2}],
             "recordingMode": {"availableRecordingModes": [1, 9], "selectedRecordingMode": 0},
             "transport": {"triggerOptions": {"triggerType": 3, "motionZones": [{"zone": 1}, {"zone": 2}, {"zone": 5}]}}}
            """#
        let report = decode(text)
        #expect(
            report.problems.map(\.description) == [
                "zones[1].vertices: self-intersecting polygon: edges 0 and 2 intersect",
                "triggers[0].augmentationDuration: 11 exceeds initialDuration 10",
                "triggers[1].zoneID: zone 1 already has a trigger at triggers[0]",
                "recordingMode.availableRecordingModes[1]: index 9 is outside supportedRecordingModes (6 entries)",
                "recordingMode.selectedRecordingMode: index 0 is not in availableRecordingModes",
                "transport.triggerOptions.triggerType: 3 is out of range 0...2",
            ])
        let fixed = text.replacingOccurrences(of: #""triggerType": 3"#, with: #""triggerType": 1"#)
        #expect(
            decode(fixed).problems.map(\.description).last == "transport.triggerOptions.motionZones[2].zone: no zone with ID 5")
    }

    @Test func loadThrowsEveryProblem() {
        do {
            _ = try DeviceFile.load(Array(Self.brokenFile.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.problems == decode(Self.brokenFile).problems)
            #expect(error.description.split(separator: "\n").count == error.problems.count)
        }
    }
}
