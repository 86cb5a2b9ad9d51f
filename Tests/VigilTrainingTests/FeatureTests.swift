import Foundation
import Testing
import VigilCore
import VigilDSP
import VigilInference
import VigilScoring
import VigilSynth
import VigilTraining

/// Decision vectors of `samples` (all of them, in order).
func decisionVectors(_ samples: [Float], rate: Double) -> [[Float]] {
    let configuration = STFTConfiguration.standard(sampleRate: rate)
    let stft = ShortTimeFourierTransform(configuration: configuration)
    let extractor = SoundFeatureExtractor(configuration: configuration)
    var out: [[Float]] = []
    samples.withUnsafeBufferPointer { b in
        stft.process(b) { extractor.process($0) { out.append(Array($0.vector)) } }
    }
    stft.finish { extractor.process($0) { out.append(Array($0.vector)) } }
    extractor.finish { out.append(Array($0.vector)) }
    return out
}

/// Per-frame measurements of `samples`, averaged over the frames from 0.5 s on.
func meanMeasurements(_ samples: [Float], rate: Double) -> [Float] {
    let configuration = STFTConfiguration.standard(sampleRate: rate)
    let stft = ShortTimeFourierTransform(configuration: configuration)
    let m = FrameMeasurements(configuration: configuration, spec: .current)
    var sum = [Float](repeating: 0, count: m.count)
    var n: Float = 0
    samples.withUnsafeBufferPointer { b in
        stft.process(b) { frame in
            m.measure(frame)
            if frame.startTime >= 0.5 {
                for i in 0..<m.count { sum[i] += m.values[i] }
                n += 1
            }
        }
    }
    return sum.map { $0 / n }
}

func harmonicTone(_ f0: Double, rate: Double, seconds: Double, harmonics: Int = 12) -> [Float] {
    var s = SignalBuffer(sampleRate: rate, duration: seconds)
    for h in 1...harmonics where Double(h) * f0 < rate / 2 {
        s.addTone(frequency: f0 * Double(h), start: 0, duration: seconds, dBFS: -20 - 2 * Double(h))
    }
    return s.samples
}

@Suite("Sound features")
struct FeatureTests {
    static let rate = 44_100.0
    let spec = FeatureSpec.current
    var harmonicityIndex: Int { spec.melBands + 3 }
    var flatnessIndex: Int { spec.melBands + 2 }

