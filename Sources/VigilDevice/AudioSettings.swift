/// Microphone settings (CameraAvStreamManagement, Google).
public struct AudioSettings: Sendable, Hashable {
    /// The microphone delivers silence: no sound event can fire.
    public var microphoneMuted: Bool
    /// Events still fire but clips carry no audio (Google).
    public var recordingMicrophoneMuted: Bool

    /// Creates audio settings (both unmuted by default).
    public init(microphoneMuted: Bool = false, recordingMicrophoneMuted: Bool = false) {
        self.microphoneMuted = microphoneMuted
        self.recordingMicrophoneMuted = recordingMicrophoneMuted
    }
}
