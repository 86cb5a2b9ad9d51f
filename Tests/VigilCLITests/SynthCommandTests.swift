import Foundation
import Testing
import VigilAudioIO
import VigilTestSupport

@Suite("vigil synth")
struct SynthCommandTests {
    @Test func rendersAudioAndLabelsDeterministically() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = CommandRunner.packageRoot.appendingPathComponent("Samples/scenarios/alarms.json").path
        var outputs: [Data] = []
        for run in 0..<2 {
            let wav = dir.appendingPathComponent("scene\(run).wav").path
            let tsv = dir.appendingPathComponent("scene\(run).tsv").path
            let result = try CommandRunner.run(["synth", scenario, "--out", wav, "--labels", tsv, "--no-progress"])
            #expect(result.status == 0, "\(result.stderr)")
            let reader = try AudioFileReader(path: wav)
            #expect(reader.sampleRate == 16_000)
            #expect(abs(reader.declaredDuration - 45) < 0.001)
            let labels = try String(contentsOfFile: tsv, encoding: .utf8).split(separator: "\n")
            #expect(labels.count == 2)
            #expect(labels[0].hasPrefix("scene\(run).wav\t3.000\t"))
            #expect(labels[0].hasSuffix("\tsmokeAlarm"))
            #expect(labels[1].hasSuffix("\tcoAlarm"))
            let lines = result.lines
            #expect(lines.count == 3)
            #expect(lines.last?.contains(#""type":"synth""#) == true)
            #expect(lines.first?.contains(#""type":"label""#) == true)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: wav)))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test("a device file given as the scenario is one clear error saying so, not a problem per key")
    func deviceFileIsNotAScenario() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.run(["synth", "Samples/front-door.json", "--out", dir.appendingPathComponent("x.wav").path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Samples/front-door.json"), "\(result.stderr)")
        #expect(result.stderr.contains("this is a device file"), "\(result.stderr)")
        #expect(result.stderr.contains("--device"), "\(result.stderr)")
        #expect(!result.stderr.contains("unknown key"), "\(result.stderr)")
        #expect(result.stderr.contains("(1 problem)"), "\(result.stderr)")
    }

    @Test func scenarioErrorsNameThePath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        try Data(#"{"duration":5,"items":[{"type":"t3","start":1,"frequency":-3}]}"#.utf8).write(to: bad)
        let result = try CommandRunner.run(["synth", bad.path, "--out", dir.appendingPathComponent("x.wav").path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("items[0].frequency"))
        let help = try CommandRunner.run(["synth", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--labels"))
    }
}
