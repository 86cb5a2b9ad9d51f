import Foundation
import Testing
import VigilTestSupport

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

    @Test("a port in use is a clear error naming the address and the way out, not the socket call's text")
    func portInUseIsAClearError() throws {
        // Hold a port with a listening socket of our own.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try CommandRunner.run([
            "live", "Samples/scenarios/knocks.json", "--speed", "0", "--listen", "127.0.0.1:\(port)",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use"), "\(result.stderr)")
        #expect(result.stderr.contains("--listen"), "\(result.stderr)")
        #expect(!result.stderr.contains("errno"), "\(result.stderr)")
    }

    @Test func refusesNonLoopbackWithoutToken() throws {
        let result = try CommandRunner.run(["live", "Samples/scenarios/knocks.json", "--listen", "0.0.0.0:0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--token-file"))
    }

    @Test func helpShowsTheAPIAndACurlSession() throws {
        let help = try CommandRunner.run(["live", "--help"])
        #expect(help.status == 0)
        for text in [
            "GET  /events", "POST /zones", "--token-file", "curl -N localhost:8787/events", "--speed", "--loop", "y4m", "eventStarted",
        ] {
            #expect(help.stdout.contains(text), "missing \(text)")
        }
    }

    /// The y4m clip of ``TestSignals/movingSquareY4M(seconds:)``.
    static func movingSquareY4M(seconds: Double) -> Data { TestSignals.movingSquareY4M(seconds: seconds) }

    /// y4m frames on stdin (no --rate): motion in the porch zone is announced and reported.
    @Test(arguments: [true, false])
    func streamsY4MVideo(fromStdin: Bool) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let y4m = dir.appendingPathComponent("porch.y4m")
        try Self.movingSquareY4M(seconds: 6).write(to: y4m)
        let options = ["--device", "Samples/front-door.json", "--listen", "127.0.0.1:0"]
        let result =
            fromStdin
            ? try CommandRunner.run(["live", "-"] + options, stdin: y4m)
            : try CommandRunner.run(["live", y4m.path, "--speed", "0"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        let name = fromStdin ? "stdin" : y4m.path
        #expect(lines.allSatisfy { $0.contains(#""file":"\#(name)""#) })
        let started = lines.filter { $0.contains(#""type":"eventStarted""#) }
        #expect(
            started.count == 1 && started.first?.contains(#""trigger":"motion""#) == true && started.first?.contains(#""zone":1"#) == true)
        #expect(lines.contains { $0.contains(#""type":"zoneTriggered""#) && $0.contains(#""zone":1"#) })
        #expect(lines.filter { $0.contains(#""type":"event""#) && $0.contains(#""zone":1"#) }.count == 1)
        #expect(lines.last?.contains(#""type":"end""#) == true)
    }

    @Test func notY4MOnStdinWithoutRateIsRefusedClearly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pcm = dir.appendingPathComponent("in.pcm")
        try Data(repeating: 0, count: 8000).write(to: pcm)  // PCM, no header line
        let result = try CommandRunner.run(["live", "-", "--listen", "127.0.0.1:0"], stdin: pcm)
        #expect(result.status == 2)
        #expect(result.stderr.contains("YUV4MPEG2") && result.stderr.contains("--rate"), "\(result.stderr)")
    }

    @Test func y4mOnStdinWithRateIsRefusedClearly() throws {
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
