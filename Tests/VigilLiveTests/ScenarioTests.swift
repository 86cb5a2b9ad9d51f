import Foundation
import Testing
import VigilCore
import VigilSynth

@Suite("Scenario format and renderer")
struct ScenarioTests {
    @Test(arguments: ["knocks.json", "alarms.json", "imposters.json", "latency-bench.json"])
    func samplesDecodeAndRender(_ name: String) throws {
        let scenario = try LiveTestSupport.scenario(name)
        var renderer = try ScenarioRenderer(scenario: scenario)
        var count = 0
        var peak: Float = 0
        while !renderer.isFinished {
            let block = renderer.next(maxSamples: 4096)
            count += block.count
            for x in block { peak = max(peak, abs(x)) }
        }
        #expect(count == scenario.sampleCount)
        #expect(peak > 0.01 && peak < 1.5)
    }

    @Test func labelsFollowDefaultsAndOverrides() throws {
        let alarms = try LiveTestSupport.scenario("alarms.json")
        let labels = alarms.labels()
        #expect(labels.map(\.label) == ["smokeAlarm", "coAlarm"])
        // T3, 4 cycles of 4 s with ±2 % jitter, from 3 s: ends near 3 + 4 * 4 - 1.5.
        #expect(abs(labels[0].onset - 3.0) < 1e-9)
        #expect(abs(labels[0].offset - 17.5) < 0.5)
        // T4, 3 cycles of 5.8 s from 24 s: last beep ends at 24 + 2 * 5.8 + 0.7.
        #expect(abs(labels[1].offset - 36.3) < 1e-6)
        let imposters = try LiveTestSupport.scenario("imposters.json").labels()
        #expect(imposters.map(\.label) == ["microwave"])
        #expect(try LiveTestSupport.scenario("knocks.json").labels().allSatisfy { $0.label == "sound" })
    }

    @Test func renderingIsDeterministicAndIndependentOfBlockSize() throws {
        let json = #"""
            {"sampleRate": 16000, "duration": 6, "seed": 9,
             "background": {"noise": {"level": -50, "colour": "pink"}, "babble": {"level": -40, "voices": 2}},
             "items": [{"type": "t3", "start": 0.5, "cycles": 1, "waveform": "square", "jitter": 0.05},
                       {"type": "noise", "start": 4, "duration": 0.5, "colour": "brown"}]}
            """#
        let scenario = try Scenario.decode(Array(json.utf8))
        let whole = try ScenarioRenderer.render(scenario)
        var renderer = try ScenarioRenderer(scenario: scenario)
        var pieces: [Float] = []
        var size = 1
        while !renderer.isFinished {
            pieces += renderer.next(maxSamples: size)
            size = size * 3 % 10007 + 1
        }
        #expect(pieces == whole)
        #expect(try ScenarioRenderer.render(scenario) == whole)
        var reseeded = scenario
        reseeded.seed += 1
        #expect(try ScenarioRenderer.render(reseeded) != whole)
        // Rewind repeats exactly.
        var looped = try ScenarioRenderer(scenario: scenario)
        _ = looped.next(maxSamples: 50_000)
        looped.rewind()
        #expect(looped.next(maxSamples: 1000) == Array(whole[0..<1000]))
    }

    @Test func levelsAreRMSdBFS() throws {
        for colour in ["white", "pink", "brown"] {
            let json = #"{"sampleRate":16000,"duration":4,"background":{"noise":{"level":-30,"colour":"\#(colour)"}}}"#
            let samples = try ScenarioRenderer.render(try Scenario.decode(Array(json.utf8)))
            let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
            #expect(abs(20 * log10(rms) + 30) < 1.5, "\(colour): \(20 * log10(rms)) dBFS")
        }
        let tone = #"{"sampleRate":16000,"duration":1,"items":[{"type":"tone","start":0,"duration":1,"frequency":1000,"level":-20}]}"#
        let samples = try ScenarioRenderer.render(try Scenario.decode(Array(tone.utf8)))
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        #expect(abs(20 * log10(rms) + 20) < 0.2)
        let babble = #"{"sampleRate":16000,"duration":6,"background":{"babble":{"level":-35}}}"#
        let b = try ScenarioRenderer.render(try Scenario.decode(Array(babble.utf8)))
        let brms = (b.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(b.count)).squareRoot()
        #expect(abs(20 * log10(brms) + 35) < 3)
    }

    @Test func clipsAreInsertedAtTheirStart() throws {
        let json = #"{"sampleRate":8000,"duration":1,"items":[{"type":"clip","path":"x.wav","start":0.5,"gain":-6,"label":"dogBark"}]}"#
        let scenario = try Scenario.decode(Array(json.utf8))
        #expect(scenario.clipPaths == ["x.wav"])
        let samples = try ScenarioRenderer.render(scenario, clips: ["x.wav": [1, 1, 1]])
        #expect(samples[3999] == 0)
        #expect(abs(samples[4000] - 0.501) < 0.001)
        #expect(samples[4003] == 0)
        #expect(scenario.labels(clipDurations: ["x.wav": 3.0 / 8000]).first?.label == "dogBark")
        #expect(throws: ScenarioError.self) { try ScenarioRenderer(scenario: scenario, clips: [:]) }
    }

    @Test func validationErrorsNameTheJSONPath() {
        func problems(_ json: String) -> [String] {
            do {
                _ = try Scenario.decode(Array(json.utf8))
                return []
            } catch {
                return error.problems.map(\.path)
            }
        }
        #expect(problems("{") == [""])
        #expect(problems(#"{"sampleRate":16000}"#) == ["duration"])
        #expect(problems(#"{"duration":5,"sampleRate":100}"#) == ["sampleRate"])
        #expect(problems(#"{"duration":5,"items":[{"type":"t5","start":1}]}"#) == ["items[0].type"])
        #expect(problems(#"{"duration":5,"items":[{"type":"t3","start":1,"frequency":9000}]}"#) == ["items[0].frequency"])
        #expect(problems(#"{"duration":5,"items":[{"type":"tone","start":1,"frequency":440}]}"#) == ["items[0].duration"])
        #expect(problems(#"{"duration":5,"items":[{"type":"t4","start":6}]}"#) == ["items[0].start"])
        #expect(problems(#"{"duration":5,"items":[{"type":"t4","start":1,"snr":20}]}"#) == ["items[0].snr"])
        #expect(problems(#"{"duration":5,"items":[{"type":"noise","start":1,"duration":1,"colour":"blue"}]}"#) == ["items[0].colour"])
        #expect(
            problems(#"{"duration":5,"items":[{"type":"t3","start":1,"jitter":0.9,"bogus":1}]}"#) == ["items[0].bogus", "items[0].jitter"])
        #expect(problems(#"{"duration":5,"background":{"noise":{"colour":"pink"}}}"#) == ["background.noise.level"])
        #expect(problems(#"{"duration":5,"items":[{"type":"clip","start":1}]}"#) == ["items[0].path"])
    }
}
