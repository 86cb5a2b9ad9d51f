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

@Suite("Event stream: SSE, WebSocket, live control, fan-out")
struct StreamTests {
    /// Events over SSE (router test): a finished stream delivers every record, in order.
    @Test func sseStreamCarriesEventsInOrder() async throws {
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0, enabled: [.sound]))
        let renderer = try ScenarioRenderer(scenario: try LiveTestSupport.scenario("knocks.json"))
        let runner = LiveRunner(session: stack.session, source: ScenarioSource(renderer: renderer), options: .init(speed: 0))
        try await stack.server.withTestClient { client in
            runner.start()
            let response = try await client.execute(uri: "/events?after=0", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream")
            let messages = LiveTestSupport.sseMessages(String(buffer: response.body))
            let sequence = messages.compactMap { $0.json["seq"]?.intValue }
            #expect(sequence == Array(1...sequence.count))
            #expect(messages.last?.event == "end")
            let events = messages.filter { $0.event == "event" }
            #expect(events.count == 6)
            for event in events {
                #expect(event.json["type"]?.stringValue == "event")
                #expect(event.json["v"]?.intValue == 1)
                #expect(event.json["file"]?.stringValue == "test")
                #expect(event.json["clip"]?["kind"]?.stringValue == "range")
            }
        }
        await runner.wait()
    }

    /// Control changes take effect from the next block and show in the stream: disabling `sound`
    /// mid-stream stops its events; enabling it again brings them back.
    @Test func triggerDisabledMidStreamStopsItsEvents() async throws {
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0, enabled: [.sound]))
        let feeder = Feeder(renderer: try ScenarioRenderer(scenario: try LiveTestSupport.scenario("knocks.json")), session: stack.session)
        try await stack.server.withTestClient { client in
            feeder.feed(until: 6.0)  // bursts at 1.5 and 4.0 s are reported
            let off = try await client.execute(
                uri: "/event-detection-triggers", method: .post,
                body: LiveTestSupport.body(#"[{"eventTriggerType":"sound","enablementStatus":"disabled"}]"#))
            #expect(off.status == .ok)
            feeder.feed(until: 12.0)  // tone at 7 s, burst at 10.25 s: not reported
            let on = try await client.execute(
                uri: "/event-detection-triggers", method: .post,
                body: LiveTestSupport.body(#"[{"eventTriggerType":"sound","enablementStatus":"enabled"}]"#))
            #expect(on.status == .ok)
            feeder.feed(until: 20.0)
            stack.session.finish()
            let body = String(buffer: try await client.execute(uri: "/events?after=0", method: .get).body)
            let messages = LiveTestSupport.sseMessages(body)
            let changes = messages.filter { $0.event == "deviceChanged" }
            #expect(changes.count == 2)
            #expect(changes.first?.json["command"]?.stringValue == "setOrUpdateEventDetectionTriggers")
            let offAt = changes[0].json["time"]?.doubleValue ?? 0
            let onAt = changes[1].json["time"]?.doubleValue ?? 0
            #expect(abs(offAt - 6.0) < 0.02 && abs(onAt - 12.0) < 0.02)
            let starts = messages.filter { $0.event == "event" }.compactMap { $0.json["start"]?.doubleValue }
            #expect(starts.count == 4, "\(starts)")
            #expect(starts.filter { $0 > 6 && $0 < 12 }.isEmpty, "\(starts)")
            #expect(starts.contains { abs($0 - 13.0) < 0.1 } && starts.contains { abs($0 - 16.0) < 0.1 }, "\(starts)")
            // Event IDs keep counting across the engine restarts.
            let ids = messages.filter { $0.event == "event" }.compactMap { $0.json["id"]?.intValue }
            #expect(ids == [1, 2, 3, 4])
        }
    }

    /// A scenario streamed at speed 20 to a real SSE client over TCP: the events match the
    /// scenario's labels (sound bursts; alarms too when this build has the alarm detectors).
    @Test(arguments: ["knocks.json", "alarms.json"])
    func scenarioAtSpeed20MatchesLabels(_ name: String) async throws {
        let scenario = try LiveTestSupport.scenario(name)
        let available = Set(DetectorRegistry.availableSoundTriggers)
        let checked = Set(scenario.labels().map(\.label)).filter { EventTriggerType(rawValue: $0).map(available.contains) ?? false }
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0), name: name)
        let runner = LiveRunner(
            session: stack.session, source: ScenarioSource(renderer: try ScenarioRenderer(scenario: scenario), name: name),
            options: .init(speed: 20))
        let started = LiveClock.now()
        let messages = try await stack.server.withTestClient { testClient in
            let client = SSEClient(port: testClient.port, responseTimeout: LiveTestSupport.sseResponseTimeout)
            try await LiveTestSupport.onThread { try client.connect() }  // blocking: off the concurrency pool
            runner.start()
            return try await LiveTestSupport.onThread {
                var all: [SSEClient.Message] = []
                while let message = try client.next() { all.append(message) }
                return all
            }
        }
        let elapsed = LiveClock.now() - started
        #expect(elapsed >= scenario.duration / 20 * 0.9, "paced at 20x: \(elapsed) s")
        #expect(messages.last?.event == "end")
        let events = messages.filter { $0.event == "event" }.compactMap { try? JSONValue.parse($0.data) }
        for label in checked {
            let expected = scenario.labels().filter { $0.label == label }
            let got = events.filter { $0["trigger"]?.stringValue == label }
            if label == "sound" {
                // The sound detector reports every labelled sound once, starting at its onset.
                #expect(got.count == expected.count, "\(name): \(got.count) sound events for \(expected.count) labels")
                for l in expected {
                    #expect(got.contains { abs(($0["start"]?.doubleValue ?? -9) - l.onset) < 0.1 }, "\(name): no event at \(l.onset)")
                }
            } else {
                // Alarm events lie within their labels.
                for l in expected {
                    #expect(
                        got.contains { ($0["start"]?.doubleValue ?? -9) >= l.onset - 0.5 && ($0["start"]?.doubleValue ?? 1e9) <= l.offset })
                }
                #expect(got.count == expected.count)
            }
        }
        if name == "knocks.json" { #expect(checked == ["sound"]) }
    }

    /// The WebSocket carries the same records as one text message each.
    @Test func webSocketCarriesRecords() async throws {
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor(mode: 0, enabled: [.sound]))
        let runner = LiveRunner(
            session: stack.session,
            source: ScenarioSource(renderer: try ScenarioRenderer(scenario: try LiveTestSupport.scenario("knocks.json"))),
            options: .init(speed: 0))
        // Through the live server on real TCP, with a raw WebSocket client.
        let texts = try await stack.server.withTestClient { testClient in
            let port = testClient.port
            let client = try await LiveTestSupport.onThread { try WebSocketTestClient(port: port, path: "/events?after=0") }
            #expect(client.status.contains("101"))
            // The server subscribes the socket after it has sent the 101: wait for it, or a
            // fast (speed 0) run may end before the client is counted.
            for _ in 0..<1000 where stack.hub.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(stack.hub.subscriberCount == 1)
            runner.start()
            return try await LiveTestSupport.onThread {
                var all: [String] = []
                while let text = client.nextText() { all.append(text) }
                return all
            }
        }
        let records = texts.compactMap { try? JSONValue.parse($0) }
        #expect(records.filter { $0["type"]?.stringValue == "event" }.count == 6)
        #expect(records.last?["type"]?.stringValue == "end")
        #expect(stack.metrics.prometheusText().contains(#"vigil_live_clients_total{transport="websocket"} 1"#))
    }

    /// A client that does not read is dropped and counted; publishing never waits for it.
    @Test func stuckClientIsDroppedAndCounted() async throws {
        let stack = LiveTestSupport.stack(device: .default, clientBuffer: 8)
        try await stack.server.withTestClient { testClient in
            let stuck = SSEClient(port: testClient.port, responseTimeout: LiveTestSupport.sseResponseTimeout)
            try await LiveTestSupport.onThread { try stuck.connect(receiveBufferSize: 4096) }  // reads the head, then never reads again
            // Waits until the server has registered the client (at most 30 s on a loaded machine).
            var waited = 0
            while stack.hub.subscriberCount == 0 && waited < 3000 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(stack.hub.subscriberCount == 1)
            let payload = String(repeating: "x", count: 4000)
            var published = 0
            while stack.metrics.droppedClients == 0 && published < 50_000 {
                published += 1
                stack.hub.publish(LiveRecord(sequence: UInt64(published), type: "warning", emittedAt: 0, line: #"{"pad":"\#(payload)"}"#))
                if published % 500 == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
            // Dropped once its buffer and the socket's filled up, whatever the machine's speed:
            // the loop above stops at 50,000 records when the client is never dropped.
            #expect(stack.metrics.droppedClients == 1, "published \(published)")
            #expect(stack.hub.subscriberCount == 0)
            #expect(stack.metrics.prometheusText().contains("vigil_live_dropped_clients_total 1"))
            stuck.close()
        }
    }

    /// Heartbeats reach clients as SSE comments and are neither retained nor counted.
    @Test func heartbeatsAreCommentsOnly() async throws {
        let metrics = LiveMetrics()
        let hub = EventHub(metrics: metrics)
        let client = hub.subscribe(kind: "sse")
        hub.heartbeat()
        hub.publish(LiveRecord(sequence: 1, type: "warning", emittedAt: 0, line: "{}"))
        hub.close()
        var frames: [String] = []
        for await record in client.records { frames.append(record.sseFrame) }
        #expect(frames == [": heartbeat\n\n", "id: 1\nevent: warning\ndata: {}\n\n"])
        #expect(hub.recentRecords.map(\.sequence) == [1])
        #expect(metrics.prometheusText().contains(#"vigil_live_records_total{type="warning"} 1"#))
        #expect(!metrics.prometheusText().contains("heartbeat"))
    }

    /// Hub queues are bounded: a non-reading subscriber holds at most its buffer, history is a ring.
    @Test func hubQueuesAreBounded() async throws {
        let metrics = LiveMetrics()
        let hub = EventHub(clientBufferCapacity: 4, historyCapacity: 16, metrics: metrics)
        let slow = hub.subscribe(kind: "sse")
        for i in 1...1000 { hub.publish(LiveRecord(sequence: UInt64(i), type: "warning", emittedAt: 0, line: "{}")) }
        #expect(slow.wasDropped)
        #expect(metrics.droppedClients == 1)
        var received: [UInt64] = []
        for await record in slow.records { received.append(record.sequence) }
        #expect(received == [1, 2, 3, 4])
        #expect(hub.recentRecords.map(\.sequence) == Array(985...1000))
        // A late joiner resuming after 990 gets the retained records after it.
        let late = hub.subscribe(kind: "sse", after: 990)
        hub.close()
        var replay: [UInt64] = []
        for await record in late.records { replay.append(record.sequence) }
        #expect(replay == [997, 998, 999, 1000])  // the most recent, at most its buffer capacity
        #expect(metrics.connectedClients == 0)
    }
}

/// Feeds a session from a renderer in 10 ms blocks up to a media time (test helper).
final class Feeder: @unchecked Sendable {
    var renderer: ScenarioRenderer
    let session: LiveSession
    /// Every record the session published while fed, in order.
    private(set) var published: [LiveRecord] = []

    init(renderer: ScenarioRenderer, session: LiveSession) {
        self.renderer = renderer
        self.session = session
    }

    func feed(until time: Double) {
        let rate = Double(renderer.scenario.sampleRate)
        while renderer.time < time - 1e-9 {
            // At least one sample: a remainder under half a sample would otherwise round to none, forever.
            let samples = max(1, min(Int(rate / 100), Int(((time - renderer.time) * rate).rounded())))
            published += session.process(renderer.next(maxSamples: samples))
        }
    }
}
