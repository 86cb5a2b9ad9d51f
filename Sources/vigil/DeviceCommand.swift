import ArgumentParser
import Foundation
import VigilPipeline
import VigilCore
import VigilDevice

/// `vigil device`: device files.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Check and create device files (zones, triggers, recording mode, transport).",
        discussion: "The device file format is described in docs/device-file.md.",
        subcommands: [Validate.self, Init.self])

    /// `vigil device validate FILE`.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a device file and list every problem with its JSON path.",
            discussion: """
                Exit status 0 when the file is valid (warnings, such as unknown keys, are printed but do \
                not fail it); 2 when it is not, with every problem listed as `path: reason [Status]`.
                With --json, one JSON object per line: {"type":"problem"|"warning","path","reason","status"?} \
                and a final {"type":"result","valid":true|false,...}.
                """)

        @Argument(help: "The device file (JSON).")
        var file: String

        @Flag(help: "JSON Lines output.")
        var json = false

        @OptionGroup(title: "Input limits")
        var inputLimits: InputLimitOptions

        func run() throws {
            let report: DeviceFileReport
            do {
                report = try LoadedDevice.report(path: file, limits: inputLimits.limits)
            } catch let failure as DeviceLoadFailure {
                if json {
                    for p in failure.problems {
                        print(JSONValue.object(["type": "problem", "path": "", "reason": .string(p)]).serialized())
                    }
                    print(JSONValue.object(["type": "result", "file": .string(file), "valid": false]).serialized())
                } else {
                    FileHandle.standardError.write(Data(failure.description.utf8))
                }
                throw ExitCode(ExitStatus.usage)
            }
            if json {
                for p in report.problems {
                    var members: [(String, JSONValue)] = [("type", "problem"), ("path", .string(p.path)), ("reason", .string(p.reason))]
                    if let status = p.status { members.append(("status", .string(status.rawValue))) }
                    print(JSONValue.object(JSONObject(members)).serialized())
                }
                for w in report.warnings {
                    print(JSONValue.object(["type": "warning", "path": .string(w.path), "reason": .string(w.message)]).serialized())
                }
                print(
                    JSONValue.object([
                        "type": "result", "file": .string(file), "valid": .bool(report.isValid),
                        "problems": .number(Double(report.problems.count)), "warnings": .number(Double(report.warnings.count)),
                    ]).serialized())
            } else {
                for w in report.warnings { FileHandle.standardError.write(Data("warning: \(file): \(w)\n".utf8)) }
                if let device = report.device, report.isValid {
                    let zones = device.zoneManagement.zones.count
                    let triggers = device.zoneManagement.triggers.count
                    print(
                        "\(file): valid device \"\(device.name)\": \(zones) zone\(zones == 1 ? "" : "s"), \(triggers) zone trigger\(triggers == 1 ? "" : "s"), recording mode \(device.recordingModes.selectedMode.recordingMode.rawValue), \(device.eventTriggers.enabled.count) triggers enabled"
                    )
                } else {
                    var text = "\(file): invalid device file (\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")):\n"
                    for p in report.problems { text += "  \(p)\(p.status.map { " [\($0.rawValue)]" } ?? "")\n" }
                    FileHandle.standardError.write(Data(text.utf8))
                }
            }
            if !report.isValid { throw ExitCode(ExitStatus.usage) }
        }
    }

    /// `vigil device init`.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the built-in default device as a device file.",
            discussion: """
                The default device supports and enables the triggers Vigil detects (motion and the sound \
                triggers; not personDetected, vehicleDetected, animalDetected or packageDetected), records in \
                ebr mode, has an active transport and no zones. It applies whenever `vigil analyze` is run without --device.
                Example: vigil device init > mycam.json
                """)

        @Flag(help: "Print on one line (JSON Lines) instead of indented.")
        var compact = false

        func run() throws {
            print(DeviceFile.encode(.default, style: compact ? .compact : .pretty))
        }
    }
}
