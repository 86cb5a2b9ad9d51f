import Testing
import VigilScoring

struct AnnotationTSVTests {
    @Test func readsBothFormsWithHeaderAndBlankLines() throws {
        let text = "filename\tonset\toffset\tevent_label\n\nclip1.wav\t1.5\t3.25\tsmokeAlarm\r\n  \nclip2.wav\t0\t0.5\tdogBark\n"
        let events = try AnnotationTSV.parse(text)
        #expect(
            events == [
                ScoredEvent(file: "clip1.wav", onset: 1.5, offset: 3.25, label: "smokeAlarm"),
                ScoredEvent(file: "clip2.wav", onset: 0, offset: 0.5, label: "dogBark"),
            ])
        let dcase = try AnnotationTSV.parse("0.1\t2.0\tglassBreak\n3\t4\tsound", defaultFile: "x.wav")
        #expect(dcase.map(\.file) == ["x.wav", "x.wav"])
        #expect(dcase.map(\.label) == ["glassBreak", "sound"])
        #expect(try AnnotationTSV.parse("").isEmpty)
        #expect(try AnnotationTSV.parse("1.0 2.0 dogBark").first?.label == "dogBark")
    }

    @Test func errorsNameTheLineAndReason() {
        #expect(throws: AnnotationParseError(line: 3, reason: .invalidOnset("abc"), text: "abc\t2\tx")) {
            try AnnotationTSV.parse("1\t2\tx\n\nabc\t2\tx")
        }
        #expect(throws: AnnotationParseError(line: 2, reason: .wrongColumnCount(2), text: "1\t2")) {
            try AnnotationTSV.parse("1\t2\tx\n1\t2")
        }
        #expect(throws: AnnotationParseError(line: 1, reason: .offsetBeforeOnset(onset: 3, offset: 2), text: "3\t2\tx")) {
            try AnnotationTSV.parse("3\t2\tx")
        }
        #expect(throws: AnnotationParseError(line: 1, reason: .emptyLabel, text: "f\t1\t2\t")) {
            try AnnotationTSV.parse("f\t1\t2\t")
        }
        #expect(throws: AnnotationParseError(line: 2, reason: .invalidOffset("nan"), text: "1\tnan\tx")) {
            try AnnotationTSV.parse("0\t1\tx\n1\tnan\tx")
        }
        let e = AnnotationParseError(line: 7, reason: .emptyLabel, text: "")
        #expect(e.description.contains("line 7"))
    }

    @Test func formatRoundTrips() throws {
        let events = [
            ScoredEvent(file: "a b.wav", onset: 0.1, offset: 2.001, label: "coAlarm"),
            ScoredEvent(file: "c.wav", onset: 12, offset: 13.5, label: "personTalking"),
        ]
        #expect(try AnnotationTSV.parse(AnnotationTSV.format(events)) == events)
        let threeColumn = AnnotationTSV.format(events, includeFile: false)
        #expect(try AnnotationTSV.parse(threeColumn, defaultFile: "z").map(\.onset) == events.map(\.onset))
    }

    @Test("times are written in milliseconds, not with every binary digit of a computed time")
    func formatWritesMilliseconds() {
        // 1024 / 44100 * 37 and friends: times as a detector computes them from STFT hops.
        let hop = 512.0 / 44_100
        let events = [ScoredEvent(file: "x.wav", onset: hop * 37, offset: hop * 1001, label: "dogBark")]
        #expect(AnnotationTSV.format(events) == "x.wav\t0.430\t11.622\tdogBark\n")
        #expect(AnnotationTSV.format(events, includeFile: false) == "0.430\t11.622\tdogBark\n")
    }
}
