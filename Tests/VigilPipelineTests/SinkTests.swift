import Foundation
import Testing
import VigilAnalysis
import VigilCore
import VigilLive

@testable import VigilPipeline

/// Each sink on records of a real analysis (the demo scene).
@Suite struct SinkTests {
    /// The records `vigil analyze` gives for the demo scene, and its finished recording.
    static func demoRecords() throws -> (records: [OutputRecord], finished: FinishedRecording) {
        let (loaded, plan) = try PipelineFixtures.plan()
        let collected = CollectingSink()
        let run = AnalysisRun(sinks: [collected], messages: { _ in })
        let batch = BatchAnalysis(plan: plan, jobs: 1, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(
            InputDiscovery.expand([PipelineFixtures.demoScene]).recordings, with: batch,
            progress: ProgressBar(totalSeconds: 0, totalItems: 1, enabled: false))
        return (collected.records, try #require(collected.finished.first))
    }

    @Test func jsonLinesWritesEachRecordOnItsOwnLineAtOnce() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (records, _) = try Self.demoRecords()
        #expect(records.count == 5)
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "out.jsonl")
        let sink = JSONLinesSink(handle: handle)
        sink.receive(Array(records.prefix(2)))
        // Streamed: the first records are in the file before the run finishes.
        #expect(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").count == 2)
        sink.receive(Array(records.dropFirst(2)))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == records.map(\.line))
        #expect(try lines.map { try JSONValue.parse($0) } == records.map(\.json))
    }

    @Test func tsvListsOnlyEvents() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (records, _) = try Self.demoRecords()
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "out.tsv")
        let notEvent = OutputRecord(RecordEncoder.json(AnalysisRecord(file: "x.wav", content: .warning("short"))))
        TSVSink(handle: handle).receive(records + [notEvent])
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t") }
        let events = records.filter { $0.json["type"]?.stringValue == "event" }
        #expect(rows.count == events.count && rows.allSatisfy { $0.count == 4 && $0[0] == "Samples/demo-scene.flac" })
        #expect(rows.map { String($0[3]) } == events.compactMap { $0.json["trigger"]?.stringValue })
    }

    @Test func tableIsPrintedOnceWhenTheRunFinishes() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (records, _) = try Self.demoRecords()
        let (handle, url) = try PipelineFixtures.outputHandle(dir, "table.txt")
        let sink = TableSink(handle: handle)
        sink.receive(records)
        #expect(try Data(contentsOf: url).isEmpty)
        try sink.finish()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("FILE") && text.contains("smokeAlarm"))
        let eventCount = records.filter { $0.json["type"]?.stringValue == "event" }.count
        #expect(text.split(separator: "\n").count == 1 + eventCount)
    }

    @Test func outputFolderWritesEachRecordingAndTheSummary() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, finished) = try Self.demoRecords()
        let sink = OutputFolderSink(directory: dir.path)
        try sink.recordingFinished(finished)
        var resumed = finished
        resumed.recording = InputRecording(path: "elsewhere.flac", displayName: "elsewhere.flac")
        resumed.summary.file = "elsewhere.flac"
        resumed.resumed = true
        try sink.recordingFinished(resumed)
        try sink.finish()
        let folder = dir.appendingPathComponent("demo-scene.flac")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
                == PipelineFixtures.golden("demo-scene.jsonl"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("done.json").path))
        // A resumed recording is not written again, but counts in the summary.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("elsewhere.flac").path))
        let summary = try JSONValue.parse(try Data(contentsOf: dir.appendingPathComponent("summary.json")))
        #expect(summary["files"]?.arrayValue?.count == 2)
    }

    @Test func outputFolderThatCannotBeWrittenNamesThePath() throws {
        let dir = try PipelineFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, finished) = try Self.demoRecords()
        let blocked = dir.appendingPathComponent("file-not-dir")
        try Data("x".utf8).write(to: blocked)
        let sink = OutputFolderSink(directory: blocked.path)
        let error = #expect(throws: RecordingOutputWriter.WriteError.self) { try sink.recordingFinished(finished) }
        #expect(error?.description.contains(blocked.path) == true)
    }

    @Test func eventHubSinkPublishesStampedRecordsAndClosesTheHub() throws {
        let hub = EventHub(metrics: LiveMetrics())
        let sink = EventHubSink(hub: hub)
        let json = RecordEncoder.json(AnalysisRecord(file: "live", content: .warning("w")))
        sink.receive([
            OutputRecord(json: json, line: json.serialized(.compact), stamp: StreamStamp(sequence: 1, type: "warning", emittedAt: 0.5)),
            OutputRecord(json),  // unstamped (batch): not a stream record
        ])
        #expect(hub.recentRecords.map(\.sequence) == [1])
        #expect(hub.recentRecords.first?.line == json.serialized(.compact))
        sink.finish()
        #expect(hub.isClosed)
    }

    /// Every sink of a run gets the same records in the same order, and `finish` once.
    @Test func runHandsEverySinkTheSameRecords() throws {
        let (loaded, plan) = try PipelineFixtures.plan()
        let first = CollectingSink(), second = CollectingSink()
        let run = AnalysisRun(sinks: [first, second], messages: { _ in })
        let batch = BatchAnalysis(plan: plan, jobs: 2, runFingerprint: BatchAnalysis.runFingerprint(device: loaded.device, plan: plan))
        run.analyze(
            InputDiscovery.expand([PipelineFixtures.demoScene, PipelineFixtures.demoScene]).recordings, with: batch,
            progress: ProgressBar(totalSeconds: 0, totalItems: 2, enabled: false))
        run.finish()
        #expect(first.records.count == 10 && first.records == second.records)
        #expect(first.finished.map(\.recording) == second.finished.map(\.recording) && first.finishCalls == 1 && second.finishCalls == 1)
    }
}
