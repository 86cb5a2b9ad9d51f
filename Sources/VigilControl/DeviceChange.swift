import VigilCore

/// A control command that changed the device, waiting to take effect at the next block.
public struct DeviceChange: Sendable, Hashable {
    /// The Matter / trait command, e.g. `createTwoDCartesianZone`.
    public var command: String
    /// What changed, as JSON (e.g. `{"zoneID": 3}`).
    public var detail: JSONValue

    /// Creates a change.
    public init(command: String, detail: JSONValue) {
        self.command = command
        self.detail = detail
    }
}
