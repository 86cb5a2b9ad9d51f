// vigil-dev: the developer tools around the learned detectors (not a product; run it from the
// package root, in a release build for the slow ones). They read the development data in
// ../shared/data and write only where a command says so (train-models: Models/ and
// Sources/VigilDetectors/EmbeddedModels.swift).
import ArgumentParser

struct VigilDev: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vigil-dev",
        abstract: "Developer tools: train and check the shipped models, diagnostics, unseen-bark check, throughput, alarm traces.",
        subcommands: [
            TrainSoundModels.self, CheckShippedModels.self, Diagnostics.self, CrossValidationDiagnostics.self, DeterminismCheck.self,
            UnseenBarkCheck.self, LearnedThroughput.self, AlarmTrace.self, AlarmSpectrum.self,
        ])
}

VigilDev.main()
