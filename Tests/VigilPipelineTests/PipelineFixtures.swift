import Foundation
import NIOConcurrencyHelpers
import VigilAnalysis
import VigilCore
import VigilTestSupport

@testable import VigilPipeline

/// Inputs and helpers shared by the pipeline tests. Paths are relative to the package root
/// (`swift test` runs there).
enum PipelineFixtures {
    static let deviceFile = "Samples/front-door.json"
    static let demoScene = "Samples/demo-scene.flac"
    static let demoFrames = "Samples/demo-frames"

    /// The directory of the golden outputs (recorded with the `vigil` binary before the pipeline
    /// moved into this library; see docs/architecture.md).
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func golden(_ name: String) throws -> String {
        try String(contentsOf: goldenDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    /// The FNV-1a 64 hash (hex) of a PNG listed in `Golden/png-fnv1a.tsv`.
    static func goldenPNGHash(_ name: String) throws -> String? {
        for line in try golden("png-fnv1a.tsv").split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count == 2 && fields[0] == name { return fields[1] }
        }
        return nil
    }

    static func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A fresh temporary directory, removed when the test process exits.
    static func temporaryDirectory() throws -> URL { try TestProcesses.temporaryDirectory(prefix: "vigil-pipeline") }

    /// A file handle writing to a new file `name` in `dir`.
    static func outputHandle(_ dir: URL, _ name: String) throws -> (FileHandle, URL) {
        let url = dir.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        return (try FileHandle(forWritingTo: url), url)
    }

    /// The analysis plan of `vigil analyze --device FILE` (default sensitivities, shipped models).
    static func plan(device: String = deviceFile, explain: Bool = false) throws -> (LoadedDevice, AnalysisPlan) {
        let loaded = try LoadedDevice.load(path: device)
        return (loaded, AnalysisPlan(policy: loaded.policy, settings: loaded.settings, explain: explain))
    }

    /// The y4m clip of ``TestSignals/movingSquareY4M(seconds:)``.
    static func movingSquareY4M(seconds: Double) -> Data { TestSignals.movingSquareY4M(seconds: seconds) }
}

/// Keeps what it receives (tests of the run).
final class CollectingSink: EventSink, @unchecked Sendable {
    var records: [OutputRecord] = []
    var finished: [FinishedRecording] = []
    var finishCalls = 0
    func receive(_ records: [OutputRecord]) { self.records += records }
    func recordingFinished(_ recording: FinishedRecording) throws { finished.append(recording) }
    func finish() throws { finishCalls += 1 }
}

/// Collects the run's stderr lines.
final class MessageLog: Sendable {
    private let stored = NIOLockedValueBox<[String]>([])
    var lines: [String] { stored.withLockedValue { $0 } }
    func append(_ line: String) { stored.withLockedValue { $0.append(line) } }
}
