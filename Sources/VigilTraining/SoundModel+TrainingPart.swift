import VigilCore
import VigilInference

extension SoundModel {
    /// The files of a labeled data set this model was trained on, when the data set is the one it
    /// records: the model file names its data (`training.data`, "NAME (N files)") and the size of
    /// its validation part, and the split is deterministic (``DevelopmentSet/validationFiles(provenance:files:annotations:durations:validationPercent:salt:)``),
    /// so the same PROVENANCE, files, labels and durations give the same training part back.
    ///
    /// - Parameters:
    ///   - provenance: the data set's PROVENANCE rows (empty: nil, the split cannot be reproduced).
    ///   - files: every file of the data set.
    ///   - annotations: its labels.
    ///   - durations: seconds per file.
    /// - Returns: the training part (the files not in validation), or nil when these data do not
    ///   reproduce the model's recorded split (another data set, or a model without the record).
    package func trainingPart(
        provenance: [DevelopmentSet.SourceRow], files: [String], annotations: [LabelEvent], durations: [String: Double]
    ) -> Set<String>? {
        guard !provenance.isEmpty, let validationCount = training["validationFiles"]?.intValue,
            let data = training["data"]?.stringValue, data.hasSuffix("(\(files.count) files)")
        else { return nil }
        let validation = DevelopmentSet.validationFiles(
            provenance: provenance, files: files, annotations: annotations, durations: durations)
        guard validation.count == validationCount else { return nil }
        return Set(files).subtracting(validation)
    }
}
