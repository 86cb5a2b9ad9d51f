import Foundation

/// Runs the built `vigil` executable (it sits beside the test bundle in the build directory).
struct CommandRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// stdout split into lines, empty lines dropped.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// The package root (for Samples/ and ../shared).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The vigil executable in the same build directory as the running test bundle.
    static var executable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // Bundle layouts: .../debug/VigilPackageTests.xctest (Linux, a file) or .../debug/X.xctest/Contents/MacOS/X.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("vigil").path) && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("vigil")
    }

    /// Runs `vigil arguments` in `directory` with `input` on stdin.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        // Capture through files: no pipe can fill up and block the child.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
