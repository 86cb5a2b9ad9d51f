import Testing
import VigilCore
import VigilEvents

private typealias F = Fixture

@Suite("EventEngine streaming")
struct EventEngineStreamingTests {
    private func render(_ records: [EngineRecord]) -> [String] { records.map(RecordRendering.render) }

    @Test func advanceEmitsAZoneStopOnlyOnceItsTimeHasStrictlyPassed() {
        var engine = EventEngine(policy: F.zonePolicy(F.timing(10, 5, 30, 0)))
        #expect(render(engine.ingest(F.motion(0, zone: 1))) == ["triggered z1 motion @0"])
        #expect(engine.advance(to: 10).isEmpty)
        #expect(
            render(engine.advance(to: 10.001))
                == ["stopped z1 motion @10 actionStopped", "event#1 motion z1 0..10 @0 c1 n1 none"])
        #expect(engine.finish(at: 20).isEmpty)
    }

    @Test func ebrEventWaitsForItsClipToClose() {
        var engine = EventEngine(policy: F.modePolicy(.ebr))
        #expect(engine.ingest(F.sound(10)).isEmpty)
        #expect(engine.ingest(F.sound(11)).isEmpty)
        #expect(engine.advance(to: 25).isEmpty)  // clip runs until 25 (10 + 10 + 5)
        #expect(
            render(engine.advance(to: 26))
                == ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..25", "event#2 glassBreak z- 10.5..11.5 @11 c1 clip#1 6..25"])
    }

    @Test func ebrMotionEventWaitsForTheLaterOfItsEndAndItsClip() {
        // Zone 1 trigger keeps the event open until 30; the clip (motion time control) closes at 12.
        let policy = EventPolicy(zoneTriggers: [1: F.timing(10, 20, 30, 0)])
        var engine = EventEngine(policy: policy)
        #expect(render(engine.ingest(F.motion(2, zone: 1))) == ["triggered z1 motion @2"])
        #expect(engine.ingest(F.motion(3, zone: 1)).isEmpty)
        #expect(engine.advance(to: 13).isEmpty)
        #expect(
            render(engine.advance(to: 33))
                == ["stopped z1 motion @32 actionStopped", "event#1 motion z1 2..32 @2 c1 n2 clip#1 0..12"])
    }

    @Test func finishCutsOpenLifecyclesAtTheEndOfTheMedia() {
        var engine = EventEngine(policy: F.zonePolicy(F.timing(10, 5, 30, 30)))
        _ = engine.ingest(F.motion(0, zone: 1))
        #expect(
            render(engine.finish(at: 3))
                == ["stopped z1 motion @3 actionStopped", "event#1 motion z1 0..3 @0 c1 n1 none"])
        #expect(engine.isFinished)
        #expect(engine.ingest(F.motion(50, zone: 1)).isEmpty)
        #expect(engine.advance(to: 60).isEmpty)
    }

    @Test func advancingBackwardsIsIgnoredAndLateDetectionsUseTheClock() {
        var engine = EventEngine(policy: F.zonePolicy(F.timing(10, 5, 30, 30)))
        _ = engine.ingest(F.motion(0, zone: 1))
        _ = engine.advance(to: 8)
        #expect(engine.advance(to: 4).isEmpty)
        #expect(engine.clock == 8)
        // A late detection (detectedAt 5 < clock 8) counts at 8 for the lifecycle: t = 8 > 0, so
        // it is the first augmentation; the event keeps nothing of the late time but the count.
        #expect(engine.ingest(F.motion(5, zone: 1)).isEmpty)
        #expect(
            render(engine.finish(at: 100))
                == ["stopped z1 motion @15 actionStopped", "event#1 motion z1 0..15 @0 c1 n2 none"])
    }

    @Test func runSortsDetectionsStablyByDetectedAt() {
        let policy = EventPolicy(recordingMode: .images)
        let shuffled = [F.sound(4, .dogBark), F.sound(1), F.sound(4, .glassBreak), F.sound(2, .smokeAlarm)]
        let ordered = [shuffled[1], shuffled[3], shuffled[0], shuffled[2]]
        let records = EventEngine.run(policy: policy, detections: shuffled, endTime: 10)
        #expect(records == EventEngine.run(policy: policy, detections: ordered, endTime: 10))
        #expect(
            render(records) == [
                "event#1 glassBreak z- 0.5..1.5 @1 c1 snap#1 @1", "event#2 smokeAlarm z- 1.5..2.5 @2 c1 snap#2 @2",
                "event#3 dogBark z- 3.5..4.5 @4 c1 snap#3 @4", "event#4 glassBreak z- 3.5..4.5 @4 c1 snap#4 @4",
            ])
    }

    @Test func suppressionReasonsExplainTheRule() {
        let records = EventEngine.run(
            policy: EventPolicy(zoneTriggers: [1: F.timing(10, 5, 30, 30)], privacyZones: [2]),
            detections: [F.motion(0, zone: 1), F.motion(12, zone: 1), F.motion(13, zone: 2)], endTime: 50)
        let reasons = records.compactMap { record -> String? in
            if case .suppressed(let suppression) = record { return suppression.reason }
            return nil
        }
        #expect(reasons.count == 2)
        #expect(reasons[0].contains("zone 1") && reasons[0].contains("10.0") && reasons[0].contains("40.0"))
        #expect(reasons[1].contains("zone 2") && reasons[1].contains("privacy"))
    }

    @Test func defaultPolicy() {
        let policy = EventPolicy()
        #expect(policy.transportActive && !policy.microphoneMuted)
        #expect(policy.recordingMode == .ebr && policy.recordingModeMaxDuration == 60)
        #expect(policy.enabledTriggers == Set(EventTriggerType.allCases))
        #expect(policy.motionTimeControl == F.timing(10, 5, 60, 10))
        #expect(policy.maxPreRoll == 4)
        #expect(policy.motionZones == nil && policy.zoneTriggers.isEmpty && policy.privacyZones.isEmpty)
        #expect(policy.clipTiming == F.timing(10, 5, 60, 10))
        #expect(EventPolicy(recordingModeMaxDuration: 30).clipTiming.maxDuration == 30)
    }
}
