import FuzzSupport
import VigilControl
import VigilDevice

/// Live control API payloads: the first byte picks the endpoint, the rest is the request body
/// (and, for the endpoints with an ID in the path, the text before the first newline is the ID).
/// Any body gives a result or a ControlError, never a crash; a successful command leaves a
/// device that is still a valid device file.
@main
enum FuzzControlRequest {
    static func main() {
        FuzzDriver.run { raw in
            guard let selector = raw.first else { return }
            var body = [UInt8](raw.dropFirst())
            var pathID = "1"
            if selector & 0x80 != 0, let newline = body.firstIndex(of: 0x0A) {
                pathID = String(decoding: body[..<newline], as: UTF8.self)
                body.removeSubrange(...newline)
            }
            let controller = DeviceController(device: .default)
            do {
                let json = try ControlRequestDecoder.parse(body)
                switch (selector & 0x7F) % 9 {
                case 0: _ = try controller.createZone(json)
                case 1: try controller.updateZone(id: pathID, json)
                case 2: try controller.removeZone(id: pathID)
                case 3: _ = try controller.createOrUpdateTrigger(json)
                case 4: try controller.removeTrigger(zoneID: pathID)
                case 5: _ = try controller.setEventDetectionTriggers(json)
                case 6: _ = try controller.selectRecordingMode(json)
                case 7: _ = try controller.setTransport(json)
                default: _ = try controller.setAudio(json)
                }
            } catch {
                _ = String(describing: error)
                return
            }
            let device = controller.current
            let report = DeviceFile.decode(text: DeviceFile.encode(device))
            FuzzDriver.check(
                report.device == device, "after a successful command the device is not a valid device file: \(report.problems)")
        }
    }
}
