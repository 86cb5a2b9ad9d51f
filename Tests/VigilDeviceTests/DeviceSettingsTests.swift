import Testing
import VigilCore
import VigilDevice

@Suite struct EventDetectionTriggersTests {
    @Test func initRejectsEnabledButUnsupported() {
        let error = commandError { _ = try EventDetectionTriggers(supported: [.motion], enabled: [.motion, .dogBark]) }
        #expect(error?.status == .constraintError)
        #expect(error?.reason == "dogBark is not in supportedEventTriggers")
    }

    @Test func setOrUpdateChangesOnlyListedTriggers() throws {
        var triggers = try EventDetectionTriggers(supported: [.motion, .sound, .dogBark, .glassBreak], enabled: [.motion, .sound])
        try triggers.setOrUpdateEventDetectionTriggers([
            EventTriggerEnablement(.dogBark, .enabled), EventTriggerEnablement(.sound, .disabled),
        ])
        #expect(triggers.enabled == [.motion, .dogBark])
        #expect(triggers.supported == [.motion, .sound, .dogBark, .glassBreak])
        try triggers.setOrUpdateEventDetectionTriggers([])
        #expect(triggers.enabled == [.motion, .dogBark])
        // Disabling an unsupported trigger is allowed and changes nothing.
        try triggers.setOrUpdateEventDetectionTriggers([EventTriggerEnablement(.coAlarm, .disabled)])
        #expect(triggers.enabled == [.motion, .dogBark])
        // The last entry for a trigger wins.
        try triggers.setOrUpdateEventDetectionTriggers([
            EventTriggerEnablement(.glassBreak, .enabled), EventTriggerEnablement(.glassBreak, .disabled),
        ])
        #expect(!triggers.isEnabled(.glassBreak))
    }

    @Test func setOrUpdateIsAtomic() throws {
        var triggers = try EventDetectionTriggers(supported: [.motion, .sound], enabled: [.motion])
        let before = triggers
        let error = commandError {
            try triggers.setOrUpdateEventDetectionTriggers([
                EventTriggerEnablement(.motion, .disabled), EventTriggerEnablement(.sound, .enabled),
                EventTriggerEnablement(.smokeAlarm, .enabled),
            ])
        }
        #expect(error?.status == .constraintError)
        #expect(error?.field == "[2]")
        #expect(triggers == before)
    }

    @Test func allSupportsAndEnablesEverything() {
        #expect(EventDetectionTriggers.all.supported == Set(EventTriggerType.allCases))
        #expect(EventDetectionTriggers.all.enabled == Set(EventTriggerType.allCases))
    }
}

@Suite struct RecordingModesTests {
    @Test func standardSelectsEBR() {
        #expect(RecordingModes.standard.selectedMode.recordingMode == .ebr)
        #expect(RecordingModes.standard.selectedMode.maxDuration == 60)
        #expect(RecordingModes.standard.availableRecordingModes == [1, 2, 3, 4, 5])
    }

    @Test(arguments: [(2, RecordingModeType.etr), (5, .disabled), (4, .liveView)])
    func selectAvailableIndex(_ index: Int, _ mode: RecordingModeType) throws {
        var modes = RecordingModes.standard
        try modes.select(index)
        #expect(modes.selectedRecordingMode == index)
        #expect(modes.selectedMode.recordingMode == mode)
    }

    @Test(arguments: [(0, MatterStatus.dynamicConstraintError), (6, .constraintError), (-1, .constraintError)])
    func selectRejects(_ index: Int, _ status: MatterStatus) {
        var modes = RecordingModes.standard
        let error = commandError { try modes.select(index) }
        #expect(error?.status == status)
        #expect(error?.field == "selectedRecordingMode")
        #expect(modes.selectedRecordingMode == 1)
    }

    @Test func selectByMode() throws {
        var modes = RecordingModes.standard
        try modes.select(mode: .images)
        #expect(modes.selectedRecordingMode == 3)
        #expect(commandError { try modes.select(mode: .cvr) }?.status == .notFound)
    }

