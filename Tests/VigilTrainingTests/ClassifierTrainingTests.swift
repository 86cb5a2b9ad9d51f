import Foundation
import Testing
import VigilScoring
import VigilTraining

/// The rules that decide what each training decision teaches (``ClassifierTraining/targetsAndWeights(_:)``), on the
/// features of a synthesized recording: a quiet hum with a loud 1 kHz tone from 1.0 to 1.6 s.
@Suite("Training decisions: targets and weights")
struct ClassifierTrainingTests {
    static let rate = 44_100.0

    /// 4 s of a quiet, steady 120 Hz hum (its bands stay at their floor) with a loud tone at 1.0-1.6 s.
    static let samples: [Float] = (0..<Int(4 * rate)).map { i in
        let t = Double(i) / rate
        let tone = t >= 1.0 && t < 1.6 ? 0.3 * sin(2 * Double.pi * 1_000 * t) : 0
        return Float(tone + 0.003 * sin(2 * Double.pi * 120 * t))
    }

    static func features(_ name: String) -> RecordingFeatures {
        SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: rate)
    }

    static func training(
        _ events: [LabelEvent], options: TrainingOptions = TrainingOptions(), partlyLabelled: Set<String> = [],
        voices: VoiceBackground = .none
    ) -> ClassifierTraining {
        ClassifierTraining(
            recordings: [], eventsByFile: Dictionary(grouping: events, by: \.file), options: options, ignored: voices,
            partlyLabelled: partlyLabelled, backgroundOf: [:], seed: 1)
    }

    /// Decisions whose centre lies in `range`, as (target, weight).
    static func decisions(_ rec: RecordingFeatures, _ training: ClassifierTraining, in range: ClosedRange<Double>) -> [(Float, Float)] {
        let (targets, weights) = training.targetsAndWeights(rec)
        return rec.centerTimes.indices.filter { range.contains(rec.centerTimes[$0]) }.map { (targets[$0], weights[$0]) }
    }

    @Test("inside an active event a decision teaches the label; inside a quiet one it is left out; outside, a negative")
    func activityRule() {
        let rec = Self.features("scene.wav")
        let events = [
            LabelEvent(file: "scene.wav", onset: 1.0, offset: 1.6, label: "dogBark"),
            LabelEvent(file: "scene.wav", onset: 2.6, offset: 3.2, label: "dogBark"),
        ]
        let training = Self.training(events)
        let loud = Self.decisions(rec, training, in: 1.15...1.45)
        let quiet = Self.decisions(rec, training, in: 2.75...3.05)
        let outside = Self.decisions(rec, training, in: 0.2...0.7)
        #expect(!loud.isEmpty && !quiet.isEmpty && !outside.isEmpty)
        #expect(loud.allSatisfy { $0 == (1, 1) })
        #expect(quiet.allSatisfy { $0 == (1, 0) })
        #expect(outside.allSatisfy { $0 == (0, 1) })
    }

    @Test("an augmented copy shares its item's events; a boundary margin leaves the decisions near the event's ends out")
    func copiesAndMargin() {
        let events = [LabelEvent(file: "scene.wav", onset: 1.0, offset: 1.6, label: "dogBark")]
        let original = Self.training(events).targetsAndWeights(Self.features("scene.wav"))
        let copy = Self.training(events).targetsAndWeights(Self.features("scene.wav#2"))
        #expect(copy.targets == original.targets && copy.weights == original.weights)

        var options = TrainingOptions()
        options.boundaryMargin = 0.1
        let rec = Self.features("scene.wav")
        let margined = Self.training(events, options: options)
        #expect(Self.decisions(rec, margined, in: 0.92...1.08).allSatisfy { $0.1 == 0 })
        #expect(Self.decisions(rec, margined, in: 1.52...1.68).allSatisfy { $0.1 == 0 })
        #expect(Self.decisions(rec, margined, in: 1.2...1.4).allSatisfy { $0 == (1, 1) })
    }

    @Test(
        "a partly labelled clip teaches only its events; a negative clip and a development positive count their weights; voices are left out"
    )
    func clipsAndVoices() {
        let clip = TrainingClip.namePrefix + "bark.flac"
        let region = [LabelEvent(file: clip, onset: 1.0, offset: 1.6, label: "dogBark")]
        let partly = Self.training(region, partlyLabelled: [clip])
        let rec = Self.features(clip)
        #expect(Self.decisions(rec, partly, in: 1.15...1.45).allSatisfy { $0 == (1, 1) })
        #expect(Self.decisions(rec, partly, in: 2.0...3.5).allSatisfy { $0 == (0, 0) })

        var options = TrainingOptions()
        options.negativeClipWeight = 3
        let negative = Self.features(TrainingClip.namePrefix + "cat.flac")
        #expect(Self.decisions(negative, Self.training([], options: options), in: 0...4).allSatisfy { $0 == (0, 3) })
        // A development file's negatives keep weight 1 whatever the clips' weight.
        #expect(Self.decisions(Self.features("street.wav"), Self.training([], options: options), in: 0...4).allSatisfy { $0 == (0, 1) })

        // The development files' positives count their weight; a clip's activity regions and every negative keep 1.
        var strong = TrainingOptions()
        strong.developmentPositiveWeight = 3
        let bark = [LabelEvent(file: "scene.wav", onset: 1.0, offset: 1.6, label: "dogBark")]
        let scene = Self.features("scene.wav")
        #expect(Self.decisions(scene, Self.training(bark, options: strong), in: 1.15...1.45).allSatisfy { $0 == (1, 3) })
        #expect(Self.decisions(scene, Self.training(bark, options: strong), in: 2.0...3.5).allSatisfy { $0 == (0, 1) })
        let clipRegion = Self.training(region, options: strong, partlyLabelled: [clip])
        #expect(Self.decisions(rec, clipRegion, in: 1.15...1.45).allSatisfy { $0 == (1, 1) })

        let voices = VoiceBackground(regions: ["street.wav": [2.0...3.0]])
        let street = Self.features("street.wav")
        let voiced = Self.training([], voices: voices)
        #expect(Self.decisions(street, voiced, in: 2.1...2.9).allSatisfy { $0 == (0, 0) })
        #expect(Self.decisions(street, voiced, in: 0.2...1.8).allSatisfy { $0 == (0, 1) })
    }
}
