import Foundation
import Testing
import VigilCore
import VigilTestSupport

/// `Samples/front-door.json` with recording mode number `mode` selected (0 cvr, 1 ebr, 2 etr, 3 images).
private func frontDoor(mode: Int, in dir: URL) throws -> URL {
    let text = try String(contentsOf: sample("front-door.json"), encoding: .utf8)
    let device = dir.appendingPathComponent("front-door-\(mode).json")
    try Data(text.replacingOccurrences(of: "\"selectedRecordingMode\": 1", with: "\"selectedRecordingMode\": \(mode)").utf8).write(
        to: device)
    return device
}

private func sample(_ name: String) -> URL { CommandRunner.packageRoot.appendingPathComponent("Samples").appendingPathComponent(name) }

/// The snapshots folder written under `out`, wherever the output layout puts it.
private func snapshotDirectory(under out: URL) throws -> URL {
    let found = FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String }.first { $0.hasSuffix("snapshots") }
    return out.appendingPathComponent(try #require(found, "no snapshots folder under \(out.path)"))
}

/// Runs `vigil analyze` with `--format jsonl --explain --out out` and returns the records and the
/// recording's mediaSeconds from summary.json.
private func analyze(_ arguments: [String], out: URL) throws -> (records: [JSONValue], mediaSeconds: Double) {
    let result = try CommandRunner.run(["analyze"] + arguments + ["--format", "jsonl", "--explain", "--out", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try JSONValue.parse(String(decoding: try Data(contentsOf: out.appendingPathComponent("summary.json")), as: UTF8.self))
    return (try parseLines(result), try #require(summary["mediaSeconds"]?.doubleValue))
}

private func of(_ records: [JSONValue], type: String) -> [JSONValue] { records.filter { $0["type"]?.stringValue == type } }

@Suite("Nothing ends after the media; safety alarms keep their clip", .serialized)
struct MediaEndTests {
    @Test("ebr and etr: a clip ends with the last sample of the recording; so does a cvr range", arguments: [0, 1, 2])
    func audioClipsEndWithTheFile(mode: Int) throws {
        // 8 s of quiet noise with a loud burst at 5 s: an ebr clip (10 s from the trigger) or an
        // etr clip (10 s from the start minus pre-roll) would run to 11 s or more.
        let dir = try temporaryDirectory()
        let scenario = dir.appendingPathComponent("burst.json")
        try Data(
            """
            {"sampleRate": 16000, "duration": 8, "seed": 3, "background": {"noise": {"level": -60, "colour": "pink"}},
             "items": [{"type": "noise", "start": 5.0, "duration": 0.3, "level": -15}]}
            """.utf8
        ).write(to: scenario)
        let audio = dir.appendingPathComponent("burst.wav")
        let synth = try CommandRunner.run(["synth", scenario.path, "--out", audio.path])
        #expect(synth.status == 0, "\(synth.stderr)")
        let (records, seconds) = try analyze(
            [audio.path, "--device", try frontDoor(mode: mode, in: dir).path], out: dir.appendingPathComponent("out"))
        #expect(seconds == 8)
        let events = of(records, type: "event")
        #expect(!events.isEmpty, "\(records)")
        for event in events {
            #expect((event["end"]?.doubleValue ?? .infinity) <= seconds, "\(event)")
            let clip = try #require(event["clip"])
            #expect(clip["end"]?.doubleValue == (mode == 0 ? event["end"]?.doubleValue : seconds), "\(event) on \(seconds) s")
        }
    }

    @Test("3 s of frames with 35 s of audio: motion, its zone and every snapshot end with the video; later sounds have no snapshot")
    func framesShorterThanAudio() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("out")
        let (records, seconds) = try analyze(
            [
                "--frames", "Samples/demo-frames", "--fps", "10", "--audio", "Samples/demo-scene.flac", "--device",
                try frontDoor(mode: 3, in: dir).path,
            ],
            out: out)
        let videoEnd = 3.0  // 30 frames at 10 fps
        #expect(seconds > 30)
        let events = of(records, type: "event")
        let motion = try #require(events.first { $0["trigger"]?.stringValue == "motion" })
        #expect(motion["end"]?.doubleValue == videoEnd, "\(motion)")
        let stops = of(records, type: "zoneStopped")
        #expect(stops.count == 1)
        #expect(stops.allSatisfy { $0["time"]?.doubleValue == videoEnd && $0["reason"]?.stringValue == "actionStopped" }, "\(stops)")
        var snapshotIndices: [Int] = []
        for event in events {
            let detectedAt = try #require(event["detectedAt"]?.doubleValue)
            if let snapshot = event["snapshot"] {
                #expect((snapshot["time"]?.doubleValue ?? .infinity) <= videoEnd, "\(event)")
                snapshotIndices.append(try #require(snapshot["index"]?.intValue))
            } else {
                #expect(detectedAt > videoEnd, "an event during the video lost its snapshot: \(event)")
                #expect(
                    of(records, type: "suppressed").contains {
                        $0["time"]?.doubleValue == detectedAt && $0["scope"]?.stringValue == "snapshot"
                            && $0["rule"]?.stringValue == "video.ended"
                    }, "no --explain record for \(event)")
            }
        }
        #expect(events.contains { $0["snapshot"] == nil }, "the demo's later sounds come after the video")
        #expect(snapshotIndices == Array(1...snapshotIndices.count))
        let snapshots = try snapshotDirectory(under: out)
        let files = try FileManager.default.contentsOfDirectory(atPath: snapshots.path).sorted()
        #expect(files == snapshotIndices.map { "\($0).png" }.sorted())
    }

    @Test("a sound's snapshot shows the frame on screen at its time (the latest frame at or before it)")
    func soundSnapshotFrame() throws {
        // At 6.5 fps the sound detected at 3.000 s falls between frame 19 (2.923 s) and frame 20 (3.077 s).
        let dir = try temporaryDirectory()
        let device = try frontDoor(mode: 3, in: dir).path
        let firstTwenty = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: firstTwenty, withIntermediateDirectories: true)
        for index in 0..<20 {
            let name = String(format: "frame-%03d.png", index)
            try FileManager.default.copyItem(
                at: sample("demo-frames").appendingPathComponent(name), to: firstTwenty.appendingPathComponent(name))
        }
        func soundSnapshot(_ frames: String, _ out: URL) throws -> Data {
            let (records, _) = try analyze(
                ["--frames", frames, "--fps", "6.5", "--audio", "Samples/demo-scene.flac", "--device", device], out: out)
            let sound = try #require(
                of(records, type: "event").first { $0["trigger"]?.stringValue == "sound" && $0["detectedAt"]?.doubleValue == 3 })
            let index = try #require(sound["snapshot"]?["index"]?.intValue)
            return try Data(contentsOf: try snapshotDirectory(under: out).appendingPathComponent("\(index).png"))
        }
        // With only frames 0...19 the video ends at 3.077 s and frame 19 is the only candidate.
        #expect(
            try soundSnapshot("Samples/demo-frames", dir.appendingPathComponent("all"))
                == soundSnapshot(firstTwenty.path, dir.appendingPathComponent("twenty")))
    }

    @Test(
        "ebr: a smoke alarm in the clip's blind period still gets its clip; the generic sound of its beeps is subsumed from its confirmation on"
    )
    func smokeAlarmKeepsItsClip() throws {
        let dir = try temporaryDirectory()
        let (records, seconds) = try analyze(
            ["Samples/demo-scene.flac", "--device", "Samples/front-door.json"], out: dir.appendingPathComponent("out"))
        let events = of(records, type: "event")
        let alarm = try #require(events.first { $0["trigger"]?.stringValue == "smokeAlarm" })
        let clip = try #require(alarm["clip"], "the smoke alarm lost its clip: \(alarm)")
        #expect((clip["end"]?.doubleValue ?? .infinity) <= seconds)
        let suppressed = of(records, type: "suppressed")
        #expect(!suppressed.contains { $0["trigger"]?.stringValue == "smokeAlarm" }, "\(suppressed)")
        let (alarmStart, alarmEnd, confirmed) = (
            alarm["start"]!.doubleValue!, alarm["end"]!.doubleValue!, alarm["detectedAt"]!.doubleValue!
        )
        for sound in events where sound["trigger"]?.stringValue == "sound" {
            let overlaps = sound["end"]!.doubleValue! >= alarmStart && sound["start"]!.doubleValue! <= alarmEnd
            #expect(!(overlaps && sound["detectedAt"]!.doubleValue! >= confirmed), "a sound of the alarm's beeps was reported: \(sound)")
        }
        let subsumed = suppressed.filter { $0["rule"]?.stringValue == "safetyAlarm.subsumesSound" }
        #expect(subsumed.count == 2, "\(suppressed)")
        #expect(
            subsumed.allSatisfy {
                $0["trigger"]?.stringValue == "sound" && ($0["reason"]?.stringValue ?? "").contains("smokeAlarm event #")
            })
    }
}
