import VigilCore
import VigilDevice

/// Turns control-request bodies into VigilDevice values with the device-file decoder's own
/// validation: the body is placed into a minimal device file (with the current device's limits
/// and zones where the rules depend on them) and decoded by ``DeviceFile/decode(json:)``, so a
/// request is checked exactly like the same section of a device file, and problems name the
/// field relative to the body. Unknown keys, which a device file only warns about, are refused.
public enum ControlRequestDecoder {
    /// Default nesting limit of a request body (`vigil live --max-body-depth`).
    public static let defaultMaxDepth = 16

    /// Parses a body as JSON, at most `maxDepth` levels deep (400 InvalidCommand with line and
    /// column when it is not).
    public static func parse(
        _ body: [UInt8], maxDepth: Int = ControlRequestDecoder.defaultMaxDepth
    ) throws(ControlError) -> JSONValue {
        guard !body.isEmpty else { throw .invalidCommand(field: "", "empty request body, expected JSON") }
        do {
            return try JSONValue.parse(body, maxDepth: maxDepth)
        } catch  where error.kind == .nestingTooDeep(limit: maxDepth) {
            throw .invalidCommand(
                field: "",
                "invalid JSON: line \(error.line), column \(error.column): nesting deeper than \(maxDepth) levels "
                    + "(raise it with vigil live --max-body-depth)")
        } catch {
            throw .invalidCommand(field: "", "invalid JSON: \(error.description)")
        }
    }

    /// The zone of a `POST /zones` or `PUT /zones/{id}` body: `name`, `use`, `vertices`, optional
    /// `color` (the device-file zone object without `zoneID` and `zoneSource`). Checks types and
    /// the state-independent rules (ConstraintError); the command adds the state-dependent ones.
    public static func zone(_ body: JSONValue) throws(ControlError) -> TwoDCartesianZone {
        guard var object = body.objectValue else { throw .invalidCommand(field: "", "expected a zone object, got \(body.kindDescription)") }
        for key in ["zoneID", "zoneSource", "zoneType"] where object[key] != nil {
            throw .invalidCommand(field: key, "not accepted in a request: the device assigns it (user zones, 2D Cartesian)")
        }
        object["zoneID"] = .number(1)
        object["zoneSource"] = .string("user")
        // The most permissive state: no other zone, the largest grid, focus zones allowed.
        let wrapper: JSONValue = [
            "name": "request", "twoDCartesianMax": ["x": 65535, "y": 65535], "supportsFocusZones": true,
            "zones": .array([.object(object)]),
        ]
        let report = DeviceFile.decode(json: wrapper)
        try refuseWarnings(report, prefix: "zones[0]")
        // The only state-dependent rule this wrapper can break is self-intersection
        // (DynamicConstraintError); the command checks it in its own order.
        if let problem = report.problems.first(where: { $0.status != .dynamicConstraintError }) {
            throw error(problem, prefix: "zones[0]")
        }
        guard let name = object["name"]?.stringValue, let useValue = object["use"], let vertexList = object["vertices"]?.arrayValue else {
            throw .invalidCommand(field: "", "expected name, use and vertices")
        }
        var use: [ZoneUse] = []
        for element in useValue.arrayValue ?? [useValue] {
            if let text = element.stringValue {
                use.append(ZoneUse(wireName: text))
            } else if let n = element.intValue {
                use.append(ZoneUse(matterValue: n))
            }
        }
        var vertices: [TwoDCartesianVertex] = []
        for element in vertexList {
            guard let x = element["x"]?.intValue, let y = element["y"]?.intValue, let ux = UInt16(exactly: x), let uy = UInt16(exactly: y)
            else {
                throw .invalidCommand(field: "vertices", "expected {x, y} integer vertices")
            }
            vertices.append(TwoDCartesianVertex(x: ux, y: uy))
        }
        return TwoDCartesianZone(name: name, use: use, vertices: vertices, color: object["color"]?.stringValue)
    }

