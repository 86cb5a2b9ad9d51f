import Testing
import VigilCore
import VigilEvents

private typealias F = Fixture

/// Started detections (an activity confirmed and still going on) and `eventStarted` records.
@Suite("EventEngine: started activities and eventStarted records")
struct EventStartTests {
    private func render(_ records: [EngineRecord]) -> [String] { records.map(RecordRendering.render) }

    /// A sound confirmed at `at` (onset `at - 0.1`), still going on.
    private func started(_ at: Double, _ trigger: EventTriggerType = .sound) -> Detection {
        Detection(trigger: trigger, start: at - 0.1, end: at, detectedAt: at, confidence: 0.6, phase: .started)
    }

    /// The same sound, ended at `end`.
    private func complete(_ at: Double, end: Double, _ trigger: EventTriggerType = .sound) -> Detection {
        Detection(trigger: trigger, start: at - 0.1, end: end, detectedAt: at, confidence: 0.9, evidence: ["peakDBFS": .number(-12)])
    }

    private func policy(_ mode: RecordingModeType, without disabled: Set<EventTriggerType> = []) -> EventPolicy {
        var policy = F.modePolicy(mode)
        policy.enabledTriggers.subtract(disabled)
        return policy
    }

    @Test func startedRecordAtConfirmationThenTheFinalEventWithTheSameID() {
        var engine = EventEngine(policy: policy(.cvr), reportsStarts: true)
        #expect(render(engine.ingest(started(2))) == ["started#1 sound z- 1.9.. @2 range 1.9.."])
        #expect(engine.advance(to: 3).isEmpty)
        #expect(render(engine.ingest(complete(2, end: 3.4))) == ["event#1 sound z- 1.9..3.4 @2 c0.9 range 1.9..3.4 peakDBFS=-12"])
        // A complete detection without a started one is final at once in cvr: no start record.
        #expect(render(engine.ingest(complete(5, end: 5.5))) == ["event#2 sound z- 4.9..5.5 @5 c0.9 range 4.9..5.5 peakDBFS=-12"])
        #expect(engine.finish(at: 10).isEmpty)
    }

    @Test func withoutReportsStartsTheStartedDetectionOnlyOpensTheEvent() {
        var engine = EventEngine(policy: policy(.cvr))
        #expect(engine.ingest(started(2)).isEmpty)
        #expect(render(engine.ingest(complete(2, end: 3.4))) == ["event#1 sound z- 1.9..3.4 @2 c0.9 range 1.9..3.4 peakDBFS=-12"])
    }

