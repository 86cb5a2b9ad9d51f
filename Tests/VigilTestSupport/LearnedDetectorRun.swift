import VigilCore
import VigilDSP
import VigilDetectors

/// Runs the learned detectors (shipped models) over `samples` through one shared STFT.
package func runLearned(
    _ samples: [Float], rate: Double, triggers: [EventTriggerType] = [.dogBark, .glassBreak, .personTalking],
    settings: DetectorSettings = DetectorSettings()
) -> [Detection] {
    let configuration = STFTConfiguration.standard(sampleRate: rate)
    let detectors = triggers.compactMap { DetectorRegistry.makeDetector(for: $0, configuration: configuration, settings: settings) }
    let stft = ShortTimeFourierTransform(configuration: configuration)
    var out: [Detection] = []
    samples.withUnsafeBufferPointer { b in
        stft.process(b) { f in for d in detectors { d.process(f, into: &out) } }
    }
    stft.finish { f in for d in detectors { d.process(f, into: &out) } }
    for d in detectors { d.finish(at: Double(samples.count) / rate, into: &out) }
    return out
}