    /// The trigger of a `POST /triggers` body (a device-file trigger object), validated against
    /// the current device's zones like a device file's `triggers` entry.
    public static func trigger(_ body: JSONValue, device: Device) throws(ControlError) -> ZoneTriggerControl {
        guard body.objectValue != nil else { throw .invalidCommand(field: "", "expected a trigger object, got \(body.kindDescription)") }
        var wrapper = zoneSection(of: device)
        wrapper["triggers"] = .array([body])
        let report = DeviceFile.decode(json: .object(wrapper), limits: sectionLimits(of: device))
        try refuseWarnings(report, prefix: "triggers[0]")
        if let problem = report.problems.first { throw error(problem, prefix: "triggers[0]") }
        guard let zoneID = body["zoneID"]?.intValue.flatMap(UInt16.init(exactly:)),
            let trigger = report.device?.zoneManagement.trigger(forZone: zoneID)
        else { throw .invalidCommand(field: "zoneID", "expected a zone ID") }
        return trigger
    }

    /// The transport after a `PUT /transport` body: keys present replace the current values
    /// (`triggerOptions` key by key; `null` clears an optional), validated like a device file's
    /// `transport` against the current zones.
    public static func transport(_ body: JSONValue, device: Device) throws(ControlError) -> Transport {
        guard let object = body.objectValue else {
            throw .invalidCommand(field: "", "expected a transport object, got \(body.kindDescription)")
        }
        var merged = device.jsonValue["transport"]?.objectValue ?? JSONObject()
        for member in object {
            if member.key == "triggerOptions", let options = member.value.objectValue, var current = merged["triggerOptions"]?.objectValue {
                for option in options { current[option.key] = option.value }
                merged["triggerOptions"] = .object(current)
            } else {
                merged[member.key] = member.value
            }
        }
        var wrapper = zoneSection(of: device)
        wrapper["transport"] = .object(merged)
        let report = DeviceFile.decode(json: .object(wrapper), limits: sectionLimits(of: device))
        try refuseWarnings(report, prefix: "transport")
        if let problem = report.problems.first { throw error(problem, prefix: "transport") }
        guard let transport = report.device?.transport else { throw .invalidCommand(field: "", "invalid transport") }
        return transport
    }

    /// The audio settings after a `PUT /audio` body (`microphoneMuted`, `recordingMicrophoneMuted`;
    /// keys left out keep their value).
    public static func audio(_ body: JSONValue, device: Device) throws(ControlError) -> AudioSettings {
        guard let object = body.objectValue else {
            throw .invalidCommand(field: "", "expected an audio object, got \(body.kindDescription)")
        }
        var merged = device.jsonValue["audio"]?.objectValue ?? JSONObject()
        for member in object { merged[member.key] = member.value }
        let report = DeviceFile.decode(json: ["name": "request", "audio": .object(merged)])
        try refuseWarnings(report, prefix: "audio")
        if let problem = report.problems.first { throw error(problem, prefix: "audio") }
        guard let audio = report.device?.audio else { throw .invalidCommand(field: "", "invalid audio settings") }
        return audio
    }

    /// The entries of a `POST /event-detection-triggers` body: an array of
    /// `{"eventTriggerType": "sound", "enablementStatus": "enabled" | "disabled"}`.
    public static func enablements(_ body: JSONValue) throws(ControlError) -> [EventTriggerEnablement] {
        guard let list = body.arrayValue else {
            throw .invalidCommand(field: "", "expected an array of {eventTriggerType, enablementStatus}, got \(body.kindDescription)")
        }
        var result: [EventTriggerEnablement] = []
        for (index, element) in list.enumerated() {
            let path = "[\(index)]"
            guard let object = element.objectValue else {
                throw .invalidCommand(field: path, "expected an object, got \(element.kindDescription)")
            }
            for key in object.keys where key != "eventTriggerType" && key != "enablementStatus" {
                throw .invalidCommand(field: "\(path).\(key)", "unknown key")
            }
            guard let typeValue = object["eventTriggerType"] else {
                throw .invalidCommand(field: "\(path).eventTriggerType", "missing required key")
            }
            guard let statusValue = object["enablementStatus"] else {
                throw .invalidCommand(field: "\(path).enablementStatus", "missing required key")
            }
            guard let typeName = typeValue.stringValue else {
                throw .invalidCommand(field: "\(path).eventTriggerType", "expected a trigger name")
            }
            guard let trigger = EventTriggerType(rawValue: typeName) else {
                throw ControlError(
                    status: MatterStatus.constraintError.rawValue, field: "\(path).eventTriggerType",
                    reason: "unknown trigger \"\(typeName)\"",
                    httpStatus: 422)
            }
            guard let statusName = statusValue.stringValue else {
                throw .invalidCommand(field: "\(path).enablementStatus", "expected \"enabled\" or \"disabled\"")
            }
            guard let status = EventTriggerEnablement.Status(rawValue: statusName) else {
                throw ControlError(
                    status: MatterStatus.constraintError.rawValue, field: "\(path).enablementStatus",
                    reason: "unknown value \"\(statusName)\", expected \"enabled\" or \"disabled\"", httpStatus: 422)
            }
            result.append(EventTriggerEnablement(trigger, status))
        }
        return result
    }

