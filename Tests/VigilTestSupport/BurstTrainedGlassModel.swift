import VigilCore
import VigilInference
import VigilSynth
import VigilTraining

/// A glassBreak model trained by the test support itself on loud white-noise bursts over pink noise
/// (each an impact followed by broadband energy above 4.5 kHz, which passes the impact-then-shatter
/// gate), at 16 and 44.1 kHz. It is a real learned detector whose detections a synthesized signal
/// makes, for the tests of how learned detections are reported (started at confirmation, complete at
/// the end). The shipped glassBreak model is trained to take such bursts for noise, not glass.
package enum BurstTrainedGlassModel {
    /// The burst scene the model learns: pink noise at -60 dBFS with a 0.3 s white-noise burst at
    /// -14 dBFS every 3 s from `first`, and the bursts' spans.
    package static func scene(rate: Double, seconds: Double, first: Double, seed: UInt64) -> (
        samples: [Float], bursts: [(onset: Double, offset: Double)]
    ) {
        var generator = SeededGenerator(seed: seed)
        var signal = SignalBuffer(sampleRate: rate, duration: seconds)
        signal.addPinkNoise(dBFS: -60, generator: &generator)
        var bursts: [(Double, Double)] = []
        var start = first
        while start + 0.3 < seconds - 1 {
            signal.addNoise(dBFS: -14, start: start, duration: 0.3, generator: &generator)
            bursts.append((start, start + 0.3))
            start += 3
        }
        return (signal.samples, bursts)
    }

    /// The model (trained once per process; deterministic).
    package static let model: SoundModel = {
        var recordings: [RecordingFeatures] = []
        var annotations: [LabelEvent] = []
        var validation: Set<String> = []
        for (k, rate) in [16_000.0, 44_100.0].enumerated() {
            for part in 0..<3 {
                let name = "bursts-\(Int(rate))-\(part)"
                let (samples, bursts) = scene(rate: rate, seconds: 24, first: 1 + 0.5 * Double(part), seed: UInt64(10 * k + part + 1))
                recordings.append(SoundModelTrainer.extractFeatures(name: name, samples: samples, sampleRate: rate))
                annotations += bursts.map { LabelEvent(file: name, onset: $0.onset, offset: $0.offset, label: "glassBreak") }
                if part == 2 { validation.insert(name) }
            }
        }
        return SoundModelTrainer.train(
            label: "glassBreak", recordings: recordings, annotations: annotations, validation: validation, voiceBackground: .none,
            seed: 7
        ).model
    }()
}
