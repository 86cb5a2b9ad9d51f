import Foundation
import Hummingbird
import Testing
import VigilControl
import VigilCore
import VigilDevice
import VigilLive
import VigilServerTesting

@Suite("HTTP control and state endpoints")
struct ControlEndpointTests {
    static let square = #"{"name":"Drive","use":"motion","vertices":[{"x":0,"y":0},{"x":900,"y":0},{"x":900,"y":700},{"x":0,"y":700}]}"#

    /// Sends a request and returns (status, JSON body).
    func send(
        _ client: TestHTTPClient, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> (Int, JSONValue) {
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map(LiveTestSupport.body))
        return (Int(response.status.code), LiveTestSupport.json(response))
    }

    func expectError(
        _ result: (Int, JSONValue), _ http: Int, _ status: String, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.0 == http, "\(result.1)", sourceLocation: sourceLocation)
        #expect(result.1["status"]?.stringValue == status, "\(result.1)", sourceLocation: sourceLocation)
        #expect(result.1["reason"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        if let field { #expect(result.1["field"]?.stringValue == field, "\(result.1)", sourceLocation: sourceLocation) }
    }

    @Test("/health gives the audio rate: null for a stream whose first audio has not come, then the stream's own")
    func healthAudioRateOfAStream() async throws {
        let metrics = LiveMetrics()
        let session = LiveSession(
            audioRateLaterSourceName: "camera", video: true, device: DeviceController(device: try LiveTestSupport.frontDoor()),
            hub: EventHub(clientBufferCapacity: 16, metrics: metrics), metrics: metrics)
        let server = LiveServer(session: session, configuration: LiveServerConfiguration(host: "127.0.0.1", port: 0))
        try await server.withTestClient { client in
            let (_, before) = try await send(client, .get, "/health")
            #expect(before["audioSampleRate"] == .null, "\(before)")
            session.startAudio(sampleRate: 48_000)
            let (_, after) = try await send(client, .get, "/health")
            #expect(after["audioSampleRate"]?.doubleValue == 48_000, "\(after)")
        }
        let video = LiveSession(
            videoSourceName: "camera", device: DeviceController(device: try LiveTestSupport.frontDoor()),
            hub: EventHub(clientBufferCapacity: 16, metrics: metrics), metrics: metrics)
        try await LiveServer(session: video, configuration: LiveServerConfiguration(host: "127.0.0.1", port: 0)).withTestClient { client in
            let (_, health) = try await send(client, .get, "/health")
            #expect(health["audioSampleRate"] == nil, "a video session has no audio rate: \(health)")
        }
    }

    @Test func healthMetricsAndDevice() async throws {
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor())
        try await stack.server.withTestClient { client in
            let (status, health) = try await send(client, .get, "/health")
            #expect(status == 200)
            #expect(health["status"]?.stringValue == "ok")
            #expect(health["source"]?.stringValue == "test")
            #expect(health["audioSampleRate"]?.doubleValue == 16_000, "\(health)")
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: metrics.body)
            #expect(text.contains("# TYPE vigil_live_dropped_clients_total counter"))
            #expect(text.contains("vigil_live_media_lag_seconds"))
            let device = try await client.execute(uri: "/device", method: .get)
            #expect(device.status == .ok)
            let decoded = try DeviceFile.load(Array(String(buffer: device.body).utf8))
            #expect(decoded == stack.controller.current)
            let missing = try await client.execute(uri: "/nope", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test("a path or method no endpoint serves gets 404 with a JSON error body naming it, like the other errors")
    func unknownEndpointsGetJSONErrors() async throws {
        let stack = LiveTestSupport.stack(device: .default)
        try await stack.server.withTestClient { client in
            let missing = try await client.execute(uri: "/nope", method: .get)
            #expect(missing.headers[.contentType] == "application/json")
            let unknownPath = try await send(client, .get, "/nope")
            expectError(unknownPath, 404, "NotFound", field: "")
            #expect(unknownPath.1["reason"]?.stringValue?.contains("GET /nope") == true, "\(unknownPath.1)")
            let wrongMethod = try await send(client, .delete, "/health")
            expectError(wrongMethod, 404, "NotFound", field: "")
            #expect(wrongMethod.1["reason"]?.stringValue?.contains("DELETE /health") == true, "\(wrongMethod.1)")
            // The known endpoints are unchanged.
            #expect(try await send(client, .get, "/health").0 == 200)
        }
    }

    @Test func zoneLifecycleAndEveryZoneError() async throws {
        let stack = LiveTestSupport.stack(device: .default)
        try await stack.server.withTestClient { client in
            let created = try await send(client, .post, "/zones", Self.square)
            #expect(created.0 == 201)
            #expect(created.1["zoneID"]?.intValue == 1)
            #expect(stack.controller.current.zoneManagement.zone(id: 1)?.zone.name == "Drive")

            expectError(try await send(client, .post, "/zones", "{not json"), 400, "InvalidCommand", field: "")
            expectError(try await send(client, .post, "/zones", ""), 400, "InvalidCommand")
            expectError(try await send(client, .post, "/zones", #"{"name":"x","use":"motion"}"#), 400, "InvalidCommand", field: "vertices")
            expectError(
                try await send(
                    client, .post, "/zones", #"{"name":7,"use":"motion","vertices":[{"x":0,"y":0},{"x":9,"y":0},{"x":9,"y":9}]}"#),
                400, "InvalidCommand", field: "name")
            expectError(
                try await send(
                    client, .post, "/zones",
                    ##"{"name":"x","use":"motion","vertices":[{"x":0,"y":0},{"x":9,"y":0},{"x":9,"y":9}],"colour":"#fff"}"##),
                400, "InvalidCommand", field: "colour")
            expectError(
                try await send(
                    client, .post, "/zones",
                    #"{"zoneID":4,"name":"x","use":"motion","vertices":[{"x":0,"y":0},{"x":9,"y":0},{"x":9,"y":9}]}"#),
                400, "InvalidCommand", field: "zoneID")
            expectError(
                try await send(client, .post, "/zones", #"{"name":"x","use":"motion","vertices":[{"x":0,"y":0},{"x":9,"y":0}]}"#),
                422, "ConstraintError", field: "vertices")
            expectError(
                try await send(
                    client, .post, "/zones", #"{"name":"x","use":"motion","vertices":[{"x":0,"y":0},{"x":3000,"y":0},{"x":9,"y":9}]}"#),
                422, "DynamicConstraintError", field: "vertices[1].x")
            expectError(
                try await send(
                    client, .post, "/zones",
                    #"{"name":"bow","use":"motion","vertices":[{"x":0,"y":0},{"x":100,"y":100},{"x":100,"y":0},{"x":0,"y":100}]}"#),
                422, "DynamicConstraintError", field: "vertices")
            expectError(try await send(client, .post, "/zones", Self.square), 409, "AlreadyExists", field: "vertices")
            expectError(
                try await send(
                    client, .post, "/zones", #"{"name":"f","use":"focus","vertices":[{"x":0,"y":0},{"x":9,"y":0},{"x":9,"y":9}]}"#),
                422, "ConstraintError", field: "use")
            // Fill up to maxUserDefinedZones (8), then ResourceExhausted.
            for i in 2...8 {
                let zone = #"{"name":"z\#(i)","use":"motion","vertices":[{"x":0,"y":0},{"x":\#(i * 10),"y":0},{"x":0,"y":\#(i * 10)}]}"#
                #expect(try await send(client, .post, "/zones", zone).0 == 201)
            }
            expectError(
                try await send(
                    client, .post, "/zones", #"{"name":"full","use":"motion","vertices":[{"x":5,"y":5},{"x":500,"y":5},{"x":5,"y":500}]}"#),
                409, "ResourceExhausted")

            // Update.
            let moved = #"{"name":"Drive 2","use":["motion"],"vertices":[{"x":0,"y":0},{"x":800,"y":0},{"x":800,"y":600}]}"#
            let updated = try await send(client, .put, "/zones/1", moved)
            #expect(updated.0 == 200)
            #expect(stack.controller.current.zoneManagement.zone(id: 1)?.zone.name == "Drive 2")
            expectError(try await send(client, .put, "/zones/99", moved), 404, "NotFound", field: "zoneID")
            expectError(try await send(client, .put, "/zones/abc", moved), 400, "InvalidCommand", field: "zoneID")

            // Triggers.
            let trigger = #"{"zoneID":1,"initialDuration":10,"augmentationDuration":5,"maxDuration":30,"blindDuration":30,"sensitivity":4}"#
            let stored = try await send(client, .post, "/triggers", trigger)
            #expect(stored.0 == 200)
            #expect(stored.1["sensitivity"]?.intValue == 4)
            #expect(stack.controller.current.zoneManagement.trigger(forZone: 1)?.maxDuration == 30)
            expectError(try await send(client, .post, "/triggers", #"{"zoneID":99}"#), 404, "NotFound", field: "zoneID")
            expectError(
                try await send(client, .post, "/triggers", #"{"zoneID":1,"initialDuration":5,"augmentationDuration":6}"#), 422,
                "ConstraintError",
                field: "augmentationDuration")
            expectError(try await send(client, .post, "/triggers", #"{"zoneID":"one"}"#), 400, "InvalidCommand", field: "zoneID")
            expectError(try await send(client, .post, "/triggers", "[1]"), 400, "InvalidCommand")
            let privacy = #"{"name":"Drive 2","use":"privacy","vertices":[{"x":0,"y":0},{"x":800,"y":0},{"x":800,"y":600}]}"#
            expectError(try await send(client, .put, "/zones/1", privacy), 409, "InvalidInState", field: "use")
            expectError(try await send(client, .delete, "/zones/1"), 409, "InvalidInState", field: "zoneID")
            #expect(try await send(client, .delete, "/triggers/1").0 == 200)
            expectError(try await send(client, .delete, "/triggers/1"), 404, "NotFound", field: "zoneID")
            #expect(try await send(client, .delete, "/zones/1").0 == 200)
            expectError(try await send(client, .delete, "/zones/1"), 404, "NotFound", field: "zoneID")
            expectError(try await send(client, .delete, "/zones/70000"), 400, "InvalidCommand", field: "zoneID")
            expectError(try await send(client, .delete, "/zones/2", "{}"), 400, "InvalidCommand")
        }
    }

    @Test func eventTriggersRecordingModeTransportAudio() async throws {
        var device = Device.default
        device.eventTriggers = try EventDetectionTriggers(supported: [.sound, .smokeAlarm, .motion], enabled: [.sound, .motion])
        let stack = LiveTestSupport.stack(device: device)
        try await stack.server.withTestClient { client in
            let set = try await send(
                client, .post, "/event-detection-triggers",
                #"[{"eventTriggerType":"sound","enablementStatus":"disabled"},{"eventTriggerType":"smokeAlarm","enablementStatus":"enabled"}]"#
            )
            #expect(set.0 == 200)
            #expect(set.1["enabledEventTriggers"] == ["motion", "smokeAlarm"])
            expectError(
                try await send(
                    client, .post, "/event-detection-triggers", #"[{"eventTriggerType":"dogBark","enablementStatus":"enabled"}]"#),
                422, "ConstraintError", field: "[0]")
            expectError(
                try await send(
                    client, .post, "/event-detection-triggers", #"[{"eventTriggerType":"unicorn","enablementStatus":"enabled"}]"#),
                422, "ConstraintError", field: "[0].eventTriggerType")
            expectError(try await send(client, .post, "/event-detection-triggers", #"{"sound":true}"#), 400, "InvalidCommand", field: "")
            expectError(
                try await send(client, .post, "/event-detection-triggers", #"[{"eventTriggerType":"sound"}]"#), 400, "InvalidCommand",
                field: "[0].enablementStatus")

            // Recording mode: the default device offers indices 1...5 (cvr, index 0, is not available).
            let selected = try await send(client, .put, "/recording-mode", #"{"selectedRecordingMode":2}"#)
            #expect(selected.0 == 200)
            #expect(selected.1["recordingMode"]?.stringValue == "etr")
            #expect(stack.controller.current.recordingModes.selectedRecordingMode == 2)
            #expect(
                try await send(client, .put, "/recording-mode", #"{"recordingMode":"images"}"#).1["selectedRecordingMode"]?.intValue == 3)
            expectError(
                try await send(client, .put, "/recording-mode", #"{"selectedRecordingMode":0}"#), 422, "DynamicConstraintError",
                field: "selectedRecordingMode")
            expectError(
                try await send(client, .put, "/recording-mode", #"{"selectedRecordingMode":9}"#), 422, "ConstraintError",
                field: "selectedRecordingMode")
            expectError(
                try await send(client, .put, "/recording-mode", #"{"recordingMode":"cvr"}"#), 404, "NotFound", field: "recordingMode")
            expectError(
                try await send(client, .put, "/recording-mode", #"{"selectedRecordingMode":"two"}"#), 400, "InvalidCommand",
                field: "selectedRecordingMode")

            // Transport.
            let transport = try await send(
                client, .put, "/transport", #"{"transportStatus":"inactive","triggerOptions":{"motionSensitivity":7}}"#)
            #expect(transport.0 == 200)
            #expect(transport.1["transportStatus"]?.stringValue == "inactive")
            #expect(stack.controller.current.transport.triggerOptions.motionSensitivity == 7)
            #expect(stack.controller.current.transport.triggerOptions.maxPreRollLen == 4000)  // kept
            expectError(
                try await send(client, .put, "/transport", #"{"triggerOptions":{"motionSensitivity":11}}"#), 422, "ConstraintError",
                field: "triggerOptions.motionSensitivity")
            expectError(
                try await send(client, .put, "/transport", #"{"triggerOptions":{"motionZones":[{"zone":42}]}}"#), 404, "NotFound",
                field: "triggerOptions.motionZones[0].zone")
            expectError(
                try await send(client, .put, "/transport", #"{"transportStatus":"paused"}"#), 422, "ConstraintError",
                field: "transportStatus")
            expectError(try await send(client, .put, "/transport", #"{"speed":1}"#), 400, "InvalidCommand", field: "speed")

            // Audio.
            let audio = try await send(client, .put, "/audio", #"{"microphoneMuted":true}"#)
            #expect(audio.0 == 200)
            #expect(audio.1["microphoneMuted"]?.boolValue == true)
            #expect(audio.1["recordingMicrophoneMuted"]?.boolValue == false)
            #expect(stack.controller.current.audio.microphoneMuted)
            expectError(
                try await send(client, .put, "/audio", #"{"microphoneMuted":"yes"}"#), 400, "InvalidCommand", field: "microphoneMuted")

            // Every request above was counted by status.
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains(#"vigil_live_control_requests_total{code="422"}"#))
            #expect(metrics.contains(#"vigil_live_control_requests_total{code="200"}"#))
        }
    }

    @Test func bodyLimitAndTokens() async throws {
        let stack = LiveTestSupport.stack(device: .default, token: "s3cret-token-0123456789")
        try await stack.server.withTestClient { client in
            let big = #"{"name":"x","use":"motion","vertices":[],"pad":""# + String(repeating: "a", count: 70_000) + #""}"#
            let auth: HTTPFields = [.authorization: "Bearer s3cret-token-0123456789"]
            expectError(try await send(client, .post, "/zones", big, headers: auth), 413, "InvalidCommand")
            let missing = try await client.execute(uri: "/zones", method: .post, body: LiveTestSupport.body(Self.square))
            #expect(missing.status.code == 401)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(LiveTestSupport.json(missing)["status"]?.stringValue == "UnsupportedAccess")
            expectError(
                try await send(client, .post, "/zones", Self.square, headers: [.authorization: "Bearer s3cret-token-0123456780"]), 401,
                "UnsupportedAccess")
            expectError(try await send(client, .delete, "/zones/1", headers: [.authorization: "Basic abc"]), 401, "UnsupportedAccess")
            expectError(try await send(client, .put, "/audio", #"{"microphoneMuted":true}"#), 401, "UnsupportedAccess")
            #expect(!stack.controller.current.audio.microphoneMuted)
            #expect(try await send(client, .post, "/zones", Self.square, headers: auth).0 == 201)
            // Reading needs no token.
            #expect(try await client.execute(uri: "/device", method: .get).status == .ok)
        }
    }

    @Test func removingAZoneTheTransportListsIsRefused() async throws {
        // The front door lists zone 1 in transport.triggerOptions.motionZones (and zone 1 has a trigger).
        let stack = LiveTestSupport.stack(device: try LiveTestSupport.frontDoor())
        try await stack.server.withTestClient { client in
            #expect(try await send(client, .delete, "/triggers/1").0 == 200)
            expectError(try await send(client, .delete, "/zones/1"), 409, "InvalidInState", field: "zoneID")
            #expect(try await send(client, .put, "/transport", #"{"triggerOptions":{"motionZones":null}}"#).0 == 200)
            #expect(try await send(client, .delete, "/zones/1").0 == 200)
            // The device stays a valid device file throughout.
            let device = try await client.execute(uri: "/device", method: .get)
            #expect(DeviceFile.decode(Array(String(buffer: device.body).utf8)).isValid)
        }
    }

    @Test func latencyQuantiles() {
        let values = (1...100).map { Double($0) / 1000 }
        #expect(LatencyReport.quantile(values, 0.5) == 0.05)
        #expect(LatencyReport.quantile(values, 0.99) == 0.099)
        #expect(LatencyReport.quantile([], 0.5) == 0)
        let report = LatencyReport(samples: [
            .init(trigger: "sound", announcedByStart: true, confirmation: 0.012, pipeline: 0.001, final: 0.9),
            .init(trigger: "sound", announcedByStart: true, confirmation: 0.020, pipeline: 0.002, final: 1.0),
            .init(trigger: "smokeAlarm", announcedByStart: false, confirmation: 0.030, pipeline: 0.010, final: 0.030),
        ])
        #expect(report.json["medianMs"]?.doubleValue == 20)
        #expect(report.json["p99Ms"]?.doubleValue == 30)
        #expect(report.json["pipelineMedianMs"]?.doubleValue == 2)
        #expect(report.json["finalP99Ms"]?.doubleValue == 1000)
        #expect(report.json["events"]?.intValue == 3)
        #expect(report.json["started"]?.intValue == 2)
        #expect(report.json["byTrigger"]?["sound"]?["medianMs"]?.doubleValue == 12)
        #expect(report.json["byTrigger"]?["smokeAlarm"]?["events"]?.intValue == 1)
    }

    @Test func listenAddressAndTokenComparison() {
        #expect(LiveServerConfiguration.parseListen("0.0.0.0:9000")! == ("0.0.0.0", 9000))
        #expect(LiveServerConfiguration.parseListen(":8080")! == ("127.0.0.1", 8080))
        #expect(LiveServerConfiguration.parseListen("[::1]:8787")! == ("::1", 8787))
        #expect(LiveServerConfiguration.parseListen("host:99999") == nil)
        #expect(LiveServerConfiguration.isLoopback("127.0.0.1"))
        #expect(LiveServerConfiguration.isLoopback("localhost"))
        #expect(!LiveServerConfiguration.isLoopback("0.0.0.0"))
        #expect(!LiveServerConfiguration.isLoopback("192.168.1.10"))
        let configuration = LiveServerConfiguration(token: "abc")
        #expect(configuration.authorizes("Bearer abc"))
        #expect(!configuration.authorizes("Bearer abcd"))
        #expect(!configuration.authorizes("Bearer ab"))
        #expect(!configuration.authorizes(nil))
        #expect(LiveServerConfiguration().authorizes(nil))
    }
}