    /// What a `PUT /recording-mode` body selects: `{"selectedRecordingMode": index}` or
    /// `{"recordingMode": "cvr"}` (the first available entry with that mode).
    public enum RecordingModeSelection: Sendable, Hashable {
        /// An index into supportedRecordingModes.
        case index(Int)
        /// A mode name.
        case mode(RecordingModeType)
    }

    /// The selection of a `PUT /recording-mode` body.
    public static func recordingMode(_ body: JSONValue) throws(ControlError) -> RecordingModeSelection {
        guard let object = body.objectValue else { throw .invalidCommand(field: "", "expected an object, got \(body.kindDescription)") }
        for key in object.keys where key != "selectedRecordingMode" && key != "recordingMode" {
            throw .invalidCommand(field: key, "unknown key")
        }
        if let value = object["selectedRecordingMode"] {
            guard object["recordingMode"] == nil else {
                throw .invalidCommand(field: "recordingMode", "give selectedRecordingMode or recordingMode, not both")
            }
            guard case .number(let x) = value, let index = Int(exactly: x) else {
                throw .invalidCommand(field: "selectedRecordingMode", "expected an integer index, got \(value.serialized())")
            }
            return .index(index)
        }
        guard let value = object["recordingMode"] else { throw .invalidCommand(field: "selectedRecordingMode", "missing required key") }
        guard let name = value.stringValue else { throw .invalidCommand(field: "recordingMode", "expected a mode name") }
        guard let mode = RecordingModeType(rawValue: name) else {
            throw ControlError(
                status: MatterStatus.constraintError.rawValue, field: "recordingMode", reason: "unknown recording mode \"\(name)\"",
                httpStatus: 422)
        }
        return .mode(mode)
    }

    // MARK: Helpers

    /// The current device's limits and zones as device-file members.
    static func zoneSection(of device: Device) -> JSONObject {
        let json = device.jsonValue
        var object = JSONObject()
        object["name"] = "request"
        for key in ["twoDCartesianMax", "maxUserDefinedZones", "maxZones", "sensitivityMax", "sensitivity", "supportsFocusZones", "zones"] {
            if let value = json[key] { object[key] = value }
        }
        return object
    }

    /// Limits under which ``zoneSection(of:)`` of `device` decodes: the device was accepted
    /// already, so its own zone count and `maxZones` are within the limit it was loaded with.
    static func sectionLimits(of device: Device) -> InputLimits {
        InputLimits(maxZones: max(InputLimits.default.maxZones, device.zoneManagement.maxZones, device.zoneManagement.zones.count))
    }

    static func strip(_ path: String, prefix: String) -> String {
        if path == prefix { return "" }
        if path.hasPrefix(prefix + ".") { return String(path.dropFirst(prefix.count + 1)) }
        if path.hasPrefix(prefix + "[") { return String(path.dropFirst(prefix.count)) }
        return path
    }

    static func error(_ problem: DeviceFileProblem, prefix: String) -> ControlError {
        let field = strip(problem.path, prefix: prefix)
        guard let status = problem.status else { return .invalidCommand(field: field, problem.reason) }
        return ControlError(status: status.rawValue, field: field, reason: problem.reason, httpStatus: ControlError.httpStatus(for: status))
    }

    static func refuseWarnings(_ report: DeviceFileReport, prefix: String) throws(ControlError) {
        if let warning = report.warnings.first {
            throw .invalidCommand(field: strip(warning.path, prefix: prefix), "unknown key")
        }
    }
}
