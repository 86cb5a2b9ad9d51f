import Foundation
import VigilCore

/// A `LABEL=FILE` model replacement that could not be used: the argument, the file and the reason.
public struct ModelLoadFailure: Error, Sendable, CustomStringConvertible {
    /// The `LABEL=FILE` text as given.
    public var argument: String
    /// The model file, or empty when the argument itself is malformed.
    public var path: String
    /// Why the model cannot be used.
    public var reason: String
    public var description: String { path.isEmpty ? "--model \(argument): \(reason)" : "--model \(argument): \(path): \(reason)" }
}

/// Model files that replace the shipped model of a learned detector for one run (`--model
/// LABEL=FILE` of `vigil analyze`, `vigil live` and `vigil bench accuracy`).
public enum ModelReplacement {
    /// The learned triggers a model file can replace.
    public static var replaceable: [EventTriggerType] { [.dogBark, .glassBreak, .personTalking] }

    /// Reads and checks every `LABEL=FILE` argument; the first that cannot be used is a
    /// ``ModelLoadFailure`` naming the file and the reason (missing file, not JSON, wrong format,
    /// label or feature version, a second model for one label).
    public static func load(_ arguments: [String]) throws(ModelLoadFailure) -> [EventTriggerType: SoundModel] {
        var loaded: [EventTriggerType: SoundModel] = [:]
        let names = replaceable.map(\.rawValue).joined(separator: ", ")
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ModelLoadFailure(argument: argument, path: "", reason: "expected LABEL=FILE, e.g. dogBark=Models/dogBark.json")
            }
            let (labelText, path) = (parts[0], parts[1])
            guard let trigger = EventTriggerType(rawValue: labelText), replaceable.contains(trigger) else {
                throw ModelLoadFailure(argument: argument, path: "", reason: "'\(labelText)' has no learned model (one of \(names))")
            }
            if loaded[trigger] != nil {
                throw ModelLoadFailure(argument: argument, path: "", reason: "a second model for \(labelText)")
            }
            loaded[trigger] = try model(for: trigger, argument: argument, path: path)
        }
        return loaded
    }

    private static func model(for trigger: EventTriggerType, argument: String, path: String) throws(ModelLoadFailure) -> SoundModel {
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
                reason:
                    "made for sound features v\(version), this build computes v\(FeatureSpec.current.version) (train it again with this build's vigil train)"
            )
        }
        let model: SoundModel
        do {
            model = try SoundModel(json: json)
        } catch {
            throw ModelLoadFailure(
                argument: argument, path: path, reason: "not a usable model: \((error as? SoundModelError)?.message ?? "\(error)")")
        }
        guard model.label == trigger.rawValue else {
            throw ModelLoadFailure(argument: argument, path: path, reason: "is a \(model.label) model, not a \(trigger.rawValue) model")
        }
        return model
    }
}