    @Test(
        "the detectors' feature stream, fed the shared STFT's frames, gives bit for bit the decisions and per-frame values of the training extraction, on either kind of frames",
        arguments: [8_000.0, 16_000, 22_050, 32_000, 44_100, 48_000], FeatureFrames.allCases)
    func streamMatchesTraining(rate: Double, frames: FeatureFrames) {
        var gen = SeededGenerator(seed: 11)
        var s = SignalBuffer(sampleRate: rate, duration: 3.3)
        s.addNoise(dBFS: -50, generator: &gen)
        for h in 1...5 { s.addTone(frequency: 220 * Double(h), start: 0.7, duration: 0.8, dBFS: -18 - 3 * Double(h)) }
        s.addNoise(dBFS: -15, start: 2.0, duration: 0.3, generator: &gen)
        let training = SoundModelTrainer.extractFeatures(name: "x", samples: s.samples, sampleRate: rate, frames: frames)
        let shared = STFTConfiguration.standard(sampleRate: rate)
        let stft = ShortTimeFourierTransform(configuration: shared)
        let stream = SharedFeatureStream(configuration: shared, frames: frames)
        var centers: [Double] = []
        var matrix: [Float] = []
        var frameTimes: [Double] = []
        var gate: [Float] = []
        let nb = FeatureSpec.current.melBands
        func collect(_ decisions: [(centerTime: Double, availableTime: Double, vector: [Float])]) {
            for d in decisions {
                centers.append(d.centerTime)
                matrix += d.vector
            }
            let n = stream.columnCount
            for (k, t) in stream.measuredTimes.enumerated() {
                frameTimes.append(t)
                let b = k * n + nb
                gate += [1, 2, 6, 9, 11].map { stream.measuredColumns[b + $0] }
            }
        }
        s.samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(1_000, all.count - i)
                stft.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)])) { collect(stream.advance($0)) }
                i += n
            }
        }
        stft.finish { collect(stream.advance($0)) }
        collect(stream.finish())
        #expect(!training.centerTimes.isEmpty && centers == training.centerTimes && matrix == training.matrix)
        #expect(frameTimes == training.frameTimes && gate == training.gateValues)
        // Fixed-duration frames are 1024/44100 s apart by half at every rate; shared ones are the STFT's own.
        let hop = frameTimes[1] - frameTimes[0]
        let expected = frames.configuration(sampleRate: rate).hopDuration
        #expect(abs(hop - expected) < 1e-9)
        if frames == .fixedDuration { #expect(abs(hop - 512 / 44_100) < 0.5 / rate) }
    }

    @Test(
        "detectors share one feature stream where their models' frames are the same (11.025, 22.05, 44.1 kHz) and get two where they differ",
        arguments: [(8_000.0, false), (11_025, true), (16_000, false), (22_050, true), (32_000, false), (44_100, true), (48_000, false)])
    func streamSharing(rate: Double, shared: Bool) {
        let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
        var checked = false
        let samples = [Float](repeating: 0.01, count: 4_096)
        samples.withUnsafeBufferPointer { b in
            stft.process(b) { frame in
                guard !checked else { return }
                checked = true
                let a = SharedFeatureStream.stream(for: frame, frames: .shared)
                let f = SharedFeatureStream.stream(for: frame, frames: .fixedDuration)
                #expect((a === f) == shared)
                #expect(SharedFeatureStream.stream(for: frame, frames: .fixedDuration) === f)
                #expect(SharedFeatureStream.stream(for: frame, frames: .shared) === a)
            }
        }
        #expect(checked)
    }

    @Test("a harmonic tone is harmonic, white noise is not")
    func harmonicity() {
        var gen = SeededGenerator(seed: 7)
        var noise = SignalBuffer(sampleRate: Self.rate, duration: 2)
        noise.addNoise(dBFS: -20, generator: &gen)
        for f0 in [120.0, 220.0, 400.0] {
            let tone = meanMeasurements(harmonicTone(f0, rate: Self.rate, seconds: 2), rate: Self.rate)
            #expect(tone[harmonicityIndex] > 0.5, "f0 \(f0): \(tone[harmonicityIndex])")
        }
        let n = meanMeasurements(noise.samples, rate: Self.rate)
        #expect(n[harmonicityIndex] < 0.3, "noise: \(n[harmonicityIndex])")
    }

    @Test("white noise is flat, a tone is not")
    func flatness() {
        var gen = SeededGenerator(seed: 8)
        var noise = SignalBuffer(sampleRate: Self.rate, duration: 2)
        noise.addNoise(dBFS: -20, generator: &gen)
        var tone = SignalBuffer(sampleRate: Self.rate, duration: 2)
        tone.addTone(frequency: 1000, start: 0, duration: 2, dBFS: -20)
        let n = meanMeasurements(noise.samples, rate: Self.rate)[flatnessIndex]
        let t = meanMeasurements(tone.samples, rate: Self.rate)[flatnessIndex]
        // log10(geometric / arithmetic mean) of the band energies: 0 for a flat spectrum.
        #expect(n > -0.5, "noise flatness \(n)")
        #expect(t < -1.5, "tone flatness \(t)")
    }

    @Test("4 Hz amplitude modulation shows in the modulation feature")
    func modulation() {
        var gen = SeededGenerator(seed: 9)
        var steady = SignalBuffer(sampleRate: Self.rate, duration: 4)
        steady.addNoise(dBFS: -25, generator: &gen)
        var modulated = steady
        for i in 0..<modulated.samples.count {
            let t = Double(i) / Self.rate
            modulated.samples[i] *= Float(0.5 + 0.5 * sin(2 * Double.pi * 4 * t))
        }
        let index = spec.componentNames.firstIndex(of: "mod4Hz")!
        let steadyMod = decisionVectors(steady.samples, rate: Self.rate).dropFirst(20).dropLast(20).map { $0[index] }
        let mod = decisionVectors(modulated.samples, rate: Self.rate).dropFirst(20).dropLast(20).map { $0[index] }
        let a = steadyMod.reduce(0, +) / Float(steadyMod.count)
        let b = mod.reduce(0, +) / Float(mod.count)
        #expect(b > 0.5, "modulated: \(b)")
        #expect(a < 0.3, "steady: \(a)")
    }

    @Test("decision vectors come every stride frames with the spec's dimension, at any rate", arguments: [16_000.0, 44_100.0, 96_000.0])
    func shape(rate: Double) {
        var gen = SeededGenerator(seed: 10)
        var s = SignalBuffer(sampleRate: rate, duration: 3)
        s.addNoise(dBFS: -30, generator: &gen)
        let v = decisionVectors(s.samples, rate: rate)
        let configuration = STFTConfiguration.standard(sampleRate: rate)
        let frames = Int((Double(s.samples.count - configuration.fftSize) / Double(configuration.hopSize)).rounded(.down)) + 1
        #expect(abs(v.count - (frames + spec.decisionStride - 1) / spec.decisionStride) <= 1)
        #expect(v.allSatisfy { $0.count == spec.dimension && $0.allSatisfy(\.isFinite) })
    }

    @Test("validation scoring uses VigilScoring (sed_eval): optimal onset matching, 1 s segments, false alarms per hour")
    func scoring() {
        let ref = [
            LabelEvent(file: "a", onset: 1.0, offset: 2.0, label: "x"), LabelEvent(file: "a", onset: 1.3, offset: 2.0, label: "x"),
            LabelEvent(file: "a", onset: 5.0, offset: 6.0, label: "x"),
        ]
        func tracked(_ on: Double, _ off: Double) -> TrackedEvent {
            TrackedEvent(onset: on, offset: off, detectedAt: off, peakProbability: 1, meanProbability: 1)
        }
        let found = ["a": [tracked(1.45, 1.6), tracked(0.6, 1.0), tracked(8.0, 9.0)], "neg": [tracked(2, 3)], "voices": [tracked(1, 2)]]
        let recordings = ["a", "neg", "voices"].map { RecordingFeatures(name: $0, duration: $0 == "a" ? 10 : 1800, sampleRate: 44_100) }
        let fig = SoundModelTrainer.score(
            label: "x", found: found, recordings: recordings, annotations: ref, ignoring: VoiceBackground(regions: ["voices": [0...1800]]))
        // Optimal matching: 0.6 ↔ 1.0 and 1.45 ↔ 1.3 (a greedy match of 1.45 ↔ 1.0 would leave 0.6 unmatched).
        // "neg" adds one insertion; "voices" is voice background throughout: its detection and its hours are left out.
        #expect(fig.event.truePositives == 2 && fig.event.falsePositives == 2 && fig.event.falseNegatives == 1)
        #expect(abs(fig.event.f1 - 4.0 / 7.0) < 1e-12)
        // ref segments {1, 5}; est segments {0, 1, 8} in "a" and {2} in "neg".
        #expect(fig.segment.truePositives == 1 && fig.segment.falsePositives == 3 && fig.segment.falseNegatives == 1)
        #expect(fig.negativeFalseAlarms == 1 && abs(fig.negativeHours - 0.5) < 1e-12 && fig.falseAlarmsPerHour == 2)
    }

    @Test("the sensitivity step lets level 10 reach the threshold with the best F1 below level 5's, and is never under 0.4")
    func sensitivityStep() {
        let grid = [0.2, 0.3, 0.4, 0.5, 0.7, 0.9, 0.97, 0.99]
        func step(_ f1: [Double], threshold: Double = 0.99) -> Double {
            SoundModelTrainer.sensitivityStep(threshold: threshold, candidates: Array(zip(grid, f1)))
        }
        func levelTen(_ step: Double, threshold: Double = 0.99) -> Double {
            var d = DecisionParameters(threshold: threshold, mergeGapSeconds: 0.5)
            d.sensitivityLogitStep = step
            return d.threshold(for: Sensitivity(10))
        }
        // Nothing below level 5's threshold does better: the plain step.
        #expect(step([0.3, 0.35, 0.4, 0.42, 0.44, 0.46, 0.47, 0.474]) == 0.4)
        #expect(step([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]) == 0.4)
        #expect(SoundModelTrainer.sensitivityStep(threshold: 0.99, candidates: []) == 0.4)
        // The best F1 at 0.40 (the dogBark case): logit(0.99) - logit(0.40) = 5.00 over five levels.
        let dog = step([0.55, 0.57, 0.583, 0.58, 0.56, 0.5, 0.48, 0.474])
        #expect(dog == 1.0)
        #expect(abs(levelTen(dog) - 0.40) < 0.005, "\(levelTen(dog))")
        // Equal F1 at several thresholds: the highest of them (the fewest detections).
        #expect(step([0.6, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.474]) == step([0.1, 0.1, 0.6, 0.5, 0.5, 0.5, 0.5, 0.474]))
        // A better F1 close under the threshold: level 10 with 0.4 already goes lower, so 0.4.
        #expect(step([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.6, 0.5]) == 0.4)
        #expect(levelTen(0.4) < 0.97)
        // Thresholds above level 5's never count; a NaN F1 (no events at all) is skipped.
        #expect(step([.nan, .nan, .nan, .nan, .nan, .nan, .nan, .nan], threshold: 0.2) == 0.4)
        #expect(step([.nan, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3], threshold: 0.5) == 0.4)
    }

    @Test("onsets 0.35 s off pass the 0.5 s collar but not sed_eval's default; the grid's ties go to the closer onsets")
    func closeOnsetsBreakTies() {
        let ref = [LabelEvent(file: "a", onset: 1.0, offset: 2.0, label: "x"), LabelEvent(file: "b", onset: 1.0, offset: 2.0, label: "x")]
        func tracked(_ on: Double, _ off: Double) -> TrackedEvent {
            TrackedEvent(onset: on, offset: off, detectedAt: off, peakProbability: 1, meanProbability: 1)
        }
        let recordings = ["a", "b"].map { RecordingFeatures(name: $0, duration: 10, sampleRate: 44_100) }
        // Close: both onsets within 0.05 s. Early: "b" starts 0.35 s early (an onset walked back into
        // the sound before the event).
        let close = SoundModelTrainer.score(
            label: "x", found: ["a": [tracked(1.05, 2.0)], "b": [tracked(0.98, 1.95)]], recordings: recordings, annotations: ref)
        let early = SoundModelTrainer.score(
            label: "x", found: ["a": [tracked(1.05, 2.0)], "b": [tracked(0.65, 1.95)]], recordings: recordings, annotations: ref)
        #expect(close.event.truePositives == 2 && early.event.truePositives == 2 && close.event.f1 == early.event.f1)
        #expect(close.eventSedEvalDefault.truePositives == 2 && close.eventSedEvalDefault.f1 == 1)
        #expect(early.eventSedEvalDefault.truePositives == 1 && early.eventSedEvalDefault.falsePositives == 1)
        // The event objective prefers the close onsets on that tie; a whole event still outweighs it.
        let missed = SoundModelTrainer.score(
            label: "x", found: ["a": [tracked(1.05, 2.0)], "b": []], recordings: recordings, annotations: ref)
        #expect(SoundModelTrainer.objective(close, segmentObjective: false) > SoundModelTrainer.objective(early, segmentObjective: false))
        #expect(SoundModelTrainer.objective(early, segmentObjective: false) > SoundModelTrainer.objective(missed, segmentObjective: false))
        // The segment objective (personTalking) has no tie-break: equal segments, equal objective.
        #expect(close.segment == early.segment)
        #expect(SoundModelTrainer.objective(close, segmentObjective: true) == SoundModelTrainer.objective(early, segmentObjective: true))
    }

    @Test("voice background: a detection starting in it is not counted unless it overlaps a reference")
    func voiceBackgroundScoring() {
        let ref = [
            LabelEvent(file: "a", onset: 1.0, offset: 2.0, label: "x"), LabelEvent(file: "a", onset: 5.0, offset: 6.0, label: "x"),
        ]
        func tracked(_ on: Double, _ off: Double) -> TrackedEvent {
            TrackedEvent(onset: on, offset: off, detectedAt: off, peakProbability: 1, meanProbability: 1)
        }
        // In "a": 8.0 starts in voice background and overlaps no reference (left out); 5.2 starts in
        // voice background but overlaps the reference at 5.0 (kept, a hit). In "neg": 100 s of its
        // 3600 s are voice background; 10 is a false alarm, 2010 is not.
        let found = [
            "a": [tracked(1.1, 1.8), tracked(8.0, 9.0), tracked(5.2, 5.8)], "neg": [tracked(10, 11), tracked(2010, 2011)],
        ]
        let voices = VoiceBackground(regions: ["a": [7.5...9.5, 4.5...5.5], "neg": [2000...2100]])
        let recordings = [
            RecordingFeatures(name: "a", duration: 10, sampleRate: 16_000),
            RecordingFeatures(name: "neg", duration: 3600, sampleRate: 16_000),
        ]
        let fig = SoundModelTrainer.score(label: "x", found: found, recordings: recordings, annotations: ref, ignoring: voices)
        #expect(fig.event.truePositives == 2 && fig.event.falsePositives == 1 && fig.event.falseNegatives == 0)
        // Segments: reference {1, 5}; kept detections {1, 5} in "a" and {10} in "neg".
        #expect(fig.segment.truePositives == 2 && fig.segment.falsePositives == 1 && fig.segment.falseNegatives == 0)
        #expect(fig.negativeFalseAlarms == 1 && abs(fig.negativeHours - 3500.0 / 3600) < 1e-12)
        // Without the regions, both voice detections count against the label.
        let plain = SoundModelTrainer.score(label: "x", found: found, recordings: recordings, annotations: ref)
        #expect(plain.event.falsePositives == 3 && plain.negativeFalseAlarms == 2 && plain.negativeHours == 1)
        #expect(voices.coveredSeconds(file: "a", duration: 10) == 3 && voices.coveredSeconds(file: "b", duration: 10) == 0)
        #expect(voices.contains(file: "a", time: 8) && !voices.contains(file: "a", time: 7))
    }

    @Test("spectral shape: the same recording 20 dB louder has the same shape; another spectrum has another")
    func spectralShape() {
        let shape = spec.componentNames.firstIndex(of: "shape0")!
        func recording(_ f0: Double) -> [Float] {
            var gen = SeededGenerator(seed: 9)
            var s = SignalBuffer(sampleRate: Self.rate, duration: 3)
            s.addNoise(dBFS: -70, generator: &gen)
            for h in 1...10 { s.addTone(frequency: f0 * Double(h), start: 1, duration: 1.5, dBFS: -30 - 3 * Double(h)) }
            return s.samples
        }
        // The decision centred in the sound (1.75 s): its shape values.
        func shapeValues(_ samples: [Float]) -> [Float] {
            let v = decisionVectors(samples, rate: Self.rate)
            let centre = Int((1.75 - 1024.0 / 2 / Self.rate) / (512 / Self.rate)) / spec.decisionStride
            return Array(v[centre][shape..<(shape + spec.melBands)])
        }
        let low = recording(220)
        let quiet = shapeValues(low)
        let loud = shapeValues(low.map { $0 * 10 })
        let other = shapeValues(recording(900).map { $0 * 10 })
        let sameDistance = zip(quiet, loud).map { abs($0 - $1) }.max()!
        let otherDistance = zip(loud, other).map { abs($0 - $1) }.max()!
        // log10 units: 0.1 is 1 dB.
        #expect(sameDistance < 0.05, "same recording, 20 dB louder: \(sameDistance)")
        #expect(otherDistance > 1, "other spectrum: \(otherDistance)")
        // The bands above the shape range (8 kHz) are 0.
        let bank = MelFilterBank(
            configuration: .standard(sampleRate: Self.rate), bands: spec.melBands, minFrequency: spec.minFrequency,
            maxFrequency: spec.maxFrequency)
        for (b, c) in bank.centers.enumerated() where c >= spec.shapeMaxFrequency { #expect(loud[b] == 0) }
    }

    @Test("burst values: a 0.2 s bark-like burst is short, loud and harmonic; a noise burst is not harmonic; a steady sound is wide")
    func burstValues() {
        let names = spec.componentNames
        let activity = names.firstIndex(of: "burst.activity")!
        let harmonicity = names.firstIndex(of: "burst.harmonicity")!
        let width = names.firstIndex(of: "burst.width")!
        #expect(names.filter { $0.hasPrefix("burst.") }.count == 7 && names.count == spec.dimension)
        func values(_ build: (inout SignalBuffer, inout SeededGenerator) -> Void, at t: Double) -> [Float] {
            var gen = SeededGenerator(seed: 11)
            var s = SignalBuffer(sampleRate: Self.rate, duration: 3)
            s.addNoise(dBFS: -70, generator: &gen)
            build(&s, &gen)
            let v = decisionVectors(s.samples, rate: Self.rate)
            let centre = Int((t - 1024.0 / 2 / Self.rate) / (512 / Self.rate)) / spec.decisionStride
            return v[centre]
        }
        // A bark-like burst: harmonics of 450 Hz with a little noise, 1.5-1.7 s; decision at 1.6 s.
        let bark = values(
            { s, gen in
                for h in 1...8 { s.addTone(frequency: 450 * Double(h), start: 1.5, duration: 0.2, dBFS: -24 - 2 * Double(h)) }
                s.addNoise(dBFS: -45, start: 1.5, duration: 0.2, generator: &gen)
            }, at: 1.6)
        // A white-noise burst of the same length and place.
        let noise = values({ s, gen in s.addNoise(dBFS: -24, start: 1.5, duration: 0.2, generator: &gen) }, at: 1.6)
        // A steady tone from 0.5 s on, seen at 1.2 s: as active on every frame of the window.
        let steady = values({ s, _ in s.addTone(frequency: 700, start: 0.5, duration: 2.5, dBFS: -24) }, at: 1.2)
        #expect(bark[activity] > 2, "bark burst level over the floor (log10 units): \(bark[activity])")
        #expect(bark[width] > 0.12 && bark[width] < 0.3, "bark burst width: \(bark[width]) s")
        #expect(noise[width] > 0.12 && noise[width] < 0.3, "noise burst width: \(noise[width]) s")
        #expect(bark[harmonicity] > noise[harmonicity] + 0.2, "harmonicity bark \(bark[harmonicity]) noise \(noise[harmonicity])")
        #expect(steady[width] > 0.5, "steady tone width: \(steady[width]) s")
        #expect(bark.allSatisfy(\.isFinite) && noise.allSatisfy(\.isFinite) && steady.allSatisfy(\.isFinite))
    }

    @Test("voice background regions come from PROVENANCE: a clip's place and length, or the whole file")
    func voiceBackgroundRegions() {
        let text = """
            filename\trole\tsource_class\tsource_repo\toriginal_path\tlicense\tlocal_path\tsrc_start_s\tsrc_end_s\tout_start_s\tgain_db\tdetail
            scene_1.flac\tbackground\tnegative_children_playing\tr\to\tl\tus/children/1-2-0-0.wav\t0.500\t4.500\t10.000\t0\t
            scene_1.flac\tbackground\tnegative_vacuum\tr\to\tl\tv/vac.wav\t0\t5\t0\t0\t
            scene_1.flac\tbackground\tnegative_street_music\tr\to\tl\tus/music/3-9-0-0.wav\t0\t2.3\t27.7\t0\t
            neg_2.flac\tnegative_clip\tnegative_background_room\tr\to\tl\troom/a.wav\t\t\t\t0\t
            """
        let voices = DevelopmentSet.voiceBackground(provenance: DevelopmentSet.parseProvenance(text))
        #expect(voices.files == ["scene_1.flac", "neg_2.flac"])
        #expect(voices.regions["scene_1.flac"] == [10...14, 27.7...30.0])
        #expect(voices.contains(file: "scene_1.flac", time: 12) && !voices.contains(file: "scene_1.flac", time: 5))
        #expect(voices.contains(file: "neg_2.flac", time: 1000))
        #expect(abs(voices.coveredSeconds(file: "scene_1.flac", duration: 29) - 5.3) < 1e-9)
    }

    @Test("group keys join clips cut from one recording")
    func groupKeys() {
        #expect(DevelopmentSet.groupKey(localPath: "urbansound8k_x/dog_bark/155309-3-0-0.wav") == "us8k:155309")
        #expect(
            DevelopmentSet.groupKey(localPath: "t/negative_music/Vibe_Ace_005-015s.wav")
                == DevelopmentSet.groupKey(localPath: "t/negative_music/Vibe_Ace_015-025s.wav"))
        #expect(
            DevelopmentSet.groupKey(localPath: "m/glass_breaking/Room2_2_W13_1_000_000.wav")
                == DevelopmentSet.groupKey(localPath: "m/glass_breaking/Room2_2_W13_2_000_000.wav"))
        #expect(
            DevelopmentSet.groupKey(localPath: "m/glass_breaking/GBTD-01-01-LP-gb11_000.wav")
                != DevelopmentSet.groupKey(localPath: "m/glass_breaking/GBTD-01-01-LP-gb12_000.wav"))
    }
}
