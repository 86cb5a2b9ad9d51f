/// Whether the camera streams and detects (PushAvStreamTransport `transportStatus`).
public enum TransportStatus: String, Sendable, Hashable, CaseIterable {
    /// Video on: events are detected.
    case active
    /// "Camera video off": the device is online but detects no events.
    case inactive
}
