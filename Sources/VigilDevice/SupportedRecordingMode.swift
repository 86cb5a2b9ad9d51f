import VigilCore

/// One entry of `supportedRecordingModes`.
public struct SupportedRecordingMode: Sendable, Hashable {
    /// The mode.
    public var recordingMode: RecordingModeType
    /// Longest clip in seconds (0: no limit or not applicable).
    public var maxDuration: UInt32
    /// How long recordings are kept, in seconds (0: not kept).
    public var expiryDurationSeconds: UInt32

    /// Creates an entry.
    public init(_ recordingMode: RecordingModeType, maxDuration: UInt32, expiryDurationSeconds: UInt32) {
        self.recordingMode = recordingMode
        self.maxDuration = maxDuration
        self.expiryDurationSeconds = expiryDurationSeconds
    }
}
