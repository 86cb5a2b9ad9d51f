import Dispatch
import NIOConcurrencyHelpers
import Testing
import VigilControl
import VigilCore
import VigilDevice

@Suite("DeviceController")
struct DeviceControllerTests {
    static func zone(_ name: String, size: Int) -> JSONValue {
        [
            "name": .string(name), "use": "motion",
            "vertices": [["x": 0, "y": 0], ["x": .number(Double(size)), "y": 0], ["x": 0, "y": .number(Double(size))]],
        ]
    }

    @Test("a successful command changes the device and is queued once; a refused one changes nothing")
    func commandsAndQueue() throws {
        let controller = DeviceController(device: .default)
        #expect(controller.takeChanges() == nil)
        let id = try controller.createZone(Self.zone("Drive", size: 100))
        #expect(id == 1)
        #expect(controller.current.zoneManagement.zone(id: 1)?.zone.name == "Drive")
        let audio = try controller.setAudio(["microphoneMuted": true, "recordingMicrophoneMuted": false])
        #expect(audio.microphoneMuted && controller.current.audio.microphoneMuted)
        #expect(controller.changeCount == 2)

        let before = controller.current
        #expect(throws: ControlError.self) { try controller.createZone(Self.zone("Drive", size: 100)) }  // same vertices
        #expect(throws: ControlError.self) { try controller.removeZone(id: "99") }
        #expect(throws: ControlError.self) { try controller.setAudio(["microphoneMuted": "yes"]) }
        #expect(controller.current == before)
        #expect(controller.changeCount == 2)

        let taken = try #require(controller.takeChanges())
        #expect(taken.changes.map(\.command) == ["createTwoDCartesianZone", "setAudio"])
        #expect(taken.changes[0].detail["zoneID"]?.intValue == 1)
        #expect(taken.device == controller.current)
        #expect(controller.takeChanges() == nil)
    }

    @Test("errors carry the Matter status, the field and the HTTP status")
    func errorContext() {
        let controller = DeviceController(device: .default)
        do {
            try controller.removeZone(id: "abc")
            Issue.record("removing zone abc succeeded")
        } catch {
            #expect(error.status == "InvalidCommand" && error.field == "zoneID" && error.httpStatus == 400, "\(error)")
        }
        do {
            _ = try controller.createZone(["name": "x", "use": "motion", "vertices": [["x": 0, "y": 0], ["x": 9, "y": 0]]])
            Issue.record("a two-vertex zone was created")
        } catch {
            #expect(error.status == "ConstraintError" && error.field == "vertices" && error.httpStatus == 422, "\(error)")
        }
    }

    @Test("commands from many threads at once: the zone limit holds and every success is counted and queued once")
    func concurrentCommands() throws {
        let controller = DeviceController(device: .default)
        let limit = controller.current.zoneManagement.maxUserDefinedZones
        let outcomes = NIOLockedValueBox<[Result<UInt16, ControlError>]>([])
        DispatchQueue.concurrentPerform(iterations: 2 * limit) { i in
            let result = Result { () throws(ControlError) -> UInt16 in try controller.createZone(Self.zone("z\(i)", size: 10 * (i + 1))) }
            outcomes.withLockedValue { $0.append(result) }
        }
        let all = outcomes.withLockedValue { $0 }
        let ids = all.compactMap { try? $0.get() }
        #expect(ids.count == limit)
        #expect(Set(ids) == Set((1...limit).map(UInt16.init)))
        for case .failure(let error) in all { #expect(error.status == "ResourceExhausted", "\(error)") }
        #expect(controller.changeCount == limit)
        #expect(controller.takeChanges()?.changes.count == limit)
    }
}

@Suite("ControlRequestDecoder")
struct ControlRequestDecoderTests {
    @Test("bodies that are not JSON, or nest too deep, are refused naming the position and the limit")
    func parse() throws {
        #expect(try ControlRequestDecoder.parse(Array(#"{"a":1}"#.utf8))["a"]?.intValue == 1)
        for (body, reason) in [
            ("", "empty request body"), ("{\n  \"a\": }", "line 2"),
            (String(repeating: "[", count: 20) + String(repeating: "]", count: 20), "deeper than 16 levels"),
        ] {
            do {
                _ = try ControlRequestDecoder.parse(Array(body.utf8))
                Issue.record("accepted \(body)")
            } catch {
                #expect(error.status == "InvalidCommand" && error.reason.contains(reason), "\(error)")
            }
        }
    }

    @Test("a zone body is checked like the zone of a device file, with fields named relative to the body")
    func zone() throws {
        let zone = try ControlRequestDecoder.zone(DeviceControllerTests.zone("Path", size: 50))
        #expect(zone.name == "Path" && zone.vertices.count == 3)
        for (body, field) in [
            (
                ["name": "x", "use": "motion", "zoneID": 3, "vertices": [["x": 0, "y": 0], ["x": 9, "y": 0], ["x": 0, "y": 9]]]
                    as JSONValue, "zoneID"
            ),
            (["name": 7, "use": "motion", "vertices": [["x": 0, "y": 0], ["x": 9, "y": 0], ["x": 0, "y": 9]]], "name"),
            (
                ["name": "x", "use": "motion", "vertices": [["x": 0, "y": 0], ["x": 9, "y": 0], ["x": 0, "y": 9]], "colour": "#fff"],
                "colour"
            ),
        ] {
            do {
                _ = try ControlRequestDecoder.zone(body)
                Issue.record("accepted \(body)")
            } catch {
                #expect(error.field == field, "\(error)")
            }
        }
    }
}
