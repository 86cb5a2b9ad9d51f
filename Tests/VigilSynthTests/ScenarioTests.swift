import Foundation
import Testing
import VigilCore
import VigilSynth

/// RMS level (dBFS, a full-scale sine at -3 dBFS) of `samples[range]`.
func rmsDBFS(_ samples: [Float], _ range: Range<Int>) -> Double {
    var sum = 0.0
    for i in range { sum += Double(samples[i]) * Double(samples[i]) }
    return 10 * log10(max(sum / Double(range.count), 1e-30))
}

@Suite("Scenarios")
struct ScenarioTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the sample scenario of knocks decodes, labels every item as sound, and renders at its levels")
    func knocks() throws {
        let bytes = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Samples/scenarios/knocks.json"))
        let scenario = try Scenario.decode(bytes)
        #expect(scenario.sampleRate == 16_000 && scenario.duration == 20 && scenario.items.count == 6)
        let labels = scenario.labels()
        #expect(labels.map(\.label) == Array(repeating: "sound", count: 6))
        #expect(labels.map(\.onset) == [1.5, 4.0, 7.0, 10.25, 13.0, 16.0])
        #expect(labels[2].offset == 7.5)
        let samples = try ScenarioRenderer.render(scenario)
        #expect(samples.count == scenario.sampleCount)
        // The 1 kHz tone at -18 dBFS (7.0-7.5 s) over pink noise at -60 dBFS; quiet between items.
        let tone = rmsDBFS(samples, 7 * 16_000 + 800..<Int(7.5 * 16_000) - 800)
        #expect(abs(tone - -18) < 0.5, "tone at \(tone) dBFS")
        let quiet = rmsDBFS(samples, 8 * 16_000..<10 * 16_000)
        #expect(abs(quiet - -60) < 1.5, "background at \(quiet) dBFS")
    }

    @Test("rendering is deterministic: the same seed gives the same samples, another seed other noise")
    func determinism() throws {
        let json: JSONValue = [
            "sampleRate": 16000, "duration": 2, "seed": 5, "background": ["noise": ["level": -40, "colour": "white"]],
            "items": [["type": "noise", "start": 0.5, "duration": 0.5, "level": -20]],
        ]
        let scenario = try Scenario.decode(json: json)
        let first = try ScenarioRenderer.render(scenario)
        #expect(try ScenarioRenderer.render(scenario) == first)
        var other = scenario
        other.seed = 6
        #expect(try ScenarioRenderer.render(other) != first)
        // Streaming in blocks gives the same samples as rendering at once.
        var renderer = try ScenarioRenderer(scenario: scenario)
        var streamed: [Float] = []
        while !renderer.isFinished { streamed += renderer.next(maxSamples: 777) }
        #expect(streamed == first)
    }

    @Test("every problem of a scenario is reported with its JSON path")
    func problems() {
        let json: JSONValue = [
            "sampleRate": "fast", "duration": -1,
            "items": [["type": "tone", "start": 0, "duration": 1, "frequency": 1000, "level": -20, "volume": 3], ["type": "kazoo"]],
        ]
        do {
            _ = try Scenario.decode(json: json)
            Issue.record("accepted an invalid scenario")
        } catch {
            let paths = Set(error.problems.map(\.path))
            #expect(paths.contains("sampleRate"), "\(error)")
            #expect(paths.contains("duration"), "\(error)")
            #expect(paths.contains("items[0].volume"), "\(error)")
            #expect(paths.contains { $0.hasPrefix("items[1]") }, "\(error)")
        }
    }
}

@Suite("SignalBuffer")
struct SignalBufferTests {
    @Test("a tone has its RMS level; a temporal-three pattern beeps three times per cycle")
    func toneAndPattern() {
        var buffer = SignalBuffer(sampleRate: 16_000, duration: 10)
        buffer.addTone(frequency: 440, start: 1, duration: 2, dBFS: -12)
        #expect(abs(rmsDBFS(buffer.samples, 16_100..<47_900) - -12) < 0.1)
        #expect(buffer.samples[..<16_000].allSatisfy { $0 == 0 })

        var alarm = SignalBuffer(sampleRate: 16_000, duration: 10)
        let span = alarm.addTemporalThree(start: 1, cycles: 1, dBFS: -20)
        #expect(span.start == 1)
        // Beeps 1.0-1.5, 2.0-2.5, 3.0-3.5 s; silence between them.
        for beep in 0..<3 {
            let on = 16_000 + beep * 16_000
            #expect(abs(rmsDBFS(alarm.samples, on + 800..<on + 7_200) - -20) < 0.2, "beep \(beep)")
            #expect(rmsDBFS(alarm.samples, on + 8_800..<on + 15_200) < -100, "after beep \(beep)")
        }
        #expect(span.end >= 3.5 && span.end <= 5.5, "\(span)")
    }
}
