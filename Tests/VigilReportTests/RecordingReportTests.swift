import Testing
import VigilDSP
import VigilImaging
import VigilReport
import VigilSynth

/// Feeds `samples` through an STFT into a spectrogram summary.
func summarize(_ samples: [Float], rate: Double, expected: Double, columns: Int = 1200) -> SpectrogramSummary {
    var summary = SpectrogramSummary(expectedDuration: expected, columns: columns)
    let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
    samples.withUnsafeBufferPointer { b in stft.process(b) { summary.add($0) } }
    stft.finish { summary.add($0) }
    return summary
}

@Suite("Spectrogram summary")
struct SpectrogramSummaryTests {
    @Test("a tone lights the band that holds its frequency, in the columns where it plays")
    func toneBand() throws {
        let rate = 16_000.0
        var s = SignalBuffer(sampleRate: rate, duration: 10)
        s.addTone(frequency: 1000, start: 4, duration: 2, dBFS: -10)
        let summary = summarize(s.samples, rate: rate, expected: 10, columns: 100)
        #expect(summary.columnCount == 100 || summary.columnCount == 101)
        let band = (0..<summary.bandCount).min {
            abs(summary.frequency(ofBand: $0, sampleRate: rate) - 1000) < abs(summary.frequency(ofBand: $1, sampleRate: rate) - 1000)
        }!
        let during = Int(5 / summary.secondsPerColumn)
        let before = Int(2 / summary.secondsPerColumn)
        #expect(summary.power(column: during, band: band) > 0.05)
        #expect(summary.power(column: before, band: band) < 1e-6)
        #expect(summary.maximumLevel(column: during)! > -15)
        #expect(summary.meanLevel(column: before) == -120)
    }

    @Test("memory stays bounded: a recording longer than expected merges columns")
    func boundedColumns() {
        let rate = 8_000.0
        var generator = SeededGenerator(seed: 4)
        var s = SignalBuffer(sampleRate: rate, duration: 60)
        s.addNoise(dBFS: -30, generator: &generator)
        let summary = summarize(s.samples, rate: rate, expected: 5, columns: 64)
        #expect(summary.columnCount <= 64)
        #expect(summary.secondsPerColumn * Double(summary.columnCount) >= 59)
        #expect(abs(summary.duration - 60) < 0.1)
        for c in 0..<summary.columnCount { #expect(summary.maximumLevel(column: c) != nil) }
    }
}

@Suite("Report pictures")
struct ReportPictureTests {
    @Test("the report draws event bars in their trigger colour at their times, with a detectedAt mark")
    func eventBars() throws {
        let rate = 16_000.0
        var s = SignalBuffer(sampleRate: rate, duration: 20)
        s.addTone(frequency: 3100, start: 5, duration: 4, dBFS: -20)
        let summary = summarize(s.samples, rate: rate, expected: 20)
        let report = RecordingReport(
            title: "TEST", spectrogram: summary, sampleRate: rate,
            events: [
                ReportEvent(trigger: "smokeAlarm", start: 5, end: 9, detectedAt: 7),
                ReportEvent(trigger: "sound", start: 12, end: 13, detectedAt: 12.1),
            ],
            duration: 20)
        let image = report.render()
        #expect(image.width == 1400)
        let plotWidth = 1400 - 150 - 24
        func x(_ t: Double) -> Int { 150 + Int(t / 20 * Double(plotWidth)) }
        // Find the smokeAlarm lane: the row where x(6) has the trigger colour.
        let red = TriggerPalette.color(for: "smokeAlarm")
        let row = try #require((0..<image.height).first { image.color(x: x(6), y: $0) == red })
        #expect(image.color(x: x(8.5), y: row) == red)
        #expect(image.color(x: x(10), y: row) != red)
        #expect(image.color(x: x(4.5), y: row) != red)
        // The detectedAt mark at 7 s is not the bar colour.
        #expect(image.color(x: x(7) + 1, y: row + 4) != red)
        // The sound event is in another lane.
        let blue = TriggerPalette.color(for: "sound")
        #expect((0..<image.height).contains { image.color(x: x(12.5), y: $0) == blue && $0 != row })
        let png = try PNGCodec.encode(image)
        #expect(PNGCodec.hasSignature(png))
    }

    @Test("the chart draws one bar per label and series, as high as the value")
    func chart() {
        let chart = ScoreChart(
            title: "F1", labels: ["dogBark", "glassBreak"],
            series: [ScoreChart.Series(name: "EVENT", values: ["dogBark": 0.5, "glassBreak": 1.0])])
        let image = chart.render()
        let brown = TriggerPalette.color(for: "dogBark")
        let heights = (0..<image.width).map { x in (0..<image.height).filter { image.color(x: x, y: $0) == brown }.count }
        let cyan = TriggerPalette.color(for: "glassBreak")
        let cyanHeights = (0..<image.width).map { x in (0..<image.height).filter { image.color(x: x, y: $0) == cyan }.count }
        #expect(abs(heights.max()! - 160) <= 2)
        #expect(abs(cyanHeights.max()! - 320) <= 2)
    }
}

@Suite("Score chart")
struct ScoreChartTests {
    @Test("every bar's value stands clear of its neighbours', even when both read 100")
    func valueLabelsDoNotTouch() {
        let chart = ScoreChart(
            title: "F1 per label", labels: ["dogBark", "smokeAlarm"],
            series: [
                ScoreChart.Series(name: "event F1", values: ["dogBark": 1, "smokeAlarm": 1]),
                ScoreChart.Series(name: "segment F1", values: ["dogBark": 1, "smokeAlarm": 1]),
            ])
        let image = chart.render()
        // The values of full bars sit in rows 60..<74 (20 px above the 100 % line at y = 80), right of the axis labels.
        let inked = (90..<image.width).map { x in
            (60..<74).contains { y in
                let c = image.color(x: x, y: y)
                return Int(c.red) + Int(c.green) + Int(c.blue) < 200
            }
        }
        // Runs of text columns, joined across the 2 px gaps between a label's own glyphs.
        var runs = 0
        var gap = Int.max
        for ink in inked {
            if ink {
                if gap >= 6 { runs += 1 }
                gap = 0
            } else if gap < Int.max {
                gap += 1
            }
        }
        #expect(runs == 4, "the four values ran into \(runs) blocks of text")
    }
}
