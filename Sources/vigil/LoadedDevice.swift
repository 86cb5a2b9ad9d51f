import Foundation
import VigilDetectors
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

/// The device as the analysis needs it: its event policy and detector settings.
struct LoadedDevice {
    var policy: EventPolicy
    var settings: DetectorSettings
    var warnings: [String]

    /// Loads `path`, or the built-in default device when `path` is nil.
    static func load(path: String?) throws -> LoadedDevice {
        guard let path else { return LoadedDevice(policy: EventPolicy(), settings: DetectorSettings(), warnings: []) }
        throw DeviceLoadFailure(path: path, problems: ["device files are not supported yet"])
    }
}