    /// Batch output does not depend on whether the detectors reported starts.
    @Test(arguments: [RecordingModeType.cvr, .ebr, .etr, .images, .disabled])
    func batchRunIsTheSameWithOrWithoutStartedDetections(mode: RecordingModeType) {
        let completes = [complete(2, end: 3.4), F.sound(2.5), complete(4, end: 9), F.sound(30)]
        let withStarts = [started(2), F.sound(2.5), started(4), complete(2, end: 3.4), complete(4, end: 9), F.sound(30)]
        let policy = self.policy(mode)
        #expect(
            EventEngine.run(policy: policy, detections: withStarts, endTime: 60)
                == EventEngine.run(policy: policy, detections: completes, endTime: 60))
    }

    @Test func ebrEventIsAnnouncedWhileItsClipRecords() {
        var engine = EventEngine(policy: F.modePolicy(.ebr), reportsStarts: true)
        #expect(render(engine.ingest(F.sound(10))) == ["started#1 glassBreak z- 9.5.. @10 clip#1 6.."])
        #expect(engine.advance(to: 20).isEmpty)
        #expect(render(engine.advance(to: 21)) == ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..20"])
    }

    @Test func visionEventIsAnnouncedWhenItsActivationStarts() {
        var engine = EventEngine(policy: F.zonePolicy(F.timing(10, 5, 30, 0)), reportsStarts: true)
        #expect(render(engine.ingest(F.motion(1, zone: 1))) == ["triggered z1 motion @1", "started#1 motion z1 1.. @1 none"])
        #expect(engine.ingest(F.motion(2, zone: 1)).isEmpty)
        #expect(render(engine.advance(to: 16.5)) == ["stopped z1 motion @16 actionStopped", "event#1 motion z1 1..16 @1 c1 n2 none"])
    }

    @Test func gatedStartSaysNothingAndItsCompleteDetectionIsSuppressedOnce() {
        var engine = EventEngine(policy: policy(.cvr, without: [.sound]), reportsStarts: true)
        #expect(engine.ingest(started(2)).isEmpty)
        #expect(render(engine.ingest(complete(2, end: 3))) == ["suppressed sound z- @2 enabledEventTriggers event"])
        var invalid = started(2)
        invalid.detectedAt = .nan
        #expect(engine.ingest(invalid).isEmpty)
    }

    @Test func triggerDisabledWhileTheSoundGoesOnEndsItsEventAtTheChange() {
        var engine = EventEngine(policy: policy(.cvr), reportsStarts: true)
        #expect(render(engine.ingest(started(2))) == ["started#1 sound z- 1.9.. @2 range 1.9.."])
        #expect(render(engine.changePolicy(to: policy(.cvr, without: [.sound]), at: 3)) == ["event#1 sound z- 1.9..3 @2 c0.6 range 1.9..3"])
        #expect(render(engine.ingest(complete(2, end: 4))) == ["suppressed sound z- @2 enabledEventTriggers event"])
        #expect(engine.ingest(started(6)).isEmpty)
        #expect(engine.ingest(complete(6, end: 7)).count == 1)
    }

    @Test func otherChangesCarryTheOpenEventOverWithItsIDAndMedia() {
        var engine = EventEngine(policy: policy(.ebr), reportsStarts: true)
        #expect(render(engine.ingest(started(2))) == ["started#1 sound z- 1.9.. @2 clip#1 0.."])
        // ebr -> cvr: the clip closes at its scheduled stop; the sound goes on.
        #expect(engine.changePolicy(to: policy(.cvr), at: 3).isEmpty)
        #expect(render(engine.ingest(complete(2, end: 4))) == ["event#1 sound z- 1.9..4 @2 c0.9 clip#1 0..12 peakDBFS=-12"])
        #expect(render(engine.ingest(complete(5, end: 5.5))) == ["event#2 sound z- 4.9..5.5 @5 c0.9 range 4.9..5.5 peakDBFS=-12"])
        // Clip IDs keep counting too.
        #expect(engine.changePolicy(to: policy(.ebr), at: 6).isEmpty)
        #expect(render(engine.ingest(started(8))) == ["started#3 sound z- 7.9.. @8 clip#2 4.."])
        // The stream's end cuts the clip that was still recording.
        #expect(render(engine.finish(at: 9)) == ["event#3 sound z- 7.9..9 @8 c0.6 clip#2 4..9"])
    }

    @Test func twoOpenActivitiesOfOneTriggerCompleteTheirOwnEvents() {
        var engine = EventEngine(policy: policy(.cvr), reportsStarts: true)
        var a = started(2, .smokeAlarm)
        a.start = 0.5
        var b = started(2, .smokeAlarm)
        b.start = 1.0
        #expect(engine.ingest(a).count == 1)
        #expect(engine.ingest(b).count == 1)
        var endB = complete(2, end: 8, .smokeAlarm)
        endB.start = 1.0
        #expect(render(engine.ingest(endB)) == ["event#2 smokeAlarm z- 1..8 @2 c0.9 range 1..8 peakDBFS=-12"])
        #expect(render(engine.finish(at: 9)) == ["event#1 smokeAlarm z- 0.5..9 @2 c0.6 range 0.5..9"])
    }
}
