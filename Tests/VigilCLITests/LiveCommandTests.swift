import Foundation
import Testing

@Suite("vigil live")
struct LiveCommandTests {
    @Test func streamsAScenarioAsJSONLines() throws {
        let result = try CommandRunner.run([
            "live", "Samples/scenarios/knocks.json", "--speed", "0", "--listen", "127.0.0.1:0",
            "--device", "Samples/scenarios/cvr-device.json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        // Six items, each a `sound` event (other detectors may add their own candidates).
        #expect(lines.filter { $0.contains(#""type":"event""#) && $0.contains(#""trigger":"sound""#) }.count == 6)
        #expect(lines.last?.contains(#""type":"end""#) == true)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"v":1,"type":"#) })
        #expect(result.stderr.contains("listening on http://127.0.0.1:"))
    }

    @Test func refusesNonLoopbackWithoutToken() throws {
        let result = try CommandRunner.run(["live", "Samples/scenarios/knocks.json", "--listen", "0.0.0.0:0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--token-file"))
    }

    @Test func helpShowsTheAPIAndACurlSession() throws {
        let help = try CommandRunner.run(["live", "--help"])
        #expect(help.status == 0)
        for text in ["GET  /events", "POST /zones", "--token-file", "curl -N localhost:8787/events", "--speed", "--loop"] {
            #expect(help.stdout.contains(text), "missing \(text)")
        }
    }

    @Test func y4mOnStdinIsRefusedClearly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let y4m = dir.appendingPathComponent("in.y4m")
        try Data(("YUV4MPEG2 W4 H4 F25:1 Ip A1:1 C420jpeg\nFRAME\n" + String(repeating: "\u{10}", count: 24)).utf8).write(to: y4m)
        let result = try CommandRunner.run(["live", "-", "--rate", "16000", "--listen", "127.0.0.1:0"], stdin: y4m)
        #expect(result.status == 1)
        #expect(result.stderr.contains("y4m"))
        #expect(result.lines.last?.contains(#""type":"end""#) == true)
    }

    @Test func stdinPCMIsAnalyzedAsItArrives() throws {
        // 3 s of s16le mono at 16 kHz: silence with a loud burst at 1 s.
        var bytes: [UInt8] = []
        var state: UInt32 = 1
        for i in 0..<48_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Double(Int32(bitPattern: state) >> 16) / 32768
            let x = (i >= 16_000 && i < 19_200) ? 0.3 * noise : 0.0005 * noise
            let v = Int16(max(-32768, min(32767, (x * 32767).rounded())))
            bytes.append(UInt8(truncatingIfNeeded: v))
            bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcm = dir.appendingPathComponent("in.pcm")
        try Data(bytes).write(to: pcm)
        let result = try CommandRunner.run(["live", "-", "--rate", "16000", "--listen", "127.0.0.1:0"], stdin: pcm)
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.lines.filter { $0.contains(#""type":"event""#) && $0.contains(#""trigger":"sound""#) }
        #expect(events.count == 1)
        #expect(events.first?.contains(#""file":"stdin""#) == true)
    }
}
