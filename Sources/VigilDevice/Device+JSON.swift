import VigilCore

extension Device {
    /// The device as a device-file JSON object, keys in the example file's order.
    ///
    /// Optional values whose default is not `nil` (device `sensitivity`, transport
    /// `motionTimeControl` and `maxPreRollLen`) are written as `null` when absent; other absent
    /// optionals are left out. Event triggers are listed in `EventTriggerType` order.
    /// `DeviceFile.decode` of this value gives back an equal device.
    public var jsonValue: JSONValue {
        let zm = zoneManagement
        var root = JSONObject()
        root["name"] = .string(name)
        root["twoDCartesianMax"] = Self.json(zm.twoDCartesianMax)
        root["maxUserDefinedZones"] = .number(Double(zm.maxUserDefinedZones))
        root["maxZones"] = .number(Double(zm.maxZones))
        root["sensitivityMax"] = .number(Double(zm.sensitivityMax))
        root["sensitivity"] = zm.sensitivity.map { .number(Double($0)) } ?? .null
        root["supportsFocusZones"] = .bool(zm.supportsFocusZones)
        root["zones"] = .array(zm.zones.map(Self.json))
        root["triggers"] = .array(zm.triggers.map(Self.json))
        root["supportedEventTriggers"] = .array(eventTriggers.supported.sorted().map { .string($0.rawValue) })
        root["enabledEventTriggers"] = .array(eventTriggers.enabled.sorted().map { .string($0.rawValue) })
        root["recordingMode"] = Self.json(recordingModes)
        root["transport"] = Self.json(transport)
        root["audio"] = [
            "microphoneMuted": .bool(audio.microphoneMuted),
            "recordingMicrophoneMuted": .bool(audio.recordingMicrophoneMuted),
        ]
        root["video"] = Self.json(video)
        return .object(root)
    }

    private static func number<T: BinaryInteger>(_ value: T) -> JSONValue { .number(Double(value)) }

    private static func json(_ vertex: TwoDCartesianVertex) -> JSONValue {
        ["x": number(vertex.x), "y": number(vertex.y)]
    }

    private static func json(_ information: ZoneInformation) -> JSONValue {
        var object = JSONObject()
        object["zoneID"] = number(information.zoneID)
        object["zoneSource"] = .string(information.zoneSource.rawValue)
        object["name"] = .string(information.zone.name)
        object["use"] = .array(information.zone.use.map { .string($0.wireName) })
        object["vertices"] = .array(information.zone.vertices.map(json))
        if let color = information.zone.color { object["color"] = .string(color) }
        return .object(object)
    }

    private static func json(_ trigger: ZoneTriggerControl) -> JSONValue {
        var object: JSONObject = [
            "zoneID": number(trigger.zoneID),
            "initialDuration": number(trigger.initialDuration),
            "augmentationDuration": number(trigger.augmentationDuration),
            "maxDuration": number(trigger.maxDuration),
            "blindDuration": number(trigger.blindDuration),
        ]
        if let sensitivity = trigger.sensitivity { object["sensitivity"] = number(sensitivity) }
        return .object(object)
    }

    private static func json(_ modes: RecordingModes) -> JSONValue {
        [
            "supportedRecordingModes": .array(
                modes.supportedRecordingModes.map {
                    [
                        "recordingMode": .string($0.recordingMode.rawValue), "maxDuration": number($0.maxDuration),
                        "expiryDurationSeconds": number($0.expiryDurationSeconds),
                    ]
                }),
            "availableRecordingModes": .array(modes.availableRecordingModes.map(number)),
            "selectedRecordingMode": number(modes.selectedRecordingMode),
        ]
    }

    private static func json(_ transport: Transport) -> JSONValue {
        let options = transport.triggerOptions
        var object = JSONObject()
        object["triggerType"] = .string(options.triggerType.rawValue)
        if let zones = options.motionZones {
            object["motionZones"] = .array(
                zones.map { entry in
                    var zone: JSONObject = ["zone": entry.zone.map(number) ?? .null]
                    if let sensitivity = entry.sensitivity { zone["sensitivity"] = number(sensitivity) }
                    return .object(zone)
                })
        }
        if let sensitivity = options.motionSensitivity { object["motionSensitivity"] = number(sensitivity) }
        object["motionTimeControl"] =
            options.motionTimeControl.map {
                [
                    "initialDuration": number($0.initialDuration), "augmentationDuration": number($0.augmentationDuration),
                    "maxDuration": number($0.maxDuration), "blindDuration": number($0.blindDuration),
                ]
            } ?? .null
        object["maxPreRollLen"] = options.maxPreRollLen.map(number) ?? .null
        return ["transportStatus": .string(transport.transportStatus.rawValue), "triggerOptions": .object(object)]
    }

    private static func json(_ video: VideoSettings) -> JSONValue {
        var object: JSONObject = [
            "imageRotation": number(video.imageRotation),
            "imageFlipHorizontal": .bool(video.imageFlipHorizontal),
            "imageFlipVertical": .bool(video.imageFlipVertical),
            "viewport": [
                "x1": number(video.viewport.x1), "y1": number(video.viewport.y1),
                "x2": number(video.viewport.x2), "y2": number(video.viewport.y2),
            ],
            "nightVision": .string(video.nightVision.rawValue),
        ]
        if let brightness = video.statusLightBrightness { object["statusLightBrightness"] = .string(brightness.rawValue) }
        if let level = video.speakerVolumeLevel { object["speakerVolumeLevel"] = number(level) }
        return .object(object)
    }
}
