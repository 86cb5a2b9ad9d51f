import VigilCore
import VigilInference

extension SoundModel {
    /// The files of a labeled data set this model was trained on, when the data set is the one it
    /// records: the model file names its data (`training.data`, "NAME (N files)") and the development
    /// files of its validation part (`training.validationPart.files`).
    ///
    /// - Parameter files: every file of the data set.
    /// - Returns: the training part (every file when the trees were trained again on everything after the
    ///   decision was chosen, or when it was chosen out of fold; else the files outside the validation part),
    ///   or nil when these files are not the model's data set (another data set, or a model without the record).
    package func trainingPart(files: [String]) -> Set<String>? {
        guard let data = training["data"]?.stringValue, data.hasSuffix("(\(files.count) files)") else { return nil }
        if training["decisionChosenOn"] != nil { return Set(files) }
        guard case .array(let listed)? = training["validationPart"]?["files"] else { return nil }
        let validation = Set(listed.compactMap(\.stringValue))
        guard validation.isSubset(of: files) else { return nil }
        return Set(files).subtracting(validation)
    }
}
