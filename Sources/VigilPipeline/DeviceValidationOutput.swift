import VigilCore
import VigilDevice

/// What `vigil device validate` prints for a device file: JSON Lines (one object per problem and
/// warning, then a result) or text (a one-line summary of a valid device on stdout; warnings and
/// every problem with its JSON path on stderr).
public enum DeviceValidationOutput {
    /// JSON Lines for a report.
    public static func jsonLines(_ report: DeviceFileReport, file: String) -> String {
        var lines: [JSONValue] = []
        for p in report.problems {
            var members: [(String, JSONValue)] = [("type", "problem"), ("path", .string(p.path)), ("reason", .string(p.reason))]
            if let status = p.status { members.append(("status", .string(status.rawValue))) }
            lines.append(.object(JSONObject(members)))
        }
        for w in report.warnings {
            lines.append(.object(["type": "warning", "path": .string(w.path), "reason": .string(w.message)]))
        }
        lines.append(
            .object([
                "type": "result", "file": .string(file), "valid": .bool(report.isValid),
                "problems": .number(Double(report.problems.count)), "warnings": .number(Double(report.warnings.count)),
            ]))
        return lines.map { $0.serialized() + "\n" }.joined()
    }

    /// JSON Lines for a file that could not be read as a device file at all.
    public static func jsonLines(_ failure: DeviceLoadFailure, file: String) -> String {
        let lines: [JSONValue] =
            failure.problems.map { .object(["type": "problem", "path": "", "reason": .string($0)]) }
            + [.object(["type": "result", "file": .string(file), "valid": false])]
        return lines.map { $0.serialized() + "\n" }.joined()
    }

    /// The text form: `stdout` holds the summary of a valid device, `stderr` warnings and problems.
    public static func text(_ report: DeviceFileReport, file: String) -> (stdout: String, stderr: String) {
        var stderr = report.warnings.map { "warning: \(file): \($0)\n" }.joined()
        guard let device = report.device, report.isValid else {
            stderr += "\(file): invalid device file (\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")):\n"
            for p in report.problems { stderr += "  \(p)\(p.status.map { " [\($0.rawValue)]" } ?? "")\n" }
            return ("", stderr)
        }
        let zones = device.zoneManagement.zones.count
        let triggers = device.zoneManagement.triggers.count
        let stdout =
            "\(file): valid device \"\(device.name)\": \(zones) zone\(zones == 1 ? "" : "s"), \(triggers) zone trigger\(triggers == 1 ? "" : "s"), "
            + "recording mode \(device.recordingModes.selectedMode.recordingMode.rawValue), \(device.eventTriggers.enabled.count) triggers enabled\n"
        return (stdout, stderr)
    }
}
