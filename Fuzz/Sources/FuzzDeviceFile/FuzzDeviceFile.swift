import FuzzSupport
import VigilDevice

/// Device files (JSON, docs/device-file.md): any bytes decode to a device or to a list of
/// problems, never a crash; a device that decodes re-encodes to a file that decodes to itself.
@main
enum FuzzDeviceFile {
    static func main() {
        FuzzDriver.run { bytes in
            let report = DeviceFile.decode(bytes)
            for problem in report.problems { _ = problem.description }
            guard let device = report.device else { return }
            let text = DeviceFile.encode(device)
            let again = DeviceFile.decode(text: text)
            FuzzDriver.check(again.device == device, "round trip changed the device: \(again.problems) \(text)")
        }
    }
}
