import ArgumentParser
import Foundation
import VigilPipeline

/// The `vigil` command: finds the events a home security camera or doorbell would report.
@main
struct VigilCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vigil",
        abstract: "Find the events a home security camera or doorbell would report, in real audio and video.",
        discussion: """
            Events are gated by the device's activity zones, enabled detection triggers and recording \
            mode, exactly as a Matter / Google Home camera would emit them. See README.md and docs/.
            """,
        version: VigilVersion.string,
        subcommands: [
            AnalyzeCommand.self, DeviceCommand.self, ZonesCommand.self, LiveCommand.self, SynthCommand.self, TrainCommand.self,
            BenchCommand.self,
            SummaryCommand.self,
        ])

    /// Parses and runs, mapping usage errors to exit code 2 (documented) instead of 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

/// Documented exit codes.
enum ExitStatus {
    /// Every input succeeded.
    static let success: Int32 = 0
    /// Some inputs failed (each reported on stderr); the others were analyzed.
    static let someInputsFailed: Int32 = 1
    /// Usage or device-file error; nothing was analyzed.
    static let usage: Int32 = 2
}
