import ArgumentParser
import Foundation
import VigilCore
import VigilInference

/// A `--model LABEL=FILE` that could not be used: the file and the reason.
struct ModelLoadFailure: Error, CustomStringConvertible {
    var argument: String
    var path: String
    var reason: String
    var description: String { path.isEmpty ? "--model \(argument): \(reason)" : "--model \(argument): \(path): \(reason)" }
}

/// `--model LABEL=FILE` (repeatable): model files that replace the shipped model of a learned
/// detector for one run, shared by `vigil analyze`, `vigil live` and `vigil bench accuracy`.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "Use this model file (as `vigil train` writes it) instead of the shipped model of LABEL: dogBark, glassBreak or "
                + "personTalking (repeatable).",
            valueName: "LABEL=FILE"))
    var models: [String] = []

    /// The learned triggers a model file can replace.
    static var replaceable: [EventTriggerType] { [.dogBark, .glassBreak, .personTalking] }

    /// Reads and checks every `--model`; the first that cannot be used is a ``ModelLoadFailure``
    /// naming the file and the reason (missing file, not JSON, wrong format, label or feature version).
    func load() throws(ModelLoadFailure) -> [EventTriggerType: SoundModel] {
        var loaded: [EventTriggerType: SoundModel] = [:]
        let names = Self.replaceable.map(\.rawValue).joined(separator: ", ")
        for argument in models {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ModelLoadFailure(argument: argument, path: "", reason: "expected LABEL=FILE, e.g. dogBark=Models/dogBark.json")
            }
            let (labelText, path) = (parts[0], parts[1])
            guard let trigger = EventTriggerType(rawValue: labelText), Self.replaceable.contains(trigger) else {
                throw ModelLoadFailure(argument: argument, path: "", reason: "'\(labelText)' has no learned model (one of \(names))")
            }
            if loaded[trigger] != nil {
                throw ModelLoadFailure(argument: argument, path: "", reason: "a second model for \(labelText)")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else {
                throw ModelLoadFailure(
                    argument: argument, path: path, reason: isDirectory.boolValue ? "is a directory, not a model file" : "cannot read file")
            }
            let json: JSONValue
            do {
                json = try JSONValue.parse(String(decoding: data, as: UTF8.self))
            } catch {
                throw ModelLoadFailure(argument: argument, path: path, reason: "not valid JSON: \(error)")
            }
            if let version = json["featureSpec"]?["version"]?.intValue, version != FeatureSpec.current.version {
                throw ModelLoadFailure(
                    argument: argument, path: path,
                    reason: "made for sound features v\(version), this build computes v\(FeatureSpec.current.version) (train it again with this build's vigil train)")
            }
            let model: SoundModel
            do {
                model = try SoundModel(json: json)
            } catch {
                throw ModelLoadFailure(argument: argument, path: path, reason: "not a usable model: \((error as? SoundModelError)?.message ?? "\(error)")")
            }
            guard model.label == trigger.rawValue else {
                throw ModelLoadFailure(argument: argument, path: path, reason: "is a \(model.label) model, not a \(trigger.rawValue) model")
            }
            loaded[trigger] = model
        }
        return loaded
    }
}

extension ModelOptions {
    /// ``load()``, printing a failure to stderr and exiting with the usage status (2).
    func loadOrExit() throws -> [EventTriggerType: SoundModel] {
        do {
            return try load()
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
    }
}