    @Test func validationCollectsEveryProblem() {
        let supported = [
            SupportedRecordingMode(.ebr, maxDuration: 60, expiryDurationSeconds: 0),
            SupportedRecordingMode(.ebr, maxDuration: 10, expiryDurationSeconds: 0),
        ]
        let errors = RecordingModes.validationErrors(supported: supported, available: [0, 2, 0], selected: 1)
        #expect(
            errors.map(\.description) == [
                "AlreadyExists: supportedRecordingModes[1].recordingMode: ebr is listed twice",
                "ConstraintError: availableRecordingModes[1]: index 2 is outside supportedRecordingModes (2 entries)",
                "AlreadyExists: availableRecordingModes[2]: index 0 is listed twice",
                "DynamicConstraintError: selectedRecordingMode: index 1 is not in availableRecordingModes",
            ])
        #expect(
            RecordingModes.validationErrors(supported: [], available: [], selected: 0).map(\.field) == [
                "supportedRecordingModes", "selectedRecordingMode",
            ])
    }
}

@Suite struct TransportAndVideoTests {
    @Test func triggerOptionsValidation() {
        let options = TransportTriggerOptions(
            triggerType: .motion,
            motionZones: [
                TransportZoneOptions(zone: 1), TransportZoneOptions(zone: 4), TransportZoneOptions(zone: nil, sensitivity: 11),
                TransportZoneOptions(zone: 1),
            ],
            motionSensitivity: 0,
            motionTimeControl: TransportMotionTimeControl(
                initialDuration: 0, augmentationDuration: 0, maxDuration: 0, blindDuration: 0))
        let messages = options.validationErrors(knownZoneIDs: [1]).map(\.description)
        #expect(
            messages == [
                "NotFound: motionZones[1].zone: no zone with ID 4",
                "ConstraintError: motionZones[2].sensitivity: 11 is out of range 1...10",
                "AlreadyExists: motionZones[3].zone: zone 1 is listed twice",
                "ConstraintError: motionSensitivity: 0 is out of range 1...10",
                "ConstraintError: motionTimeControl.initialDuration: 0 is out of range 1...65535",
            ])
        let maxBelow = TransportMotionTimeControl(initialDuration: 10, augmentationDuration: 5, maxDuration: 5, blindDuration: 0)
        #expect(maxBelow.validationErrors().map(\.field) == ["maxDuration"])
        #expect(TransportMotionTimeControl.standard.validationErrors().isEmpty)
    }

    @Test(arguments: [(UInt16?.none, true), (1, true), (2, false)])
    func motionZonesDecideWhatTriggers(_ zone: UInt16?, _ expected: Bool) {
        let options = TransportTriggerOptions(
            triggerType: .motion, motionZones: [TransportZoneOptions(zone: 1), TransportZoneOptions(zone: nil)])
        #expect(options.triggers(onMotionInZone: zone) == expected)
        #expect(TransportTriggerOptions(triggerType: .motion, motionZones: []).triggers(onMotionInZone: zone))
        #expect(TransportTriggerOptions(triggerType: .motion, motionZones: nil).triggers(onMotionInZone: zone))
    }

    @Test func matterTriggerTypeNumbers() {
        #expect(TransportTriggerType(matterValue: 0) == .command)
        #expect(TransportTriggerType(matterValue: 2) == .continuous)
        #expect(TransportTriggerType(matterValue: 3) == nil)
    }

    @Test func videoValidation() {
        let video = VideoSettings(
            imageRotation: 360, viewport: Viewport(x1: 10, y1: 0, x2: 10, y2: 3000), speakerVolumeLevel: 255)
        #expect(
            video.validationErrors(maximum: TwoDCartesianVertex(x: 2048, y: 2048)).map(\.description) == [
                "ConstraintError: imageRotation: 360 is out of range 0...359",
                "ConstraintError: viewport.x2: 10 is not greater than x1 10",
                "DynamicConstraintError: viewport.y2: 3000 exceeds twoDCartesianMax.y 2048",
                "ConstraintError: speakerVolumeLevel: 255 is out of range 0...254",
            ])
        #expect(VideoSettings(imageRotation: 359).validationErrors(maximum: TwoDCartesianVertex(x: 2048, y: 2048)).isEmpty)
    }
}

