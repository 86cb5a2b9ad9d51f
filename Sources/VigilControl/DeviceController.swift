import NIOConcurrencyHelpers
import VigilCore
import VigilDevice

/// The live device: its state, changed only through the trait commands (with the device-file
/// validation, see ``ControlRequestDecoder``), thread-safe. Every successful command is queued
/// as a ``DeviceChange``; the ``LiveSession`` applies the queued changes before its next block.
public final class DeviceController: Sendable {
    /// What the lock guards: the device, the changes not yet taken and the command count.
    private struct State {
        var device: Device
        var pending: [DeviceChange] = []
        var version = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Creates a controller for `device`.
    public init(device: Device) {
        state = NIOLockedValueBox(State(device: device))
    }

    /// The current device (including changes not yet applied to the stream).
    public var current: Device { state.withLockedValue { $0.device } }

    /// The number of successful commands so far.
    public var changeCount: Int { state.withLockedValue { $0.version } }

    /// Takes the queued changes with the device they lead to; `nil` when nothing changed.
    package func takeChanges() -> (device: Device, changes: [DeviceChange])? {
        state.withLockedValue { state in
            guard !state.pending.isEmpty else { return nil }
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.device, state.pending)
        }
    }

    /// Runs `command` on a copy of the device and keeps the result only if it succeeds.
    private func mutate<T: Sendable>(
        _ command: String, _ body: (inout Device) throws(ControlError) -> (T, JSONValue)
    ) throws(ControlError) -> T {
        // `withLockedValue` rethrows untyped errors, so the command's typed error travels in a Result.
        let outcome = state.withLockedValue { (state: inout State) -> Result<T, ControlError> in
            var copy = state.device
            let (result, detail): (T, JSONValue)
            do throws(ControlError) {
                (result, detail) = try body(&copy)
            } catch {
                return .failure(error)
            }
            state.device = copy
            state.version += 1
            if state.pending.count >= 1024 { state.pending.removeFirst(state.pending.count - 1023) }
            state.pending.append(DeviceChange(command: command, detail: detail))
            return .success(result)
        }
        return try outcome.get()
    }

    private static func zoneID(_ text: String, field: String = "zoneID") throws(ControlError) -> UInt16 {
        guard let id = UInt16(text) else { throw .invalidCommand(field: field, "\"\(text)\" is not a zone ID (0...65535)") }
        return id
    }

    /// `CreateTwoDCartesianZone`: returns the new zone's ID.
    public func createZone(_ body: JSONValue) throws(ControlError) -> UInt16 {
        let zone = try ControlRequestDecoder.zone(body)
        return try mutate("createTwoDCartesianZone") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                let id = try device.zoneManagement.createTwoDCartesianZone(zone)
                return (id, ["zoneID": .number(Double(id))])
            } catch { throw ControlError(error) }
        }
    }

    /// `UpdateTwoDCartesianZone` of zone `id` (path text).
    public func updateZone(id text: String, _ body: JSONValue) throws(ControlError) {
        let id = try Self.zoneID(text)
        let zone = try ControlRequestDecoder.zone(body)
        try mutate("updateTwoDCartesianZone") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                try device.zoneManagement.updateTwoDCartesianZone(id: id, zone: zone)
                return ((), ["zoneID": .number(Double(id))])
            } catch { throw ControlError(error) }
        }
    }

    /// `RemoveZone` of zone `id` (path text). Besides the command's own rules, a zone that the
    /// transport's `motionZones` still lists is InvalidInState (removing it would leave a device
    /// that no longer passes device-file validation).
    public func removeZone(id text: String) throws(ControlError) {
        let id = try Self.zoneID(text)
        try mutate("removeZone") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                if device.zoneManagement.zone(id: id) != nil,
                    device.transport.triggerOptions.motionZones?.contains(where: { $0.zone == id }) == true
                {
                    throw MatterCommandError(
                        .invalidInState, field: "zoneID", "zone \(id) is listed in transport.triggerOptions.motionZones")
                }
                try device.zoneManagement.removeZone(id)
                return ((), ["zoneID": .number(Double(id))])
            } catch { throw ControlError(error) }
        }
    }

    /// `CreateOrUpdateTrigger`: returns the stored trigger.
    public func createOrUpdateTrigger(_ body: JSONValue) throws(ControlError) -> ZoneTriggerControl {
        try mutate("createOrUpdateTrigger") { (device: inout Device) throws(ControlError) in
            let trigger = try ControlRequestDecoder.trigger(body, device: device)
            do throws(MatterCommandError) {
                try device.zoneManagement.createOrUpdateTrigger(trigger)
                return (trigger, ["zoneID": .number(Double(trigger.zoneID))])
            } catch { throw ControlError(error) }
        }
    }

    /// `RemoveTrigger` of zone `zoneID` (path text).
    public func removeTrigger(zoneID text: String) throws(ControlError) {
        let id = try Self.zoneID(text)
        try mutate("removeTrigger") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                try device.zoneManagement.removeTrigger(zoneID: id)
                return ((), ["zoneID": .number(Double(id))])
            } catch { throw ControlError(error) }
        }
    }

    /// `SetOrUpdateEventDetectionTriggers`: returns the enabled triggers afterwards.
    public func setEventDetectionTriggers(_ body: JSONValue) throws(ControlError) -> [EventTriggerType] {
        let changes = try ControlRequestDecoder.enablements(body)
        return try mutate("setOrUpdateEventDetectionTriggers") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                try device.eventTriggers.setOrUpdateEventDetectionTriggers(changes)
            } catch { throw ControlError(error) }
            let enabled = device.eventTriggers.enabled.sorted()
            return (enabled, ["enabledEventTriggers": .array(enabled.map { .string($0.rawValue) })])
        }
    }

    /// Recording mode `select`: returns the selected index.
    public func selectRecordingMode(_ body: JSONValue) throws(ControlError) -> Int {
        let selection = try ControlRequestDecoder.recordingMode(body)
        return try mutate("selectRecordingMode") { (device: inout Device) throws(ControlError) in
            do throws(MatterCommandError) {
                switch selection {
                case .index(let index): try device.recordingModes.select(index)
                case .mode(let mode): try device.recordingModes.select(mode: mode)
                }
            } catch { throw ControlError(error) }
            let index = device.recordingModes.selectedRecordingMode
            return (
                index,
                [
                    "selectedRecordingMode": .number(Double(index)),
                    "recordingMode": .string(device.recordingModes.selectedMode.recordingMode.rawValue),
                ]
            )
        }
    }

    /// Transport status and trigger options.
    public func setTransport(_ body: JSONValue) throws(ControlError) -> Transport {
        try mutate("setTransport") { (device: inout Device) throws(ControlError) in
            let transport = try ControlRequestDecoder.transport(body, device: device)
            device.transport = transport
            return (transport, ["transportStatus": .string(transport.transportStatus.rawValue)])
        }
    }

    /// Microphone and recording-microphone mute.
    public func setAudio(_ body: JSONValue) throws(ControlError) -> AudioSettings {
        try mutate("setAudio") { (device: inout Device) throws(ControlError) in
            let audio = try ControlRequestDecoder.audio(body, device: device)
            device.audio = audio
            return (
                audio,
                ["microphoneMuted": .bool(audio.microphoneMuted), "recordingMicrophoneMuted": .bool(audio.recordingMicrophoneMuted)]
            )
        }
    }
}
