import Foundation
import Testing
import VigilCore
import VigilDetectors
import VigilTraining

/// The file-reading training driver: trains the three shipped models on the development set and
/// writes Models/NAME.json, Models/NAME.md and Sources/VigilDetectors/EmbeddedModels.swift.
/// Runs only with VIGIL_TRAIN=1 (use a release build):
///   VIGIL_TRAIN=1 swift test -c release --filter TrainSoundModels
/// (VIGIL_TRAIN_LABELS=dogBark,... trains some labels only.)
@Suite("Train sound models", .serialized)
struct TrainSoundModels {
    static let enabled = ProcessInfo.processInfo.environment["VIGIL_TRAIN"] == "1" && DevData.available

    @Test("train and write the shipped models", .enabled(if: enabled, "needs VIGIL_TRAIN=1 and ../shared/data"))
    func trainAll() throws {
        let labels = ProcessInfo.processInfo.environment["VIGIL_TRAIN_LABELS"]?.split(separator: ",").map(String.init)
            ?? ["dogBark", "glassBreak", "personTalking"]
        try DevData.trainShippedModels(labels: labels)
    }

    /// A change to the STFT or the features changes the training data: the shipped models must
    /// then be retrained. (The models shipped before this check were trained before the STFT's
    /// FFTW plans moved from FFTW_MEASURE, whose timing-chosen algorithm differs in the last bits
    /// from run to run, to FFTW_ESTIMATE, and before the SIMD sum of squares: their recorded
    /// data hash could not be reproduced.) Slow: VIGIL_CHECK_MODELS=1, release build.
    @Test(
        "the shipped models were trained on the features this build extracts",
        .enabled(if: ProcessInfo.processInfo.environment["VIGIL_CHECK_MODELS"] == "1" && DevData.available, "VIGIL_CHECK_MODELS=1"))
    func shippedDataHash() throws {
        let dev = try DevData.load()
        let recordings = try DevData.shippedTrainingFeatures(dev)
        for label in ["dogBark", "glassBreak", "personTalking"] {
            let extras = try DevData.extraNegatives(for: label)
            let positives = try DevData.extraPositives(for: label)
            let hash =
                "fnv1a64:"
                + SoundModelTrainer.dataHash(
                    recordings: recordings + extras + positives.recordings, annotations: dev.annotations + positives.annotations)
            let model = try #require(LearnedSoundDetector.shippedModel(for: EventTriggerType(rawValue: label)!))
            #expect(model.training["dataHash"]?.stringValue == hash, "\(label): retrain (VIGIL_TRAIN=1)")
        }
    }
}
