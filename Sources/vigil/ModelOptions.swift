import ArgumentParser
import Foundation
import VigilCore
import VigilInference

/// `--model LABEL=FILE` (repeatable), shared by `vigil analyze`, `vigil live` and `vigil bench accuracy`
/// (``ModelReplacement``).
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "Use this model file (as `vigil train` writes it) instead of the shipped model of LABEL: dogBark, glassBreak or "
                + "personTalking (repeatable).",
            valueName: "LABEL=FILE"))
    var models: [String] = []

    /// The models, or a failure printed to stderr and the usage exit status (2).
    func loadOrExit() throws -> [EventTriggerType: SoundModel] {
        do {
            return try ModelReplacement.load(models)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
    }
}
