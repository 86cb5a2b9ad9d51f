import Testing
import VigilCore

@Suite("Core values")
struct CoreValueTests {
    @Test("sensitivity clamps into 1...maximum and maps the range onto 0...1")
    func sensitivity() {
        #expect(Sensitivity(0).level == 1)
        #expect(Sensitivity(11).level == 10)
        #expect(Sensitivity(3, maximum: 1).maximum == 2)
        #expect(Sensitivity(1).fraction == 0)
        #expect(Sensitivity(10).fraction == 1)
        #expect(Sensitivity.medium.fraction == 4.0 / 9.0)
        #expect(Sensitivity(2, maximum: 3).fraction == 0.5)
    }

    @Test("fixed decimals round half away from zero, never print -0, and say nan for non-finite values")
    func decimalText() {
        #expect(DecimalText.fixed(2.5, places: 0) == "3")
        #expect(DecimalText.fixed(-2.5, places: 0) == "-3")
        #expect(DecimalText.fixed(-0.0004) == "0.000")
        #expect(DecimalText.fixed(0.1, places: 4) == "0.1000")
        #expect(DecimalText.fixed(12.345678, places: 2) == "12.35")
        #expect(DecimalText.fixed(.nan) == "nan")
        #expect(DecimalText.fixed(-.infinity) == "nan")
    }

    @Test("trigger kinds: sound triggers and vision triggers split the cases; the alarms are the safety alarms")
    func triggerKinds() {
        let sound = EventTriggerType.allCases.filter(\.isSound)
        #expect(sound == [.sound, .personTalking, .dogBark, .glassBreak, .smokeAlarm, .coAlarm])
        #expect(EventTriggerType.allCases.filter(\.isVision).count == EventTriggerType.allCases.count - sound.count)
        #expect(EventTriggerType.allCases.filter(\.isSafetyAlarm) == [.smokeAlarm, .coAlarm])
        #expect(EventTriggerType(rawValue: "dogBark") == .dogBark)
        #expect(EventTriggerType(rawValue: "DogBark") == nil)
        #expect(EventTriggerType.motion < EventTriggerType.coAlarm)
    }
}
