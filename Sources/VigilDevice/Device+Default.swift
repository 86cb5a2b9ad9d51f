import VigilCore

extension Device {
    /// The default device, the basis for every key a device file leaves out:
    /// name "Vigil camera"; twoDCartesianMax 2048 x 2048; maxUserDefinedZones 8 (maxZones 8);
    /// sensitivityMax 10; sensitivity 5; no focus zones; no zones or triggers; the triggers
    /// Vigil can detect (``EventDetectionTriggers/detectable``) supported and enabled; the example file's recording modes with ebr
    /// selected; transport active, motion-triggered anywhere, no own motionSensitivity,
    /// time control 10 / 5 / 60 / 10 s, maxPreRollLen 4000 ms; microphone and recording
    /// microphone not muted; rotation 0, no flips, viewport (0, 0)-(2048, 2048), night vision auto.
    public static let `default` = Device(
        name: "Vigil camera",
        zoneManagement: defaultZoneManagement,
        eventTriggers: .detectable,
        recordingModes: .standard,
        transport: .standard,
        audio: AudioSettings(microphoneMuted: false, recordingMicrophoneMuted: false),
        video: VideoSettings())

    private static var defaultZoneManagement: ZoneManagement {
        do {
            return try ZoneManagement(
                maxUserDefinedZones: 8, maxZones: 8, twoDCartesianMax: TwoDCartesianVertex(x: 2048, y: 2048),
                sensitivityMax: 10, sensitivity: 5, supportsFocusZones: false)
        } catch {
            preconditionFailure("default ZoneManagement limits are valid: \(error)")
        }
    }
}
