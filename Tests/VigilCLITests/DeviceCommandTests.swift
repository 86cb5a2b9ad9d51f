import Foundation
import Testing
import VigilCore
import VigilDetectors
import VigilTestSupport

/// The sample device with `edit` applied, written to a temporary file.
func writeDevice(_ dir: URL, name: String = "device.json", _ edit: (inout JSONObject) -> Void) throws -> String {
    let text = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Samples/front-door.json"), encoding: .utf8)
    guard case .object(var object) = try JSONValue.parse(text) else { throw CocoaError(.fileReadCorruptFile) }
    edit(&object)
    let path = dir.appendingPathComponent(name).path
    try JSONValue.object(object).serialized(.pretty).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("vigil device", .serialized)
struct DeviceCommandTests {
    @Test("the sample devices are valid")
    func validSamples() throws {
        let result = try CommandRunner.run(["device", "validate", "Samples/front-door.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("valid device"))
    }

    @Test("an invalid device lists every problem with its JSON path, exit 2")
    func invalidDevice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeDevice(dir) { device in
            guard case .array(var zones)? = device["zones"], case .object(var porch) = zones[0],
                case .array(var vertices)? = porch["vertices"]
            else { return }
            vertices[1] = ["x": 2100, "y": 1200]
            porch["vertices"] = .array(vertices)
            zones[0] = .object(porch)
            device["zones"] = .array(zones)
            device["enabledEventTriggers"] = ["motion", "packageDetected"]
            device["surprise"] = true
        }
        let result = try CommandRunner.run(["device", "validate", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("zones[0].vertices[1].x: 2100 exceeds twoDCartesianMax.x 2048"), "\(result.stderr)")
        #expect(result.stderr.contains("enabledEventTriggers"))
        #expect(result.stderr.contains("surprise"))  // unknown key: a warning, listed too
        let json = try CommandRunner.run(["device", "validate", path, "--json"])
        #expect(json.status == 2)
        let lines = try json.lines.map { try JSONValue.parse($0) }
        #expect(lines.filter { $0["type"]?.stringValue == "problem" }.count >= 2)
        #expect(lines.last?["valid"]?.boolValue == false)
        #expect(lines.contains { $0["status"]?.stringValue == "DynamicConstraintError" })
    }

    @Test("a self-intersecting zone is reported with its status")
    func selfIntersectingZone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeDevice(dir) { device in
            guard case .array(var zones)? = device["zones"], case .object(var porch) = zones[0] else { return }
            porch["vertices"] = [["x": 0, "y": 0], ["x": 100, "y": 100], ["x": 100, "y": 0], ["x": 0, "y": 100]]
            zones[0] = .object(porch)
            device["zones"] = .array(zones)
        }
        let result = try CommandRunner.run(["device", "validate", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("zones[0].vertices"), "\(result.stderr)")
        #expect(result.stderr.contains("DynamicConstraintError"))
    }

    @Test("device init prints a valid default device")
    func initRoundTrip() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let printed = try CommandRunner.run(["device", "init"])
        #expect(printed.status == 0)
        let path = dir.appendingPathComponent("default.json").path
        try printed.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try CommandRunner.run(["device", "validate", path])
        #expect(check.status == 0, "\(check.stderr)")
        let device = try JSONValue.parse(printed.stdout)
        // The default device claims only what this build detects (no personDetected and the like).
        let detectable = DetectorRegistry.detectableTriggers.map(\.rawValue)
        #expect(device["supportedEventTriggers"]?.arrayValue?.compactMap(\.stringValue) == detectable)
        #expect(device["enabledEventTriggers"]?.arrayValue?.compactMap(\.stringValue) == detectable)
        #expect(!detectable.contains("personDetected") && detectable.contains("motion") && detectable.contains("smokeAlarm"))
        #expect(device["zones"]?.arrayValue?.isEmpty == true)
        #expect(device["transport"]?["transportStatus"]?.stringValue == "active")
    }

    @Test("a device file enabling a trigger nothing detects is valid, with a warning naming the trigger")
    func undetectableTriggerWarning() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeDevice(dir) { device in
            device["supportedEventTriggers"] = ["motion", "personDetected", "packageDetected", "smokeAlarm"]
            device["enabledEventTriggers"] = ["motion", "personDetected", "packageDetected", "smokeAlarm"]
        }
        let validate = try CommandRunner.run(["device", "validate", path])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stderr.contains("enabledEventTriggers: personDetected is enabled but Vigil has no detector for it"),
            "\(validate.stderr)")
        #expect(validate.stderr.contains("packageDetected is enabled"))
        #expect(!validate.stderr.contains("motion is enabled") && !validate.stderr.contains("smokeAlarm is enabled"))
        let json = try CommandRunner.run(["device", "validate", path, "--json"])
        let warnings = try json.lines.map { try JSONValue.parse($0) }.filter { $0["type"]?.stringValue == "warning" }
        #expect(warnings.compactMap { $0["reason"]?.stringValue }.filter { $0.contains("no detector") }.count == 2)
        let analyze = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--device", path, "--format", "jsonl"])
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(analyze.stderr.contains("warning: \(path): enabledEventTriggers: personDetected is enabled"), "\(analyze.stderr)")
    }

    @Test("--triggers naming a trigger nothing detects is a usage error naming it")
    func undetectableTriggerFilter() throws {
        let result = try CommandRunner.run([
            "analyze", "Samples/demo-scene.flac", "--triggers", "motion,vehicleDetected", "--format", "jsonl",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--triggers: vehicleDetected has no detector in Vigil"), "\(result.stderr)")
        let fine = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--triggers", "motion,smokeAlarm", "--format", "jsonl"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test("analyze refuses an invalid device with status 2 and analyzes nothing")
    func analyzeWithInvalidDevice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeDevice(dir) { $0["sensitivity"] = 42 }
        let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--device", path, "--format", "jsonl"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("sensitivity"))
        let missing = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--device", "/nonexistent.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent.json"))
    }
}

@Suite("Device gating in vigil analyze", .serialized)
struct DeviceGatingTests {
    /// Analyzes the demo sample with the sample device edited by `edit`.
    func analyze(explain: Bool = false, _ edit: (inout JSONObject) -> Void) throws -> [JSONValue] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeDevice(dir, edit)
        var args = ["analyze", "Samples/demo-scene.flac", "--device", path, "--format", "jsonl"]
        if explain { args.append("--explain") }
        let result = try CommandRunner.run(args)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.lines.map { try JSONValue.parse($0) }
    }

    func events(_ records: [JSONValue], _ trigger: String = "sound") -> [JSONValue] {
        records.filter { $0["type"]?.stringValue == "event" && $0["trigger"]?.stringValue == trigger }
    }

    func suppressedRules(_ records: [JSONValue]) -> Set<String> {
        Set(records.filter { $0["type"]?.stringValue == "suppressed" }.compactMap { $0["rule"]?.stringValue })
    }

    @Test("a disabled trigger gives no events; --explain names the rule")
    func disabledTrigger() throws {
        let plain = try analyze { $0["enabledEventTriggers"] = ["motion"] }
        #expect(events(plain).isEmpty)
        #expect(suppressedRules(plain).isEmpty)
        let explained = try analyze(explain: true) { $0["enabledEventTriggers"] = ["motion"] }
        #expect(events(explained).isEmpty)
        #expect(suppressedRules(explained).contains("enabledEventTriggers"))
    }

    @Test("a muted microphone gives no sound events")
    func mutedMicrophone() throws {
        let edit: (inout JSONObject) -> Void = { $0["audio"] = ["microphoneMuted": true, "recordingMicrophoneMuted": false] }
        #expect(events(try analyze(edit)).isEmpty)
        #expect(suppressedRules(try analyze(explain: true, edit)) == ["audio.microphoneMuted"])
    }

    @Test("an inactive transport gives no events")
    func inactiveTransport() throws {
        let edit: (inout JSONObject) -> Void = { device in
            guard case .object(var transport)? = device["transport"] else { return }
            transport["transportStatus"] = "inactive"
            device["transport"] = .object(transport)
        }
        #expect(events(try analyze(edit)).isEmpty)
        #expect(suppressedRules(try analyze(explain: true, edit)) == ["transport.transportStatus"])
    }

    /// Selects the supported recording mode at `index` of the sample device (cvr, ebr, etr, images, liveView, disabled).
    func selecting(_ index: Int) -> (inout JSONObject) -> Void {
        { device in
            guard case .object(var modes)? = device["recordingMode"] else { return }
            modes["selectedRecordingMode"] = .number(Double(index))
            device["recordingMode"] = .object(modes)
        }
    }

    @Test("recording modes shape the media: cvr range, etr fixed clip, images snapshot, disabled none, liveView no events")
    func recordingModes() throws {
        let cvr = events(try analyze(selecting(0)))
        #expect(!cvr.isEmpty)
        for e in cvr {
            #expect(e["clip"]?["kind"]?.stringValue == "range")
            #expect(e["clip"]?["start"] == e["start"] && e["clip"]?["end"] == e["end"])
        }
        let etr = events(try analyze(selecting(2)))
        #expect(!etr.isEmpty)
        for e in etr {
            let start = try #require(e["clip"]?["start"]?.doubleValue)
            let end = try #require(e["clip"]?["end"]?.doubleValue)
            #expect(abs(end - start - 10) < 0.001)  // the sample's etr maxDuration
        }
        let images = events(try analyze(selecting(3)))
        #expect(!images.isEmpty && images.allSatisfy { $0["snapshot"]?["index"] != nil && $0["clip"] == nil })
        let liveView = try analyze(selecting(4))
        let liveViewEvents = liveView.filter { $0["type"]?.stringValue == "event" }
        #expect(liveViewEvents.count == 0)
        let disabled = events(try analyze(selecting(5)))
        #expect(!disabled.isEmpty && disabled.allSatisfy { $0["clip"] == nil && $0["snapshot"] == nil })
    }
}
