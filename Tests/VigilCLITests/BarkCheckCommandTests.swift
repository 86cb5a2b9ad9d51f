import Foundation
import Testing
import VigilAudioIO
import VigilCore
import VigilTestSupport

@Suite("vigil-dev bark-check")
struct BarkCheckCommandTests {
    @Test(
        "--write-scenes writes each scene and its barks; vigil bench accuracy on them finds what bark-check found",
        .enabled(if: sharedDevAvailable, "needs ../shared/data/dev (its barks and backgrounds)"))
    func writtenScenesScoreAsTheCheck() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bark-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clips = directory.appendingPathComponent("clips")
        let scenes = directory.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        // Two real bark clips of the development set, linked (never copied into the project).
        let barks = try FileManager.default.contentsOfDirectory(atPath: sharedDevDirectory.appendingPathComponent("audio").path)
            .filter { $0.hasPrefix("iso_dog_") }.sorted().prefix(2)
        #expect(barks.count == 2)
        for name in barks {
            try FileManager.default.createSymbolicLink(
                at: clips.appendingPathComponent(name), withDestinationURL: sharedDevDirectory.appendingPathComponent("audio/\(name)"))
        }
        let check = try CommandRunner.run(["bark-check", clips.path, "--write-scenes", scenes.path], product: "vigil-dev")
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("unseen barks: 2 clips, 12 barks in 4 scenes"), "\(check.stdout)")
        let found = try #require(
            check.lines.first { $0.hasPrefix("sensitivity  5:") }.flatMap { line in
                line.firstMatch(of: /TP (\d+)/).flatMap { Int($0.1) }
            }, "\(check.stdout)")

        let written = try FileManager.default.contentsOfDirectory(atPath: scenes.path).sorted()
        #expect(written.filter { $0.hasSuffix(".wav") }.count == 4 && written.contains("labels.tsv"), "\(written)")
        let labels = try String(contentsOf: scenes.appendingPathComponent("labels.tsv"), encoding: .utf8).split(separator: "\n")
        #expect(labels.count == 12 && labels.allSatisfy { $0.hasSuffix("\tdogBark") && $0.split(separator: "\t").count == 4 })
        for name in written where name.hasSuffix(".wav") {
            let reader = try AudioFileReader(path: scenes.appendingPathComponent(name).path)
            #expect(reader.sampleRate == 44_100 && Double(reader.declaredFrameCount) / 44_100 >= 10, "\(name)")
        }

        let score = try CommandRunner.run([
            "bench", "accuracy", "--labels", scenes.appendingPathComponent("labels.tsv").path, scenes.path, "--json",
        ])
        #expect(score.status == 0, "\(score.stderr)")
        let report = try JSONValue.parse(score.stdout)
        let dogBark = report["eventBased"]?["classWise"]?["dogBark"]
        #expect(dogBark?["Nref"]?.intValue == 12)
        #expect(dogBark?["Ntp"]?.intValue == found, "the written scenes score as the check's own: \(found) barks found")
    }
}
