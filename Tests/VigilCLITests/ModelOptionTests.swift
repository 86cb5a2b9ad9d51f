import Foundation
import Testing
import VigilCore
import VigilTestSupport

/// `--model LABEL=FILE` of `vigil analyze` (and `vigil live`, `vigil bench accuracy`): a model file
/// replaces the shipped model of a learned detector for the run.
@Suite("--model")
struct ModelOptionTests {
    /// The shipped model text of `label` with `old` replaced by `new` (exactly once).
    static func shippedModel(_ label: String, replacing old: String? = nil, with new: String = "") throws -> String {
        var text = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Models/\(label).json"), encoding: .utf8)
        if let old {
            let range = try #require(text.range(of: old), "\(old) not in Models/\(label).json")
            text.replaceSubrange(range, with: new)
        }
        return text
    }

    static func events(_ result: CommandRunner.Result, trigger: String) throws -> [JSONValue] {
        try parseLines(result).filter { $0["type"]?.stringValue == "event" && $0["trigger"]?.stringValue == trigger }
    }

    @Test(
        "a model file replaces the shipped model of its detector: a copy of the shipped one changes nothing, an always-sure one reports dogBark"
    )
    func replacesTheShippedModel() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("copy.json").path
        try Self.shippedModel("dogBark").write(toFile: copy, atomically: true, encoding: .utf8)
        // Base logit +30: every decision is a bark, whatever the trees say.
        let sure = dir.appendingPathComponent("sure.json").path
        let shippedLogit = try #require(try Self.shippedModel("dogBark").firstMatch(of: /"baseLogit": -?[0-9.]+/)).output
        try Self.shippedModel("dogBark", replacing: String(shippedLogit), with: #""baseLogit": 30"#).write(
            toFile: sure, atomically: true, encoding: .utf8)

        let arguments = ["analyze", "Samples/demo-scene.flac", "--format", "jsonl", "--triggers", "dogBark"]
        let plain = try CommandRunner.run(arguments)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.events(plain, trigger: "dogBark").isEmpty)
        let copied = try CommandRunner.run(arguments + ["--model", "dogBark=\(copy)"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout == plain.stdout)
        let replaced = try CommandRunner.run(arguments + ["--model", "dogBark=\(sure)"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(!(try Self.events(replaced, trigger: "dogBark")).isEmpty, "\(replaced.stdout)")
    }

    @Test("a model that cannot be used is a usage error naming the file and the reason, never a silently missing detector")
    func unusableModels() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notJSON = dir.appendingPathComponent("broken.json").path
        try "{\"format\": ".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let glass = dir.appendingPathComponent("glassBreak.json").path
        try Self.shippedModel("glassBreak").write(toFile: glass, atomically: true, encoding: .utf8)
        let oldFeatures = dir.appendingPathComponent("old.json").path
        try Self.shippedModel("dogBark", replacing: #""version": 4,"#, with: #""version": 3,"#).write(
            toFile: oldFeatures, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("nowhere.json").path
        let cases: [(String, [String])] = [
            ("dogBark=\(missing)", [missing, "cannot read file"]),
            ("dogBark=\(notJSON)", [notJSON, "not valid JSON"]),
            ("dogBark=\(glass)", [glass, "is a glassBreak model, not a dogBark model"]),
            ("dogBark=\(oldFeatures)", [oldFeatures, "sound features v3", "this build computes v4"]),
            ("smokeAlarm=\(glass)", ["smokeAlarm", "has no learned model"]),
            ("dogBark", ["expected LABEL=FILE"]),
        ]
        for (option, expected) in cases {
            let result = try CommandRunner.run(["analyze", "Samples/demo-scene.flac", "--format", "jsonl", "--model", option])
            #expect(result.status == 2, "\(option): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(option)")
            for text in expected { #expect(result.stderr.contains(text), "\(option): \(result.stderr)") }
        }
        let live = try CommandRunner.run([
            "live", "Samples/scenarios/knocks.json", "--speed", "0", "--listen", "127.0.0.1:0", "--model", "dogBark=\(glass)",
        ])
        #expect(live.status == 2, "\(live.stderr)")
        #expect(live.stderr.contains("is a glassBreak model"), "\(live.stderr)")
    }
}
