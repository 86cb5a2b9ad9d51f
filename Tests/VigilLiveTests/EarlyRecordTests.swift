import Foundation
import Hummingbird
import Testing
import VigilCore
import VigilDetectors
import VigilDevice
import VigilLive
import VigilPipeline
import VigilServerTesting
import VigilSynth
import VigilTestSupport

/// `eventStarted`: an event is announced at confirmation, over SSE, while its activity goes on.
@Suite("Early records: eventStarted at confirmation")
struct EarlyRecordTests {
    /// A 16 kHz scenario with `items` over pink noise.
    static func scenario(duration: Double, items: String) throws -> Scenario {
        try Scenario.decode(
            Array(
                #"{"sampleRate":16000,"duration":\#(duration),"seed":3,"background":{"noise":{"level":-55,"colour":"pink"}},"items":[\#(items)]}"#
                    .utf8))
    }

    static func events(_ client: TestHTTPClient) async throws -> [(event: String, json: JSONValue)] {
        let body = String(buffer: try await client.execute(uri: "/events?after=0", method: .get).body)
        return LiveTestSupport.sseMessages(body).filter { $0.event == "event" || $0.event == "eventStarted" }
    }

    /// The started record reaches a real SSE client (TCP) while the sound or the alarm still goes
    /// on: the stream is paused mid-activity and the client reads what was published so far.
    /// The final record with the same ID follows when the activity ends.
    @Test(arguments: [
        (EventTriggerType.sound, #"{"type":"noise","start":1,"duration":3,"level":-15}"#, 8.0, 2.0, 4.0),
        (EventTriggerType.smokeAlarm, #"{"type":"t3","start":1,"cycles":5,"level":-20}"#, 26.0, 13.0, 19.5),
    ])
    func startedRecordArrivesOverSSEBeforeTheActivityEnds(
        trigger: EventTriggerType, item: String, duration: Double, midway: Double, activityEnd: Double
    ) async throws {
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0, enabled: [trigger]))
        let feeder = Feeder(
            renderer: try ScenarioRenderer(scenario: try Self.scenario(duration: duration, items: item)), session: stack.session)
        try await stack.server.withTestClient { testClient in
            let client = SSEClient(port: testClient.port, responseTimeout: LiveTestSupport.sseResponseTimeout)
            try await LiveTestSupport.onThread { try client.connect() }
            /// Reads every message up to sequence number `last` (already published: never waits for more).
            func read(through last: UInt64) async throws -> [JSONValue] {
                try await LiveTestSupport.onThread {
                    var messages: [JSONValue] = []
                    while let message = try client.next() {
                        if message.event == "event" || message.event == "eventStarted", let json = try? JSONValue.parse(message.data) {
                            messages.append(json)
                        }
                        if (message.id ?? 0) >= last { break }
                    }
                    return messages
                }
            }
            feeder.feed(until: midway)
            let early = try await read(through: try #require(feeder.published.last?.sequence))
                .filter { $0["trigger"]?.stringValue == trigger.rawValue }
            #expect(early.map { $0["type"]?.stringValue } == ["eventStarted"], "\(early)")
            let started = try #require(early.first)
            let detectedAt = try #require(started["detectedAt"]?.doubleValue)
            let emittedAt = try #require(started["emittedAt"]?.doubleValue)
            // Emitted within one 10 ms block (plus half an STFT frame) of the confirmation,
            // long before the activity ends.
            #expect(emittedAt >= detectedAt && emittedAt - detectedAt <= 0.03, "\(started)")
            #expect(emittedAt < activityEnd - 1)
            #expect(started["end"] == nil)
            #expect(started["clip"]?["kind"]?.stringValue == "range" && started["clip"]?["end"] == nil)
            feeder.feed(until: duration)
            stack.session.finish()
            let rest = try await read(through: .max).filter { $0["trigger"]?.stringValue == trigger.rawValue }
            #expect(rest.map { $0["type"]?.stringValue } == ["event"])
            let final = try #require(rest.first)
            #expect(final["id"] == started["id"] && final["detectedAt"] == started["detectedAt"])
            #expect(final["start"] == started["start"])
            #expect(abs((final["end"]?.doubleValue ?? 0) - activityEnd) < 0.6, "\(final)")
            #expect((final["emittedAt"]?.doubleValue ?? 0) > activityEnd)
        }
    }

    /// A trigger disabled while its sound goes on: the event ends at the change, and nothing
    /// more of that trigger is reported until it is enabled again.
    @Test func triggerDisabledWhileASoundGoesOnEndsItsEventAndStopsTheOthers() async throws {
        let items =
            #"{"type":"noise","start":1,"duration":4,"level":-15},{"type":"noise","start":7,"duration":0.5,"level":-15},{"type":"noise","start":12,"duration":0.5,"level":-15}"#
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0, enabled: [.sound]))
        let feeder = Feeder(renderer: try ScenarioRenderer(scenario: try Self.scenario(duration: 15, items: items)), session: stack.session)
        try await stack.server.withTestClient { client in
            feeder.feed(until: 3)
            #expect(feeder.published.filter { $0.trigger == .sound }.map(\.type) == ["eventStarted"])
            let off = try await client.execute(
                uri: "/event-detection-triggers", method: .post,
                body: LiveTestSupport.body(#"[{"eventTriggerType":"sound","enablementStatus":"disabled"}]"#))
            #expect(off.status == .ok)
            feeder.feed(until: 10)
            let during = feeder.published.filter { $0.trigger == .sound }
            #expect(during.map(\.type) == ["eventStarted", "event"], "\(during.map(\.line))")
            // Cut at the change (3 s), not at the end of the sound (5 s).
            let cut = try JSONValue.parse(try #require(during.last?.line))
            #expect(abs((cut["end"]?.doubleValue ?? 0) - 3) < 0.02, "\(cut)")
            let on = try await client.execute(
                uri: "/event-detection-triggers", method: .post,
                body: LiveTestSupport.body(#"[{"eventTriggerType":"sound","enablementStatus":"enabled"}]"#))
            #expect(on.status == .ok)
            feeder.feed(until: 15)
            stack.session.finish()
            let all = try await Self.events(client)
            // The burst at 7 s (disabled) is missing; the one at 12 s is back, with the next ID.
            #expect(all.map(\.event) == ["eventStarted", "event", "eventStarted", "event"])
            #expect(abs((all[2].json["start"]?.doubleValue ?? 0) - 12) < 0.1)
            #expect(all.map { $0.json["id"]?.intValue ?? 0 } == [1, 1, 2, 2])
        }
    }

    /// A learned detector (glass break) announces its event at the decision that confirms it:
    /// the started record is published before the event ends, and the final record (same ID,
    /// start and detectedAt) follows when it does.
    @Test func learnedDetectorAnnouncesItsEventBeforeItEnds() throws {
        // Two loud white-noise bursts (an impact followed by broadband energy above 4.5 kHz) after the
        // background floor has settled (1.5 s of history).
        let items = #"{"type":"noise","start":2,"duration":0.3,"level":-14},{"type":"noise","start":5,"duration":0.3,"level":-14}"#
        // A glassBreak model trained on such bursts (the shipped one is trained to take them for noise).
        let stack = LiveTestSupport.stack(
            device: try LiveTestSupport.frontDoor(mode: 0, enabled: [.glassBreak]),
            settings: DetectorSettings(models: [.glassBreak: BurstTrainedGlassModel.model]))
        let feeder = Feeder(renderer: try ScenarioRenderer(scenario: try Self.scenario(duration: 8, items: items)), session: stack.session)
        func glass() -> [LiveRecord] { feeder.published.filter { $0.trigger == .glassBreak } }
        // Fed 10 ms at a time until the first record of the trigger.
        var time = 0.0
        while glass().isEmpty && time < 8 {
            time += 0.01
            feeder.feed(until: time)
        }
        #expect(glass().map(\.type) == ["eventStarted"], "\(glass().map(\.line))")
        let started = try JSONValue.parse(try #require(glass().first?.line))
        let detectedAt = try #require(started["detectedAt"]?.doubleValue)
        let emittedAt = try #require(started["emittedAt"]?.doubleValue)
        #expect(emittedAt >= detectedAt && emittedAt - detectedAt <= 0.03, "\(started)")
        #expect(started["end"] == nil && detectedAt < 3)
        feeder.feed(until: 8)
        stack.session.finish()
        let records = glass()
        #expect(records.map(\.type) == ["eventStarted", "event", "eventStarted", "event"], "\(records.map(\.line))")
        let lines = try records.map { try JSONValue.parse($0.line) }
        for pair in stride(from: 0, to: lines.count - 1, by: 2) {
            let (s, f) = (lines[pair], lines[pair + 1])
            #expect(f["id"] == s["id"] && f["start"] == s["start"] && f["detectedAt"] == s["detectedAt"])
            #expect((f["emittedAt"]?.doubleValue ?? 0) > (s["emittedAt"]?.doubleValue ?? 0))
            #expect((f["end"]?.doubleValue ?? 0) <= (f["emittedAt"]?.doubleValue ?? 0))
        }
    }
}