@Suite struct DeviceTests {
    @Test func defaultDevice() throws {
        let device = Device.default
        // Only what Vigil detects: no person, vehicle, animal or package detector exists.
        let detectable: Set<EventTriggerType> = [.motion, .sound, .personTalking, .dogBark, .glassBreak, .smokeAlarm, .coAlarm]
        #expect(device.eventTriggers.supported == detectable)
        #expect(device.eventTriggers.enabled == detectable)
        #expect(device.recordingModes == .standard)
        #expect(device.recordingModes.selectedMode.recordingMode == .ebr)
        #expect(device.transport.transportStatus == .active)
        let timeControl = try #require(device.transport.triggerOptions.motionTimeControl)
        #expect(timeControl == TransportMotionTimeControl(initialDuration: 10, augmentationDuration: 5, maxDuration: 60, blindDuration: 10))
        #expect(device.transport.triggerOptions.maxPreRollLen == 4000)
        #expect(device.zoneManagement.twoDCartesianMax == TwoDCartesianVertex(x: 2048, y: 2048))
        #expect(device.zoneManagement.maxUserDefinedZones == 8)
        #expect(device.zoneManagement.sensitivityMax == 10)
        #expect(device.zoneManagement.sensitivity == 5)
        #expect(device.zoneManagement.zones.isEmpty)
        #expect(!device.audio.microphoneMuted)
        #expect(device.detectsEvents)
    }

    func deviceWithZones(transportSensitivity: Int?, deviceSensitivity: Int?) throws -> Device {
        var device = Device.default
        var zones = try ZoneManagement(sensitivityMax: 4, sensitivity: deviceSensitivity)
        try zones.createTwoDCartesianZone(motionZone("with own", vertices([(0, 0), (10, 0), (0, 10)])))  // 1
        try zones.createTwoDCartesianZone(motionZone("trigger without", vertices([(0, 0), (20, 0), (0, 20)])))  // 2
        try zones.createTwoDCartesianZone(motionZone("no trigger", vertices([(0, 0), (30, 0), (0, 30)])))  // 3
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1, sensitivity: 2))
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 2))
        device.zoneManagement = zones
        device.transport.triggerOptions.motionSensitivity = transportSensitivity
        return device
    }

    @Test func sensitivityRule() throws {
        let device = try deviceWithZones(transportSensitivity: 7, deviceSensitivity: 3)
        #expect(device.sensitivity(forZone: 1) == Sensitivity(2, maximum: 4))
        #expect(device.sensitivity(forZone: 2) == Sensitivity(3, maximum: 4))
        #expect(device.sensitivity(forZone: 3) == Sensitivity(7, maximum: 10))
        #expect(device.motionSensitivityOutsideZones == Sensitivity(7, maximum: 10))

        let noTransport = try deviceWithZones(transportSensitivity: nil, deviceSensitivity: 3)
        #expect(noTransport.motionSensitivityOutsideZones == Sensitivity(3, maximum: 4))
        #expect(noTransport.sensitivity(forZone: 3) == Sensitivity(3, maximum: 4))

        let neither = try deviceWithZones(transportSensitivity: nil, deviceSensitivity: nil)
        #expect(neither.motionSensitivityOutsideZones == Sensitivity(10, maximum: 10))
        #expect(neither.sensitivity(forZone: 1) == Sensitivity(2, maximum: 4))
        #expect(neither.sensitivity(forZone: 2) == Sensitivity(10, maximum: 10))
    }

    @Test func reportingDependsOnTransportModeAndMicrophone() throws {
        var device = Device.default
        device.eventTriggers = .all  // a camera that supports every trigger, person detection included
        #expect(device.canReport(.dogBark))
        device.audio.microphoneMuted = true
        #expect(!device.canReport(.dogBark))
        #expect(device.canReport(.motion))
        device.transport.transportStatus = .inactive
        #expect(!device.canReport(.motion))
        device.transport.transportStatus = .active
        try device.recordingModes.select(mode: .liveView)
        #expect(!device.canReport(.motion))
        try device.eventTriggers.setOrUpdateEventDetectionTriggers([EventTriggerEnablement(.motion, .disabled)])
        try device.recordingModes.select(mode: .disabled)
        #expect(!device.canReport(.motion))
        #expect(device.canReport(.personDetected))
    }

    @Test func zoneUseWireForms() {
        #expect(ZoneUse(matterValue: 0) == .motion)
        #expect(ZoneUse(matterValue: 1) == .privacy)
        #expect(ZoneUse(matterValue: 2) == .focus)
        #expect(ZoneUse(matterValue: 3) == .unrecognized("3"))
        #expect(ZoneUse(wireName: "package") == .package)
        #expect(ZoneUse(wireName: "Motion") == .unrecognized("Motion"))
        #expect(ZoneUse.known.map(\.wireName) == ["motion", "privacy", "focus", "person", "vehicle", "animal", "package"])
        #expect(ZoneUse.person.matterValue == nil)
    }
}
