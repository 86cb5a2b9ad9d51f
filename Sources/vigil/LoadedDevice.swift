import Foundation
import VigilCore
import VigilDetectors
import VigilDevice
import VigilEvents

/// A device file that could not be used: every problem, each with its JSON path.
struct DeviceLoadFailure: Error, CustomStringConvertible {
    var path: String
    var problems: [String]
    var description: String {
        "\(path): invalid device file (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  \($0)\n" }.joined()
    }
}

/// The device as the analysis needs it: the device, its event policy and detector settings.
struct LoadedDevice {
    /// Largest device file accepted (bytes).
    static let maxFileSize = 4 << 20

    var device: Device
    var policy: EventPolicy
    var settings: DetectorSettings
    var warnings: [String]

    /// The built-in default device: every trigger supported and enabled, ebr, transport active, no zones.
    static var builtIn: LoadedDevice { LoadedDevice(device: .default, warnings: []) }

    init(device: Device, warnings: [String]) {
        self.device = device
        self.policy = EventPolicy(device: device)
        self.settings = DetectorSettings()
        self.warnings = warnings
    }

    /// Reads a device file's bytes, or explains why it cannot.
    static func readBytes(path: String) throws -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw DeviceLoadFailure(path: path, problems: ["cannot read file: no such file or no permission"])
        }
        if (attributes[.type] as? FileAttributeType) == .typeDirectory {
            throw DeviceLoadFailure(path: path, problems: ["is a directory, not a device file"])
        }
        if let size = attributes[.size] as? Int, size > maxFileSize {
            throw DeviceLoadFailure(path: path, problems: ["file is \(size) bytes, larger than the \(maxFileSize)-byte limit for device files"])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceLoadFailure(path: path, problems: ["cannot read file"])
        }
        return data
    }

    /// Decodes the file at `path` into a report (problems and warnings with their JSON paths).
    static func report(path: String) throws -> DeviceFileReport {
        DeviceFile.decode(try readBytes(path: path))
    }

    /// Loads `path`, or the built-in default device when `path` is nil.
    static func load(path: String?) throws -> LoadedDevice {
        guard let path else { return .builtIn }
        let report = try report(path: path)
        guard let device = report.device, report.problems.isEmpty else {
            throw DeviceLoadFailure(path: path, problems: report.problems.map(\.description))
        }
        return LoadedDevice(device: device, warnings: report.warnings.map { "\(path): \($0)" })
    }
}
