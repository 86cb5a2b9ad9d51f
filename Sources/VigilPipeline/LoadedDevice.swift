import Foundation
import VigilCore
import VigilDetectors
import VigilDevice
import VigilEvents

/// A device file that could not be used: every problem, each with its JSON path.
public struct DeviceLoadFailure: Error, CustomStringConvertible {
    /// The file or directory concerned.
    public var path: String
    /// Every problem, with its JSON path where it applies.
    public var problems: [String]
    public var description: String {
        "\(path): invalid device file (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  \($0)\n" }.joined()
    }
}

/// The device as the analysis needs it: the device, its event policy and detector settings.
public struct LoadedDevice {
    /// The device.
    public var device: Device
    /// Its event policy.
    public var policy: EventPolicy
    /// Detector settings (sensitivities from the device).
    public var settings: DetectorSettings
    /// Warnings about the file (unknown keys, undetectable triggers).
    public var warnings: [String]

    /// The built-in default device: the triggers Vigil detects supported and enabled, ebr, transport active, no zones.
    public static var builtIn: LoadedDevice { LoadedDevice(device: .default, warnings: []) }

    /// The device as the analysis needs it.
    public init(device: Device, warnings: [String]) {
        self.device = device
        self.policy = EventPolicy(device: device)
        self.settings = DetectorSettings()
        self.warnings = warnings
    }

    /// Reads a device file's bytes, or explains why it cannot.
    public static func readBytes(path: String, limits: InputLimits = .default) throws -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw DeviceLoadFailure(path: path, problems: ["cannot read file: no such file or no permission"])
        }
        if (attributes[.type] as? FileAttributeType) == .typeDirectory {
            throw DeviceLoadFailure(path: path, problems: ["is a directory, not a device file"])
        }
        if let size = attributes[.size] as? Int, size > limits.maxJSONBytes {
            throw DeviceLoadFailure(
                path: path,
                problems: [
                    "file is \(size) bytes, more than the \(InputLimits.byteText(limits.maxJSONBytes)) limit \(InputLimits.Limit.jsonBytes.raiseHint)"
                ])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceLoadFailure(path: path, problems: ["cannot read file"])
        }
        return data
    }

    /// Decodes the file at `path` into a report (problems and warnings with their JSON paths),
    /// with a warning for each enabled trigger this build has no detector for.
    public static func report(path: String, limits: InputLimits = .default) throws -> DeviceFileReport {
        var report = DeviceFile.decode(try readBytes(path: path, limits: limits), limits: limits)
        if let device = report.device { report.warnings += undetectableTriggerWarnings(device) }
        return report
    }

    /// One warning per enabled trigger that no detector of this build finds: it never fires.
    public static func undetectableTriggerWarnings(_ device: Device) -> [DeviceFileWarning] {
        let detectable = Set(DetectorRegistry.detectableTriggers)
        return device.eventTriggers.enabled.sorted().filter { !detectable.contains($0) }.map { trigger in
            DeviceFileWarning(
                path: "enabledEventTriggers",
                message: "\(trigger.rawValue) is enabled but Vigil has no detector for it: it never fires "
                    + "(detectable: \(DetectorRegistry.detectableTriggers.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    /// Loads `path`, or the built-in default device when `path` is nil.
    public static func load(path: String?, limits: InputLimits = .default) throws -> LoadedDevice {
        guard let path else { return .builtIn }
        let report = try report(path: path, limits: limits)
        guard let device = report.device, report.problems.isEmpty else {
            throw DeviceLoadFailure(path: path, problems: report.problems.map(\.description))
        }
        return LoadedDevice(device: device, warnings: report.warnings.map { "\(path): \($0)" })
    }
}
