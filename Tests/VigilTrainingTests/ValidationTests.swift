import Foundation
import Testing
import VigilCore
import VigilDetectors
import VigilInference
import VigilTestSupport
import VigilTraining

/// The development files of the shipped models' validation part, run through the shipped detectors as a
/// stream would (shared STFT, registry, embedded models), scored with VigilScoring (sed_eval-exact). The
/// decision was chosen on this part (and glassBreak's full-band trees trained on it too), so its figures
/// overstate unseen recordings: the docs report the cross-validated figures, and this test guards
/// against regressions of the shipped detectors.
@Suite("Validation split", .serialized)
struct ValidationTests {
    @Test("regression floors on the validation split", .enabled(if: DevData.available, "needs ../shared/data"))
    func validation() throws {
        let dev = try DevData.load()
        // The development files of the shipped models' validation part (the same part for every model: one seed, one
        // set of folds over the development files and the clips), as their model files record it.
        let models = EventTriggerType.allCases.flatMap { trigger in
            [44_100.0, 16_000].compactMap { LearnedSoundDetector.shippedModel(for: trigger, sampleRate: $0) }
        }
        let parts = models.map { Set($0.training["validationPart"]?["files"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
        #expect(parts.count == 6 && Set(parts).count == 1)
        let files = dev.files.filter { parts.first?.contains($0) ?? false }
        #expect(!files.isEmpty)
        var found: [String: [String: [TrackedEvent]]] = [:]
        var seconds = 0.0
        let started = Date()
        for name in files {
            let audio = try DevData.loadAudio(DevData.devDirectory.appendingPathComponent("audio/\(name)").path)
            seconds += Double(audio.samples.count) / audio.sampleRate
            for d in runLearned(audio.samples, rate: audio.sampleRate) {
                found[d.trigger.rawValue, default: [:]][name, default: []].append(
                    TrackedEvent(onset: d.start, offset: d.end, detectedAt: d.detectedAt, peakProbability: d.confidence, meanProbability: 0)
                )
            }
        }
        let recordings = files.map { RecordingFeatures(name: $0, duration: dev.durations[$0] ?? 0, sampleRate: 44_100) }
        print("validation: \(files.count) files, \(Int(seconds)) s of audio in \(Date().timeIntervalSince(started)) s")
        print("label          eventF1(0.5s)  P      R      segF1(1s)  FA   negHours  FA/h")
        var figures: [String: ValidationFigures] = [:]
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let fig = SoundModelTrainer.score(
                label: label, found: found[label] ?? [:], recordings: recordings, annotations: dev.annotations,
                ignoring: label == "personTalking" ? dev.voiceBackground : .none)
            figures[label] = fig
            func f(_ x: Double) -> String { String(format: "%.3f", x) }
            print(
                "\(label.padding(toLength: 14, withPad: " ", startingAt: 0)) \(f(fig.event.f1))          \(f(fig.event.precision))  \(f(fig.event.recall))  \(f(fig.segment.f1))      \(fig.negativeFalseAlarms)    \(f(fig.negativeHours))     \(f(fig.falseAlarmsPerHour))"
            )
        }
        // Issue targets: dogBark and glassBreak event F1 >= 0.85, personTalking segment F1 >= 0.90.
        // Where a target is met it is asserted; where not yet, the measured floor is asserted so that
        // regressions fail, and the shortfall is printed.
        let targets: [(String, Double, Double, Bool)] = [
            ("dogBark", figures["dogBark"]!.event.f1, 0.85, false),
            ("glassBreak", figures["glassBreak"]!.event.f1, 0.85, true),
            ("personTalking", figures["personTalking"]!.segment.f1, 0.90, false),
        ]
        // Measured with the shipped models: dogBark 0.261 and personTalking 0.844, as their model files record for this
        // part (their cross-validated figures, 0.467 and 0.868, are under the targets too; docs/sound-models.md).
        let floors: [String: Double] = ["dogBark": 0.26, "personTalking": 0.84]
        for (label, value, target, met) in targets {
            print("\(label): \(String(format: "%.3f", value)) vs target \(target): \(value >= target ? "met" : "NOT MET")")
            if met {
                #expect(value >= target, "\(label) below its target")
            } else {
                #expect(value >= floors[label]!, "\(label) below its measured floor")
            }
        }
        // At most 1 false alarm per hour on the validation part's negatives: met by all three. The
        // cross-validated rates, on more and other negatives, are higher (docs/sound-models.md).
        for (label, fig) in figures {
            print(
                "\(label): \(fig.negativeFalseAlarms) false alarms in \(fig.negativeHours) h vs target 1/h: \(fig.falseAlarmsPerHour <= 1 ? "met" : "NOT MET")"
            )
            #expect(fig.falseAlarmsPerHour <= 1, "\(label): \(fig.negativeFalseAlarms) false alarms")
        }
    }
}
