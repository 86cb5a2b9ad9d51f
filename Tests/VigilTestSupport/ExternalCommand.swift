import Foundation

/// Runs the external tools the tests start (ffmpeg, mosquitto, ...), found on PATH.
public enum ExternalCommand {
    /// A tool that exited with a failure status; carries its standard error.
    public struct Failed: Error, CustomStringConvertible {
        /// The command line.
        public var command: [String]
        /// Its exit status.
        public var status: Int32
        /// What it wrote to standard error.
        public var stderr: String
        public var description: String { "\(command.joined(separator: " ")) exited with \(status): \(stderr)" }
    }

    /// Whether `command` is an executable on PATH.
    public static func isAvailable(_ command: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }

    /// Runs `arguments` (the tool first, found on PATH) to its end.
    /// - Throws: ``Failed`` when it exits with a failure status.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(command: arguments, status: process.terminationStatus, stderr: String(decoding: text, as: UTF8.self))
        }
    }
}
