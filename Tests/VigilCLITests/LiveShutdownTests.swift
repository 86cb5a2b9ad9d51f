import Foundation
import Testing
import VigilTestSupport

/// `vigil live` shuts down gracefully on SIGTERM and SIGINT: the pacer stops, the session
/// flushes the records still pending (events whose clip had not closed) and the "end" record,
/// and the process exits 0.
@Suite struct LiveShutdownTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func signalFlushesPendingEventsAndExitsZero(signal: Int32) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = CommandRunner.executable
        // Looped at twice real time: the source never ends by itself.
        process.arguments = [
            "live", "Samples/demo-scene.flac", "--loop", "--speed", "2", "--device", "Samples/front-door.json", "--listen", "127.0.0.1:0",
        ]
        process.currentDirectoryURL = CommandRunner.packageRoot
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Wait for the first sound to be announced (media 3 s); its final event waits for its ebr clip (0-18 s).
        func stdout() -> String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
        var waited = 0.0
        while !stdout().contains(#""type":"eventStarted""#) && waited < 60 && process.isRunning {
            Thread.sleep(forTimeInterval: 0.1)
            waited += 0.1
        }
        let before = stdout().split(separator: "\n")
        #expect(before.contains { $0.contains(#""type":"eventStarted""#) }, "no eventStarted before the signal")
        #expect(!before.contains { $0.contains(#""type":"event""#) }, "the event was final before the signal; the test shows nothing")
        kill(process.processIdentifier, signal)
        waited = 0
        while process.isRunning && waited < 30 {
            Thread.sleep(forTimeInterval: 0.1)
            waited += 0.1
        }
        #expect(!process.isRunning, "still running 30 s after the signal")
        guard !process.isRunning else { return }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = stdout().split(separator: "\n").map(String.init)
        #expect(lines.last?.contains(#""type":"end""#) == true, "\(lines.last ?? "")")
        // Every announced event was flushed as a final event with the same id.
        let startedIDs = lines.filter { $0.contains(#""type":"eventStarted""#) }.compactMap { Self.id(in: $0) }
        let finalIDs = Set(lines.filter { $0.contains(#""type":"event""#) }.compactMap { Self.id(in: $0) })
        #expect(!startedIDs.isEmpty && startedIDs.allSatisfy { finalIDs.contains($0) }, "\(lines)")
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        #expect(!stderr.contains("error"), "\(stderr)")
    }

    static func id(in line: String) -> Int? {
        guard let range = line.range(of: #""id":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
