import ArgumentParser
import Foundation
import VigilCore
import VigilDevice
import VigilPipeline

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
                    FileHandle.standardOutput.write(Data(DeviceValidationOutput.jsonLines(failure, file: file).utf8))
                } else {
                    FileHandle.standardError.write(Data(failure.description.utf8))
                }
                throw ExitCode(ExitStatus.usage)
            }
            let output =
                json
                ? (stdout: DeviceValidationOutput.jsonLines(report, file: file), stderr: "")
                : DeviceValidationOutput.text(report, file: file)
            FileHandle.standardError.write(Data(output.stderr.utf8))
            FileHandle.standardOutput.write(Data(output.stdout.utf8))
            if !report.isValid { throw ExitCode(ExitStatus.usage) }
        }
    }

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
