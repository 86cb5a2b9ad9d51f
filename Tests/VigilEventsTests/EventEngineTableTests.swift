import Testing
import VigilCore
import VigilEvents

private typealias F = Fixture

/// Zone trigger lifecycle: blind, augmentation boundaries, max.
let lifecycleCases: [EngineCase] = [
    EngineCase(
        "blind 0: a detection just after the stop starts a new activation",
        F.zonePolicy(F.timing(10, 5, 30, 0)), [F.motion(0, zone: 1), F.motion(10.5, zone: 1)],
        [
            "triggered z1 motion @0", "event#1 motion z1 0..10 @0 c1 n1 none", "stopped z1 motion @10 actionStopped",
            "triggered z1 motion @10.5", "event#2 motion z1 10.5..20.5 @10.5 c1 n1 none",
            "stopped z1 motion @20.5 actionStopped",
        ]),
    EngineCase(
        "blind 30: suppressed inside [stop, stop + blind), new activation at the end boundary",
        F.zonePolicy(F.timing(10, 5, 30, 30)),
        [F.motion(0, zone: 1), F.motion(11, zone: 1), F.motion(39.5, zone: 1), F.motion(40, zone: 1)],
        [
            "triggered z1 motion @0", "event#1 motion z1 0..10 @0 c1 n1 none", "stopped z1 motion @10 actionStopped",
            "suppressed motion z1 @11 triggers.blindDuration event",
            "suppressed motion z1 @39.5 triggers.blindDuration event",
            "triggered z1 motion @40", "event#2 motion z1 40..50 @40 c1 n1 none", "stopped z1 motion @50 actionStopped",
        ]),
    EngineCase(
        "a detection at exactly T0 + D is still active (first augmentation)",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1), F.motion(10, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..15 @0 c1 n2 none", "stopped z1 motion @15 actionStopped"]),
    EngineCase(
        "first augmentation is allowed immediately",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1), F.motion(0.5, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..15 @0 c1 n2 none", "stopped z1 motion @15 actionStopped"]),
    EngineCase(
        "second augmentation at t == previous D is absorbed",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..15 @0 c1 n3 none", "stopped z1 motion @15 actionStopped"]),
    EngineCase(
        "second augmentation just past previous D is allowed",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10.5, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..20 @0 c1 n3 none", "stopped z1 motion @20 actionStopped"]),
    EngineCase(
        "third augmentation waits for the D before the second one",
        F.zonePolicy(F.timing(10, 5, 30, 30)),
        [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10.5, zone: 1), F.motion(15, zone: 1), F.motion(15.5, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..25 @0 c1 n5 none", "stopped z1 motion @25 actionStopped"]),
    EngineCase(
        "D == maxDuration stops with actionStopped",
        F.zonePolicy(F.timing(10, 5, 20, 0)), [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10.5, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..20 @0 c1 n3 none", "stopped z1 motion @20 actionStopped"]),
    EngineCase(
        "D beyond maxDuration stops at max with timeout",
        F.zonePolicy(F.timing(10, 5, 20, 0)),
        [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10.5, zone: 1), F.motion(15.5, zone: 1), F.motion(20, zone: 1)],
        ["triggered z1 motion @0", "event#1 motion z1 0..20 @0 c1 n5 none", "stopped z1 motion @20 timeout"]),
    EngineCase(
        "worked example of docs/event-engine.md",
        F.zonePolicy(F.timing(10, 5, 30, 30)),
        [0, 1, 10, 10.5, 12, 25, 31, 50, 52.5].map { F.motion($0, zone: 1, confidence: $0 == 12 ? 0.75 : 0.5) },
        end: 70,
        [
            "triggered z1 motion @0", "event#1 motion z1 0..20 @0 c0.75 n5 none", "stopped z1 motion @20 actionStopped",
            "suppressed motion z1 @25 triggers.blindDuration event", "suppressed motion z1 @31 triggers.blindDuration event",
            "triggered z1 motion @50", "event#2 motion z1 50..65 @50 c0.5 n2 none", "stopped z1 motion @65 actionStopped",
        ]),
    EngineCase(
        "continuous motion runs into maxDuration: timeout",
        F.zonePolicy(F.timing(10, 5, 30, 30)),
        stride(from: 0.0, through: 40, by: 0.5).map { F.motion($0, zone: 1) },
        end: 45,
        [
            "triggered z1 motion @0", "event#1 motion z1 0..30 @0 c1 n61 none", "stopped z1 motion @30 timeout",
        ]
            + stride(from: 30.5, through: 40, by: 0.5).map {
                "suppressed motion z1 @\(RecordRendering.number($0)) triggers.blindDuration event"
            }),
    EngineCase(
        "multiple zones run independent lifecycles",
        EventPolicy(recordingMode: .disabled, zoneTriggers: [1: F.timing(10, 5, 30, 30), 3: F.timing(4, 2, 10, 0)]),
        [F.motion(0, zone: 1), F.motion(1, zone: 3), F.motion(2, zone: 1), F.motion(6, zone: 3)],
        [
            "triggered z1 motion @0", "event#1 motion z1 0..15 @0 c1 n2 none",
            "triggered z3 motion @1", "event#2 motion z3 1..5 @1 c1 n1 none", "stopped z3 motion @5 actionStopped",
            "triggered z3 motion @6", "event#3 motion z3 6..10 @6 c1 n1 none", "stopped z3 motion @10 actionStopped",
            "stopped z1 motion @15 actionStopped",
        ]),
    EngineCase(
        "each vision trigger has its own lifecycle and zone records in a triggered zone",
        F.zonePolicy(F.timing(10, 5, 30, 0)), [F.motion(0, zone: 1), F.vision(.personDetected, 1, zone: 1)],
        [
            "triggered z1 motion @0", "event#1 motion z1 0..10 @0 c1 n1 none",
            "triggered z1 personDetected @1", "event#2 personDetected z1 1..11 @1 c1 n1 none",
            "stopped z1 motion @10 actionStopped", "stopped z1 personDetected @11 actionStopped",
        ]),
    EngineCase(
        "nil zone and zones without a trigger group with the motion time control, no zone records",
        EventPolicy(recordingMode: .disabled, motionTimeControl: F.timing(10, 5, 60, 10)),
        [
            F.motion(0, confidence: 0.5), F.motion(1, confidence: 0.9), F.motion(2, zone: 4), F.vision(.personDetected, 3),
            F.motion(5, confidence: 0.7), F.motion(10.5, confidence: 0.6),
        ],
        [
            "event#1 motion z- 0..20 @0 c0.9 n4 none", "event#2 motion z4 2..12 @2 c1 n1 none",
            "event#3 personDetected z- 3..13 @3 c1 n1 none",
        ]),
    EngineCase(
        "motion time control blind period without a zone trigger",
        EventPolicy(recordingMode: .disabled, motionTimeControl: F.timing(10, 5, 60, 10)),
        [F.motion(0), F.motion(12), F.motion(20)],
        [
            "event#1 motion z- 0..10 @0 c1 n1 none",
            "suppressed motion z- @12 transport.motionTimeControl.blindDuration event",
            "event#2 motion z- 20..30 @20 c1 n1 none",
        ]),
    EngineCase(
        "sound triggers make one event per detection, without zone",
        EventPolicy(recordingMode: .disabled, zoneTriggers: [1: F.timing(10, 5, 30, 30)]),
        [F.sound(5, confidence: 0.8, zone: 1, evidence: ["cycles": .int(3)]), F.sound(5.2, .dogBark)],
        ["event#1 glassBreak z- 4.5..5.5 @5 c0.8 none cycles=3", "event#2 dogBark z- 4.7..5.7 @5.2 c1 none"]),
]

/// Gating rules and their order.
let gatingCases: [EngineCase] = [
    EngineCase(
        "transport inactive wins over liveView and a disabled trigger",
        EventPolicy(transportActive: false, recordingMode: .liveView, enabledTriggers: []),
        [F.motion(1, zone: 1), F.sound(2)],
        [
            "suppressed motion z1 @1 transport.transportStatus event",
            "suppressed glassBreak z- @2 transport.transportStatus event",
        ]),
    EngineCase(
        "liveView turns all detectors off and wins over a disabled trigger",
        EventPolicy(recordingMode: .liveView, enabledTriggers: [.motion]),
        [F.motion(1), F.sound(2)],
        ["suppressed motion z- @1 recordingMode.liveView event", "suppressed glassBreak z- @2 recordingMode.liveView event"]),
    EngineCase(
        "a disabled trigger wins over the muted microphone and the privacy zone",
        EventPolicy(
            microphoneMuted: true, recordingMode: .disabled, enabledTriggers: [.motion], privacyZones: [2]),
        [F.sound(1, .smokeAlarm), F.vision(.personDetected, 2, zone: 2), F.motion(3)],
        [
            "suppressed smokeAlarm z- @1 enabledEventTriggers event",
            "suppressed personDetected z2 @2 enabledEventTriggers event",
            "event#1 motion z- 3..13 @3 c1 n1 none",
        ]),
    EngineCase(
        "a muted microphone suppresses sound triggers but not motion",
        EventPolicy(microphoneMuted: true, recordingMode: .disabled),
        [F.sound(2), F.motion(3), F.sound(4, .personTalking)],
        [
            "suppressed glassBreak z- @2 audio.microphoneMuted event", "event#1 motion z- 3..13 @3 c1 n1 none",
            "suppressed personTalking z- @4 audio.microphoneMuted event",
        ]),
    EngineCase(
        "a privacy zone suppresses vision detections there, even with a zone trigger; sound ignores zones",
        EventPolicy(recordingMode: .disabled, zoneTriggers: [2: F.timing(10, 5, 30, 30)], privacyZones: [2]),
        [F.motion(1, zone: 2), F.sound(2, zone: 2), F.motion(3, zone: 1)],
        [
            "suppressed motion z2 @1 zones.privacy event", "event#1 glassBreak z- 1.5..2.5 @2 c1 none",
            "event#2 motion z1 3..13 @3 c1 n1 none",
        ]),
    EngineCase(
        "the privacy rule applies before the blind period",
        EventPolicy(recordingMode: .disabled, zoneTriggers: [1: F.timing(10, 5, 30, 30)], privacyZones: [1]),
        [F.motion(0, zone: 1), F.motion(12, zone: 1)],
        ["suppressed motion z1 @0 zones.privacy event", "suppressed motion z1 @12 zones.privacy event"]),
    EngineCase(
        "a detection with a non-finite detectedAt is rejected first",
        EventPolicy(transportActive: false),
        [Detection(trigger: .motion, start: 0, end: 0, detectedAt: .nan, confidence: 1), F.sound(3)],
        ["suppressed motion z- @0 detection.detectedAt event", "suppressed glassBreak z- @3 transport.transportStatus event"]),
]

/// Media per recording mode.
let mediaCases: [EngineCase] = [
    EngineCase(
        "cvr: a range equal to the event's own start..end",
        EventPolicy(recordingMode: .cvr, zoneTriggers: [1: F.timing(10, 5, 30, 0)]),
        [F.motion(2, zone: 1), F.motion(3, zone: 1), F.sound(5)],
        [
            "triggered z1 motion @2", "event#1 motion z1 2..17 @2 c1 n2 range 2..17",
            "event#2 glassBreak z- 4.5..5.5 @5 c1 range 4.5..5.5", "stopped z1 motion @17 actionStopped",
        ]),
    EngineCase(
        "ebr: clip with pre-roll clamped at 0, ending with the clip lifecycle",
        F.modePolicy(.ebr), [F.motion(2)], ["event#1 motion z- 2..12 @2 c1 n1 clip#1 0..12"]),
    EngineCase(
        "ebr: pre-roll before a later event; the motion event's own detections do not extend the clip",
        F.modePolicy(.ebr), [F.motion(10), F.motion(11)], ["event#1 motion z- 10..25 @10 c1 n2 clip#1 6..20"]),
    EngineCase(
        "ebr: a second event while the clip runs joins and extends it",
        F.modePolicy(.ebr), [F.sound(10), F.sound(12)],
        ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..25", "event#2 glassBreak z- 11.5..12.5 @12 c1 clip#1 6..25"]),
    EngineCase(
        "ebr: clip capped by the mode's maxDuration when below the motion time control max",
        F.modePolicy(.ebr, max: 12), [F.sound(10), F.sound(11)],
        ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..22", "event#2 glassBreak z- 10.5..11.5 @11 c1 clip#1 6..22"]),
    EngineCase(
        "ebr: clip capped by the motion time control max when the mode has none",
        F.modePolicy(.ebr, max: 0, motionTimeControl: F.timing(10, 5, 12, 10)), [F.sound(10), F.sound(11)],
        ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..22", "event#2 glassBreak z- 10.5..11.5 @11 c1 clip#1 6..22"]),
    EngineCase(
        "ebr: clip not capped when D stays below both maxima",
        F.modePolicy(.ebr, max: 0), [F.sound(10), F.sound(11)],
        ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..25", "event#2 glassBreak z- 10.5..11.5 @11 c1 clip#1 6..25"]),
    EngineCase(
        "ebr: an event in the clip's blind period has no media and a clip suppression",
        F.modePolicy(.ebr), [F.sound(10), F.sound(25), F.sound(30)],
        [
            "event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 6..20", "event#2 glassBreak z- 24.5..25.5 @25 c1 none",
            "suppressed glassBreak z- @25 transport.motionTimeControl.blindDuration clip",
            "event#3 glassBreak z- 29.5..30.5 @30 c1 clip#2 26..40",
        ]),
    EngineCase(
        "ebr: a vision event in the clip's blind period keeps its zone in the clip suppression",
        F.modePolicy(.ebr), [F.motion(0), F.motion(12, zone: 2)],
        [
            "event#1 motion z- 0..10 @0 c1 n1 clip#1 0..10",
            "suppressed motion z2 @12 transport.motionTimeControl.blindDuration clip",
            "event#2 motion z2 12..22 @12 c1 n1 none",
        ]),
    EngineCase(
        "ebr: motion outside motionZones is an event without a clip",
        F.modePolicy(.ebr, motionZones: [1]), [F.motion(2), F.motion(3, zone: 1)],
        ["event#1 motion z- 2..12 @2 c1 n1 none", "event#2 motion z1 3..13 @3 c1 n1 clip#1 0..13"]),
    EngineCase(
        "ebr: a nil motion zone means outside every zone",
        F.modePolicy(.ebr, motionZones: [nil]), [F.motion(2), F.motion(3, zone: 1)],
        ["event#1 motion z- 2..12 @2 c1 n1 clip#1 0..12", "event#2 motion z1 3..13 @3 c1 n1 none"]),
    EngineCase(
        "ebr: an empty motionZones list means anywhere",
        F.modePolicy(.ebr, motionZones: []), [F.motion(20, zone: 5)],
        ["event#1 motion z5 20..30 @20 c1 n1 clip#1 16..30"]),
    EngineCase(
        "etr: a fixed clip of the mode's maxDuration from start - pre-roll, clamped at 0",
        F.modePolicy(.etr, max: 10), [F.sound(2), F.motion(20), F.motion(21)],
        ["event#1 glassBreak z- 1.5..2.5 @2 c1 clip#1 0..10", "event#2 motion z- 20..35 @20 c1 n2 clip#2 16..26"]),
    EngineCase(
        "etr: a mode maxDuration of 0 gives 10 s clips",
        F.modePolicy(.etr, max: 0), [F.sound(10)], ["event#1 glassBreak z- 9.5..10.5 @10 c1 clip#1 5.5..15.5"]),
    EngineCase(
        "images: a snapshot at detectedAt, or at the evidence peakTime",
        F.modePolicy(.images, max: 0),
        [F.sound(3, evidence: ["peakTime": .number(3.25)]), F.motion(5), F.sound(6, evidence: ["peakTime": .string("x")])],
        [
            "event#1 glassBreak z- 2.5..3.5 @3 c1 snap#1 @3.25 peakTime=3.25", "event#2 motion z- 5..15 @5 c1 n1 snap#2 @5",
            "event#3 glassBreak z- 5.5..6.5 @6 c1 snap#3 @6 peakTime=x",
        ]),
    EngineCase(
        "disabled: events without media",
        F.modePolicy(.disabled), [F.sound(1), F.motion(2)],
        ["event#1 glassBreak z- 0.5..1.5 @1 c1 none", "event#2 motion z- 2..12 @2 c1 n1 none"]),
]

/// Nothing ends after its media: the end of the stream cuts lifecycles and clips, the end of the
/// video cuts vision lifecycles and takes away snapshots.
let mediaEndCases: [EngineCase] = [
    EngineCase(
        "the end of the stream cuts a zone activation: zoneStopped at the end, actionStopped",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1)], end: 4,
        ["triggered z1 motion @0", "event#1 motion z1 0..4 @0 c1 n1 none", "stopped z1 motion @4 actionStopped"]),
    EngineCase(
        "a cut activation whose D passed max stops with actionStopped: max was not reached",
        F.zonePolicy(F.timing(10, 5, 20, 0)),
        [F.motion(0, zone: 1), F.motion(1, zone: 1), F.motion(10.5, zone: 1), F.motion(15.5, zone: 1)],
        end: 18,
        ["triggered z1 motion @0", "event#1 motion z1 0..18 @0 c1 n4 none", "stopped z1 motion @18 actionStopped"]),
    EngineCase(
        "cvr: the range of a motion event ends with the stream",
        F.modePolicy(.cvr), [F.motion(1)], end: 3, ["event#1 motion z- 1..3 @1 c1 n1 range 1..3"]),
    EngineCase(
        "ebr: the clip ends with the stream",
        F.modePolicy(.ebr), [F.sound(2)], end: 6, ["event#1 glassBreak z- 1.5..2.5 @2 c1 clip#1 0..6"]),
    EngineCase(
        "etr: the fixed clip ends with the stream; one that ends before it keeps its length",
        F.modePolicy(.etr, max: 10), [F.sound(2), F.sound(20)], end: 25,
        ["event#1 glassBreak z- 1.5..2.5 @2 c1 clip#1 0..10", "event#2 glassBreak z- 19.5..20.5 @20 c1 clip#2 15.5..25"]),
    EngineCase(
        "video shorter than the audio: motion and its zone stop with the video, sound goes on",
        F.zonePolicy(F.timing(10, 5, 30, 30)), [F.motion(0, zone: 1), F.sound(6)], end: 10, videoEnd: 3,
        [
            "triggered z1 motion @0", "event#1 motion z1 0..3 @0 c1 n1 none", "stopped z1 motion @3 actionStopped",
            "event#2 glassBreak z- 5.5..6.5 @6 c1 none",
        ]),
    EngineCase(
        "images: no snapshot after the end of the video, with a snapshot suppression",
        F.modePolicy(.images, max: 0), [F.motion(1), F.sound(2), F.sound(3), F.sound(5)], end: 8, videoEnd: 3,
        [
            "event#1 motion z- 1..3 @1 c1 n1 snap#1 @1", "event#2 glassBreak z- 1.5..2.5 @2 c1 snap#2 @2",
            "event#3 glassBreak z- 2.5..3.5 @3 c1 snap#3 @3", "event#4 glassBreak z- 4.5..5.5 @5 c1 none",
            "suppressed glassBreak z- @5 video.ended snapshot",
        ]),
    EngineCase(
        "ebr: the clip of motion is cut at the end of the stream, not at the end of the video",
        F.modePolicy(.ebr), [F.motion(1)], end: 6, videoEnd: 3, ["event#1 motion z- 1..3 @1 c1 n1 clip#1 0..6"]),
]

/// Safety alarms (smokeAlarm, coAlarm) keep their clip and subsume the generic sound of their beeps.
let safetyAlarmCases: [EngineCase] = [
    EngineCase(
        "ebr: a smoke alarm in the clip's blind period starts a new clip",
        F.modePolicy(.ebr), [F.motion(0), F.sound(12, .smokeAlarm), F.sound(13)],
        [
            "event#1 motion z- 0..10 @0 c1 n1 clip#1 0..10", "event#2 smokeAlarm z- 11.5..12.5 @12 c1 clip#2 8..27",
            "event#3 glassBreak z- 12.5..13.5 @13 c1 clip#2 8..27",
        ]),
    EngineCase(
        "ebr: so does a CO alarm; a glass break in the blind period still has no clip",
        F.modePolicy(.ebr), [F.sound(0), F.sound(11), F.sound(12, .coAlarm)],
        [
            "event#1 glassBreak z- -0.5..0.5 @0 c1 clip#1 0..10", "event#2 glassBreak z- 10.5..11.5 @11 c1 none",
            "suppressed glassBreak z- @11 transport.motionTimeControl.blindDuration clip",
            "event#3 coAlarm z- 11.5..12.5 @12 c1 clip#2 8..22",
        ]),
    EngineCase(
        "generic sound during a safety alarm event is subsumed; before its confirmation and after its end it is reported",
        F.modePolicy(.disabled),
        [
            F.sound(1, .sound), Detection(trigger: .smokeAlarm, start: 0.5, end: 10, detectedAt: 4, confidence: 1),
            F.sound(6, .sound), F.sound(6, .dogBark), F.sound(10.4, .sound), F.sound(12, .sound),
        ],
        [
            "event#1 sound z- 0.5..1.5 @1 c1 none", "event#2 smokeAlarm z- 0.5..10 @4 c1 none",
            "event#3 dogBark z- 5.5..6.5 @6 c1 none", "suppressed sound z- @6 safetyAlarm.subsumesSound event",
            "suppressed sound z- @10.4 safetyAlarm.subsumesSound event", "event#4 sound z- 11.5..12.5 @12 c1 none",
        ]),
]

let allCases = lifecycleCases + gatingCases + mediaCases + mediaEndCases + safetyAlarmCases

@Suite("EventEngine tables")
struct EventEngineTableTests {
    @Test("run gives exactly the expected records", arguments: allCases)
    func run(_ testCase: EngineCase) {
        let records = EventEngine.run(
            policy: testCase.policy, detections: testCase.detections, endTime: testCase.endTime, visionEnd: testCase.visionEnd)
        #expect(records.map(RecordRendering.render) == testCase.expected)
    }

    @Test("streaming ingest/advance/finish gives the same records as run", arguments: allCases)
    func streaming(_ testCase: EngineCase) {
        let batch = EventEngine.run(
            policy: testCase.policy, detections: testCase.detections, endTime: testCase.endTime, visionEnd: testCase.visionEnd)
        var engine = EventEngine(policy: testCase.policy)
        var streamed: [EngineRecord] = []
        // The video ends (if it does before the stream) before media time passes its end.
        func passing(_ time: Double) {
            if let videoEnd = testCase.visionEnd, time > videoEnd { streamed += engine.endVision(at: videoEnd) }
        }
        for detection in testCase.detections {
            // Advance in small steps up to each detection, as a live pipeline would.
            if detection.detectedAt.isFinite {
                var step = (engine.clock.isFinite ? engine.clock : 0)
                while step < detection.detectedAt {
                    passing(step)
                    streamed += engine.advance(to: step)
                    step += 0.75
                }
            }
            passing(detection.detectedAt)
            streamed += engine.ingest(detection)
        }
        passing(.infinity)
        streamed += engine.advance(to: testCase.endTime)
        streamed += engine.finish(at: testCase.endTime)
        let sorted = streamed.enumerated().sorted { lhs, rhs in
            let (l, r) = (key(lhs.element.time), key(rhs.element.time))
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
        #expect(sorted == batch)
        #expect(engine.finish(at: testCase.endTime + 1).isEmpty)
    }

    private func key(_ time: Double) -> Double { time.isFinite ? time : -.infinity }
}
