import VigilCore

/// The lenient, problem-collecting reader behind ``DeviceFile``: every present key is type- and
/// range-checked, model rules come from the model types (one source of truth), missing keys
/// take ``Device/default`` values, unknown keys become warnings.
struct DeviceFileReader {
    /// Limits on what the file may declare (``InputLimits/maxZones``).
    var limits: InputLimits = .default
    var problems: [DeviceFileProblem] = []
    var warnings: [DeviceFileWarning] = []

    static let rootKeys = [
        "name", "twoDCartesianMax", "maxUserDefinedZones", "maxZones", "sensitivityMax", "sensitivity",
        "supportsFocusZones", "zones", "triggers", "supportedEventTriggers", "enabledEventTriggers", "recordingMode",
        "transport", "audio", "video",
    ]

    // MARK: Paths and problems

    static func join(_ path: String, _ key: String) -> String {
        if path.isEmpty { return key }
        if key.isEmpty { return path }
        return key.hasPrefix("[") ? path + key : path + "." + key
    }

    static func index(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }

    mutating func problem(_ path: String, _ reason: String, _ status: MatterStatus? = nil) {
        problems.append(DeviceFileProblem(path: path, reason: reason, status: status))
    }

    mutating func add(_ error: MatterCommandError, under path: String) {
        problem(Self.join(path, error.field), error.reason, error.status)
    }

    static func shortText(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 40 ? String(text.prefix(37)) + "..." : text
    }

    mutating func typeProblem(_ path: String, expected: String, got value: JSONValue) {
        problem(path, "expected \(expected), got \(Self.shortText(value))")
    }

    // MARK: Typed access

    /// The object at `path`, warning about keys outside `keys`.
    mutating func object(_ value: JSONValue, at path: String, keys: [String]) -> JSONObject? {
        guard let object = value.objectValue else {
            typeProblem(path, expected: "an object", got: value)
            return nil
        }
        for key in object.keys where !keys.contains(key) {
            warnings.append(DeviceFileWarning(path: Self.join(path, key), message: "unknown key, ignored"))
        }
        return object
    }

    /// The value of a required key, or a "missing required key" problem.
    mutating func required(_ object: JSONObject, _ key: String, at path: String) -> JSONValue? {
        guard let value = object[key] else {
            problem(Self.join(path, key), "missing required key")
            return nil
        }
        return value
    }

    mutating func integer<T: FixedWidthInteger>(_ value: JSONValue, at path: String, as type: T.Type = T.self) -> T? {
        guard case .number(let number) = value, number.rounded(.towardZero) == number else {
            typeProblem(path, expected: "an integer", got: value)
            return nil
        }
        guard let result = T(exactly: number) else {
            problem(path, "\(JSONValue.numberText(number)) is out of range \(T.min)...\(T.max)", .constraintError)
            return nil
        }
        return result
    }

    mutating func int(_ value: JSONValue, at path: String, range: ClosedRange<Int>) -> Int? {
        guard let result = integer(value, at: path, as: Int.self) else { return nil }
        guard range.contains(result) else {
            problem(path, "\(result) is out of range \(range.lowerBound)...\(range.upperBound)", .constraintError)
            return nil
        }
        return result
    }

    mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard let result = value.boolValue else {
            typeProblem(path, expected: "a boolean", got: value)
            return nil
        }
        return result
    }

    mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard let result = value.stringValue else {
            typeProblem(path, expected: "a string", got: value)
            return nil
        }
        return result
    }

    mutating func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        guard let result = value.arrayValue else {
            typeProblem(path, expected: "an array", got: value)
            return nil
        }
        return result
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ value: JSONValue, at path: String, as type: E.Type = E.self)
        -> E? where E.RawValue == String
    {
        let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = value.stringValue else {
            typeProblem(path, expected: "one of \(names)", got: value)
            return nil
        }
        guard let result = E(rawValue: text) else {
            problem(path, "unknown value \"\(text)\", expected one of \(names)", .constraintError)
            return nil
        }
        return result
    }

    /// For an optional key: `.some(nil)` when absent or null, `.some(x)` when valid, `nil` on a problem.
    mutating func nullable<T>(_ object: JSONObject, _ key: String, at path: String, read: (inout Self, JSONValue, String) -> T?)
        -> T??
    {
        guard let value = object[key], !value.isNull else { return .some(nil) }
        guard let result = read(&self, value, Self.join(path, key)) else { return nil }
        return .some(result)
    }

    // MARK: Device

    mutating func readDevice(_ root: JSONValue) -> Device {
        var device = Device.default
        guard let top = object(root, at: "", keys: Self.rootKeys) else { return device }
        if let value = required(top, "name", at: ""), let name = string(value, at: "name") { device.name = name }

        var zoneManagement = readLimits(top)
        var unusableZoneIDs = Set<UInt16>()
        if let value = top["zones"], let zones = array(value, at: "zones"), withinZoneLimit(zones.count, at: "zones") {
            readZones(zones, into: &zoneManagement, unusable: &unusableZoneIDs)
        }
        if let value = top["triggers"], let triggers = array(value, at: "triggers"), withinZoneLimit(triggers.count, at: "triggers") {
            readTriggers(triggers, into: &zoneManagement, unusable: unusableZoneIDs)
        }
        device.zoneManagement = zoneManagement
        device.eventTriggers = readEventTriggers(top)
        if let value = top["recordingMode"] { device.recordingModes = readRecordingModes(value) }
        let knownZoneIDs = Set(zoneManagement.zones.map(\.zoneID)).union(unusableZoneIDs)
        if let value = top["transport"] { device.transport = readTransport(value, knownZoneIDs: knownZoneIDs) }
        if let value = top["audio"] { device.audio = readAudio(value) }
        device.video = readVideo(top["video"], maximum: zoneManagement.twoDCartesianMax)
        return device
    }

    /// Whether a list of `count` zones (or triggers, one per zone) fits ``InputLimits/maxZones``;
    /// a problem at `path` otherwise (the list is then not read).
    mutating func withinZoneLimit(_ count: Int, at path: String) -> Bool {
        guard count > limits.maxZones else { return true }
        problem(
            path, "\(count) entries, more than the limit of \(limits.maxZones) zones \(InputLimits.Limit.zones.raiseHint)",
            .resourceExhausted)
        return false
    }

    mutating func readLimits(_ top: JSONObject) -> ZoneManagement {
        let defaults = Device.default.zoneManagement
        var maximum = defaults.twoDCartesianMax
        if let value = top["twoDCartesianMax"],
            let object = object(value, at: "twoDCartesianMax", keys: ["x", "y"])
        {
            if let value = required(object, "x", at: "twoDCartesianMax"),
                let x = integer(value, at: "twoDCartesianMax.x", as: UInt16.self)
            {
                maximum.x = x
            }
            if let value = required(object, "y", at: "twoDCartesianMax"),
                let y = integer(value, at: "twoDCartesianMax.y", as: UInt16.self)
            {
                maximum.y = y
            }
        }
        var maxUser = defaults.maxUserDefinedZones
        if let value = top["maxUserDefinedZones"], let number = integer(value, at: "maxUserDefinedZones", as: Int.self) {
            maxUser = number
        }
        var maxZones: Int? = nil
        if let value = top["maxZones"], let number = integer(value, at: "maxZones", as: Int.self) { maxZones = number }
        var sensitivityMax = defaults.sensitivityMax
        if let value = top["sensitivityMax"], let number = integer(value, at: "sensitivityMax", as: Int.self) {
            sensitivityMax = number
        }
        var sensitivity = defaults.sensitivity
        if let read = nullable(top, "sensitivity", at: "", read: { $0.integer($1, at: $2, as: Int.self) }) {
            sensitivity = top["sensitivity"] == nil ? defaults.sensitivity : read
        }
        var supportsFocus = defaults.supportsFocusZones
        if let value = top["supportsFocusZones"], let flag = bool(value, at: "supportsFocusZones") { supportsFocus = flag }

        // Without maxZones, the device allows as many zones as user zones (at least the default).
        var effectiveMaxZones = maxZones ?? max(maxUser, defaults.maxZones)
        if effectiveMaxZones > limits.maxZones {
            problem(
                maxZones == nil ? "maxUserDefinedZones" : "maxZones",
                "\(effectiveMaxZones) zones is more than the limit of \(limits.maxZones) \(InputLimits.Limit.zones.raiseHint)",
                .constraintError)
            effectiveMaxZones = max(maxUser, defaults.maxZones)
        }
        let errors = ZoneManagement.limitErrors(
            maxUserDefinedZones: maxUser, maxZones: effectiveMaxZones, twoDCartesianMax: maximum,
            sensitivityMax: sensitivityMax, sensitivity: sensitivity)
        // Without maxZones in the file, a maxZones error can only follow from an out-of-range
        // maxUserDefinedZones, which is reported itself: the file is not blamed for a key it lacks.
        for error in errors where maxZones != nil || error.field != "maxZones" { add(error, under: "") }
        let badFields = Set(errors.map(\.field))
        if badFields.contains("maxUserDefinedZones") { maxUser = defaults.maxUserDefinedZones }
        if badFields.contains("twoDCartesianMax.x") { maximum.x = defaults.twoDCartesianMax.x }
        if badFields.contains("twoDCartesianMax.y") { maximum.y = defaults.twoDCartesianMax.y }
        if badFields.contains("sensitivityMax") { sensitivityMax = defaults.sensitivityMax }
        if badFields.contains("sensitivity") { sensitivity = min(defaults.sensitivity ?? 1, sensitivityMax) }
        let fallbackMaxZones = badFields.contains("maxZones") ? max(maxUser, defaults.maxZones) : effectiveMaxZones
        do {
            return try ZoneManagement(
                maxUserDefinedZones: maxUser, maxZones: fallbackMaxZones, twoDCartesianMax: maximum,
                sensitivityMax: sensitivityMax, sensitivity: sensitivity, supportsFocusZones: supportsFocus)
        } catch {
            return defaults
        }
    }

    // MARK: Zones and triggers

    static let zoneKeys = ["zoneID", "zoneType", "zoneSource", "name", "use", "vertices", "color"]

    mutating func readZones(_ zones: [JSONValue], into zoneManagement: inout ZoneManagement, unusable: inout Set<UInt16>) {
        var firstPathOfID: [UInt16: String] = [:]
        for (index, value) in zones.enumerated() {
            let path = Self.index("zones", index)
            guard let object = object(value, at: path, keys: Self.zoneKeys) else { continue }
            let problemCount = problems.count
            var zoneID: UInt16?
            if let value = required(object, "zoneID", at: path) {
                zoneID = integer(value, at: Self.join(path, "zoneID"), as: UInt16.self)
            }
            var source = ZoneSource.user
            if let value = object["zoneSource"], let read = choice(value, at: Self.join(path, "zoneSource"), as: ZoneSource.self) {
                source = read
            }
            if let value = object["zoneType"] {
                let typePath = Self.join(path, "zoneType")
                if value != .string(ZoneType.twoDCARTZone.rawValue) && value != .number(0) {
                    problem(typePath, "expected \"twoDCARTZone\" or 0, got \(Self.shortText(value))", .constraintError)
                }
            }
            var name: String?
            if let value = required(object, "name", at: path) { name = string(value, at: Self.join(path, "name")) }
            var use: [ZoneUse]?
            if let value = required(object, "use", at: path) { use = readZoneUse(value, at: Self.join(path, "use")) }
            var vertices: [TwoDCartesianVertex]?
            if let value = required(object, "vertices", at: path) {
                vertices = readVertices(value, at: Self.join(path, "vertices"))
            }
            var color: String?? = .some(nil)
            color = nullable(object, "color", at: path, read: { $0.string($1, at: $2) })

            guard let zoneID else { continue }
            if let earlier = firstPathOfID[zoneID] {
                problem(Self.join(path, "zoneID"), "zone ID \(zoneID) is already used by \(earlier)", .alreadyExists)
                continue
            }
            firstPathOfID[zoneID] = path
            guard problems.count == problemCount, let name, let use, let vertices, let color else {
                unusable.insert(zoneID)
                continue
            }
            let information = ZoneInformation(
                zoneID: zoneID, zoneSource: source,
                zone: TwoDCartesianZone(name: name, use: use, vertices: vertices, color: color))
            do {
                try zoneManagement.restoreZone(information)
            } catch {
                add(error, under: path)
                unusable.insert(zoneID)
            }
        }
    }

    /// Matter's single value (string or 0/1/2) or Google's list.
    mutating func readZoneUse(_ value: JSONValue, at path: String) -> [ZoneUse]? {
        func single(_ reader: inout Self, _ value: JSONValue, _ path: String) -> ZoneUse? {
            switch value {
            case .string(let text): return ZoneUse(wireName: text)
            case .number:
                guard let number = reader.integer(value, at: path, as: Int.self) else { return nil }
                return ZoneUse(matterValue: number)
            default:
                reader.typeProblem(path, expected: "a zone use name or number", got: value)
                return nil
            }
        }
        if let list = value.arrayValue {
            var uses: [ZoneUse] = []
            var ok = true
            for (index, element) in list.enumerated() {
                if let use = single(&self, element, Self.index(path, index)) { uses.append(use) } else { ok = false }
            }
            return ok ? uses : nil
        }
        return single(&self, value, path).map { [$0] }
    }

    mutating func readVertices(_ value: JSONValue, at path: String) -> [TwoDCartesianVertex]? {
        guard let list = array(value, at: path) else { return nil }
        // Matter's fixed maximum (12): a longer list is refused before its elements are read.
        guard list.count <= TwoDCartesianZone.vertexCountRange.upperBound else {
            problem(
                path,
                "\(list.count) vertices, expected \(TwoDCartesianZone.vertexCountRange.lowerBound)...\(TwoDCartesianZone.vertexCountRange.upperBound)",
                .constraintError)
            return nil
        }
        var vertices: [TwoDCartesianVertex] = []
        var ok = true
        for (index, element) in list.enumerated() {
            let vertexPath = Self.index(path, index)
            guard let object = object(element, at: vertexPath, keys: ["x", "y"]) else {
                ok = false
                continue
            }
            var x: UInt16?
            var y: UInt16?
            if let value = required(object, "x", at: vertexPath) { x = integer(value, at: Self.join(vertexPath, "x")) }
            if let value = required(object, "y", at: vertexPath) { y = integer(value, at: Self.join(vertexPath, "y")) }
            if let x, let y { vertices.append(TwoDCartesianVertex(x: x, y: y)) } else { ok = false }
        }
        return ok ? vertices : nil
    }

    static let triggerKeys = ["zoneID", "initialDuration", "augmentationDuration", "maxDuration", "blindDuration", "sensitivity"]

    mutating func readTriggers(_ triggers: [JSONValue], into zoneManagement: inout ZoneManagement, unusable: Set<UInt16>) {
        var firstPathOfZone: [UInt16: String] = [:]
        for (index, value) in triggers.enumerated() {
            let path = Self.index("triggers", index)
            guard let object = object(value, at: path, keys: Self.triggerKeys) else { continue }
            let problemCount = problems.count
            var trigger = ZoneTriggerControl(zoneID: 0)
            var zoneID: UInt16?
            if let value = required(object, "zoneID", at: path) { zoneID = integer(value, at: Self.join(path, "zoneID")) }
            func duration(_ reader: inout Self, _ key: String) -> UInt32? {
                guard let value = object[key] else { return nil }
                return reader.integer(value, at: Self.join(path, key), as: UInt32.self)
            }
            if let value = duration(&self, "initialDuration") { trigger.initialDuration = value }
            if let value = duration(&self, "augmentationDuration") { trigger.augmentationDuration = value }
            if let value = duration(&self, "maxDuration") { trigger.maxDuration = value }
            if let value = duration(&self, "blindDuration") { trigger.blindDuration = value }
            if let read = nullable(object, "sensitivity", at: path, read: { $0.integer($1, at: $2, as: Int.self) }) {
                trigger.sensitivity = read
            }
            guard let zoneID, problems.count == problemCount else { continue }
            trigger.zoneID = zoneID
            if let earlier = firstPathOfZone[zoneID] {
                problem(Self.join(path, "zoneID"), "zone \(zoneID) already has a trigger at \(earlier)", .alreadyExists)
                continue
            }
            firstPathOfZone[zoneID] = path
            if unusable.contains(zoneID) { continue }  // the zone's own problem is reported already
            do {
                try zoneManagement.createOrUpdateTrigger(trigger)
            } catch {
                add(error, under: path)
            }
        }
    }

    // MARK: Event triggers

    mutating func readTriggerList(_ value: JSONValue, at path: String) -> [(Int, EventTriggerType)]? {
        guard let list = array(value, at: path) else { return nil }
        var result: [(Int, EventTriggerType)] = []
        for (index, element) in list.enumerated() {
            if let trigger = choice(element, at: Self.index(path, index), as: EventTriggerType.self) {
                result.append((index, trigger))
            }
        }
        return result
    }

    mutating func readEventTriggers(_ top: JSONObject) -> EventDetectionTriggers {
        let defaults = Device.default.eventTriggers
        var supported = defaults.supported
        if let value = top["supportedEventTriggers"], let list = readTriggerList(value, at: "supportedEventTriggers") {
            supported = Set(list.map(\.1))
        }
        guard var triggers = try? EventDetectionTriggers(supported: supported, enabled: []) else { return defaults }
        if let value = top["enabledEventTriggers"] {
            guard let list = readTriggerList(value, at: "enabledEventTriggers") else { return triggers }
            for (index, trigger) in list {
                do {
                    try triggers.setOrUpdateEventDetectionTriggers([EventTriggerEnablement(trigger, .enabled)])
                } catch {
                    // The command names the entry of its one-element list; the file names the array element.
                    add(MatterCommandError(error.status, field: "", error.reason), under: Self.index("enabledEventTriggers", index))
                }
            }
        } else {
            // Missing: the default enabled set, limited to what is supported.
            let enablements = defaults.enabled.intersection(supported).sorted().map { EventTriggerEnablement($0, .enabled) }
            try? triggers.setOrUpdateEventDetectionTriggers(enablements)
        }
        return triggers
    }

    // MARK: Recording modes

    mutating func readRecordingModes(_ value: JSONValue) -> RecordingModes {
        let path = "recordingMode"
        let defaults = RecordingModes.standard
        guard
            let object = object(
                value, at: path, keys: ["supportedRecordingModes", "availableRecordingModes", "selectedRecordingMode"])
        else { return defaults }
        let problemCount = problems.count
        var supported = defaults.supportedRecordingModes
        var supportedGiven = false
        if let value = object["supportedRecordingModes"], let list = array(value, at: Self.join(path, "supportedRecordingModes")) {
            supportedGiven = true
            supported = []
            for (index, element) in list.enumerated() {
                let entryPath = Self.index(Self.join(path, "supportedRecordingModes"), index)
                guard
                    let entry = self.object(
                        element, at: entryPath, keys: ["recordingMode", "maxDuration", "expiryDurationSeconds"])
                else { continue }
                var mode: RecordingModeType?
                if let value = required(entry, "recordingMode", at: entryPath) {
                    mode = choice(value, at: Self.join(entryPath, "recordingMode"))
                }
                var maxDuration: UInt32 = 0
                if let value = entry["maxDuration"], let read = integer(value, at: Self.join(entryPath, "maxDuration"), as: UInt32.self) {
                    maxDuration = read
                }
                var expiry: UInt32 = 0
                if let value = entry["expiryDurationSeconds"],
                    let read = integer(value, at: Self.join(entryPath, "expiryDurationSeconds"), as: UInt32.self)
                {
                    expiry = read
                }
                if let mode { supported.append(SupportedRecordingMode(mode, maxDuration: maxDuration, expiryDurationSeconds: expiry)) }
            }
        }
        var available = supportedGiven ? Array(supported.indices) : defaults.availableRecordingModes
        if let value = object["availableRecordingModes"], let list = array(value, at: Self.join(path, "availableRecordingModes")) {
            available = []
            for (index, element) in list.enumerated() {
                if let number = integer(element, at: Self.index(Self.join(path, "availableRecordingModes"), index), as: Int.self) {
                    available.append(number)
                }
            }
        }
        var selected =
            available.first(where: { supported.indices.contains($0) && supported[$0].recordingMode == .ebr })
            ?? available.first ?? defaults.selectedRecordingMode
        if let value = object["selectedRecordingMode"],
            let number = integer(value, at: Self.join(path, "selectedRecordingMode"), as: Int.self)
        {
            selected = number
        }
        // Index rules only make sense when every entry and index could be read.
        guard problems.count == problemCount else { return defaults }
        let errors = RecordingModes.validationErrors(supported: supported, available: available, selected: selected)
        for error in errors { add(error, under: path) }
        return
            (try? RecordingModes(
                supportedRecordingModes: supported, availableRecordingModes: available, selectedRecordingMode: selected))
            ?? defaults
    }

    // MARK: Transport

    mutating func readTransport(_ value: JSONValue, knownZoneIDs: Set<UInt16>) -> Transport {
        var transport = Transport.standard
        guard let object = object(value, at: "transport", keys: ["transportStatus", "triggerOptions"]) else {
            return transport
        }
        let problemCount = problems.count
        if let value = object["transportStatus"], let status = choice(value, at: "transport.transportStatus", as: TransportStatus.self) {
            transport.transportStatus = status
        }
        if let value = object["triggerOptions"] {
            let path = "transport.triggerOptions"
            let keys = ["triggerType", "motionZones", "motionSensitivity", "motionTimeControl", "maxPreRollLen"]
            if let options = self.object(value, at: path, keys: keys) {
                readTriggerOptions(options, at: path, into: &transport.triggerOptions)
            }
        }
        guard problems.count == problemCount else { return transport }
        for error in transport.validationErrors(knownZoneIDs: knownZoneIDs) { add(error, under: "transport") }
        return transport
    }

    mutating func readTriggerOptions(_ object: JSONObject, at path: String, into options: inout TransportTriggerOptions) {
        if let value = object["triggerType"] {
            let typePath = Self.join(path, "triggerType")
            if case .number = value {
                if let number = integer(value, at: typePath, as: Int.self) {
                    if let type = TransportTriggerType(matterValue: number) {
                        options.triggerType = type
                    } else {
                        problem(typePath, "\(number) is out of range 0...2", .constraintError)
                    }
                }
            } else if let type = choice(value, at: typePath, as: TransportTriggerType.self) {
                options.triggerType = type
            }
        }
        if let read = nullable(object, "motionZones", at: path, read: { $0.readMotionZones($1, at: $2) }) {
            options.motionZones = read
        }
        if let read = nullable(object, "motionSensitivity", at: path, read: { $0.integer($1, at: $2, as: Int.self) }) {
            options.motionSensitivity = read
        }
        if let read = nullable(object, "motionTimeControl", at: path, read: { $0.readTimeControl($1, at: $2) }) {
            options.motionTimeControl = read
        }
        if let read = nullable(object, "maxPreRollLen", at: path, read: { $0.integer($1, at: $2, as: UInt32.self) }) {
            options.maxPreRollLen = read
        }
    }

    mutating func readMotionZones(_ value: JSONValue, at path: String) -> [TransportZoneOptions]? {
        guard let list = array(value, at: path) else { return nil }
        var result: [TransportZoneOptions] = []
        var ok = true
        for (index, element) in list.enumerated() {
            let entryPath = Self.index(path, index)
            guard let object = object(element, at: entryPath, keys: ["zone", "sensitivity"]) else {
                ok = false
                continue
            }
            guard required(object, "zone", at: entryPath) != nil,
                let zone = nullable(object, "zone", at: entryPath, read: { $0.integer($1, at: $2, as: UInt16.self) }),
                let sensitivity = nullable(object, "sensitivity", at: entryPath, read: { $0.integer($1, at: $2, as: Int.self) })
            else {
                ok = false
                continue
            }
            result.append(TransportZoneOptions(zone: zone, sensitivity: sensitivity))
        }
        return ok ? result : nil
    }

    mutating func readTimeControl(_ value: JSONValue, at path: String) -> TransportMotionTimeControl? {
        let keys = ["initialDuration", "augmentationDuration", "maxDuration", "blindDuration"]
        guard let object = object(value, at: path, keys: keys) else { return nil }
        var control = TransportMotionTimeControl.standard
        var ok = true
        for key in keys {
            guard let value = object[key] else { continue }
            guard let number = integer(value, at: Self.join(path, key), as: UInt32.self) else {
                ok = false
                continue
            }
            switch key {
            case "initialDuration": control.initialDuration = number
            case "augmentationDuration": control.augmentationDuration = number
            case "maxDuration": control.maxDuration = number
            default: control.blindDuration = number
            }
        }
        return ok ? control : nil
    }

    // MARK: Audio and video

    mutating func readAudio(_ value: JSONValue) -> AudioSettings {
        var audio = Device.default.audio
        guard let object = object(value, at: "audio", keys: ["microphoneMuted", "recordingMicrophoneMuted"]) else {
            return audio
        }
        if let value = object["microphoneMuted"], let flag = bool(value, at: "audio.microphoneMuted") {
            audio.microphoneMuted = flag
        }
        if let value = object["recordingMicrophoneMuted"], let flag = bool(value, at: "audio.recordingMicrophoneMuted") {
            audio.recordingMicrophoneMuted = flag
        }
        return audio
    }

    /// Without a viewport the picture spans the whole grid: (0, 0)-(twoDCartesianMax).
    mutating func readVideo(_ value: JSONValue?, maximum: TwoDCartesianVertex) -> VideoSettings {
        var video = Device.default.video
        video.viewport = Viewport(x1: 0, y1: 0, x2: maximum.x, y2: maximum.y)
        guard let value else { return video }
        let keys = [
            "imageRotation", "imageFlipHorizontal", "imageFlipVertical", "viewport", "nightVision",
            "statusLightBrightness", "speakerVolumeLevel",
        ]
        guard let object = object(value, at: "video", keys: keys) else { return video }
        let problemCount = problems.count
        if let value = object["imageRotation"], let number = integer(value, at: "video.imageRotation", as: Int.self) {
            video.imageRotation = number
        }
        if let value = object["imageFlipHorizontal"], let flag = bool(value, at: "video.imageFlipHorizontal") {
            video.imageFlipHorizontal = flag
        }
        if let value = object["imageFlipVertical"], let flag = bool(value, at: "video.imageFlipVertical") {
            video.imageFlipVertical = flag
        }
        if let value = object["viewport"], let viewport = self.object(value, at: "video.viewport", keys: ["x1", "y1", "x2", "y2"]) {
            for key in ["x1", "y1", "x2", "y2"] {
                guard let value = viewport[key], let number = integer(value, at: "video.viewport." + key, as: UInt16.self)
                else { continue }
                switch key {
                case "x1": video.viewport.x1 = number
                case "y1": video.viewport.y1 = number
                case "x2": video.viewport.x2 = number
                default: video.viewport.y2 = number
                }
            }
        }
        if let value = object["nightVision"], let mode = choice(value, at: "video.nightVision", as: NightVision.self) {
            video.nightVision = mode
        }
        if let read = nullable(
            object, "statusLightBrightness", at: "video",
            read: {
                $0.choice($1, at: $2, as: StatusLightBrightness.self)
            })
        {
            video.statusLightBrightness = read
        }
        if let read = nullable(object, "speakerVolumeLevel", at: "video", read: { $0.integer($1, at: $2, as: Int.self) }) {
            video.speakerVolumeLevel = read
        }
        guard problems.count == problemCount else { return video }
        for error in video.validationErrors(maximum: maximum) { add(error, under: "video") }
        return video
    }
}
