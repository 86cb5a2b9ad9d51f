import Foundation

/// Runs the built `vigil` executable, or another of the package's (they sit beside the test bundle
/// in the build directory), and captures its output: the one process runner of the tests.
public enum CommandRunner {
    /// What a run gave.
    public struct Result: Sendable {
        /// Exit status (-1 when the run was stopped at its time limit).
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
        /// stdout split into lines, empty lines dropped.
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// Creates a result.
        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The package root (for Samples/ and ../shared).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The vigil executable in the same build directory as the running test bundle.
    public static var executable: URL { executable(named: "vigil") }

    /// The package's executable `product` (`vigil`, `vigil-dev`) in the same build directory as the
    /// running test bundle.
    public static func executable(named product: String) -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // Bundle layouts: .../debug/VigilPackageTests.xctest (Linux, a file) or .../debug/X.xctest/Contents/MacOS/X.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent(product).path) && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent(product)
    }

    /// Runs `product arguments` (default product: `vigil`) in `directory` (default: the package root) with the file `stdin` (default:
    /// nothing) on standard input. With a `timeout` (seconds), a run still going then is terminated and
    /// gives status -1, so that a hang fails its test instead of the whole run.
    public static func run(
        _ arguments: [String], product: String = "vigil", in directory: URL? = nil, stdin: URL? = nil, timeout: Double? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable(named: product)
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
        let input = try stdin.map { try FileHandle(forReadingFrom: $0) }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                return Result(status: -1, stdout: "", stderr: "timed out after \(timeout) s")
            }
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        try input?.close()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
