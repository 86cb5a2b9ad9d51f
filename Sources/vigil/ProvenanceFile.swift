import ArgumentParser
import Foundation
import VigilTraining

/// The PROVENANCE.tsv of a labeled data set (which source clips went into each file): the one named
/// by `--provenance`, or else the one beside LABELS.tsv when it exists. `vigil train` groups the
/// validation split by it; `vigil bench accuracy` takes the voice-background material from it.
enum ProvenanceFile {
    /// The rows of the named file, or of PROVENANCE.tsv beside `labels`; nil when none was named and
    /// none lies beside the labels.
    /// - Throws: a usage error naming the file when it cannot be read, is not UTF-8, or has no rows
    ///   with the columns filename, role, source_class and local_path.
    static func rows(named: String?, labels: String) throws -> [DevelopmentSet.SourceRow]? {
        let path = named ?? ((labels as NSString).deletingLastPathComponent as NSString).appendingPathComponent("PROVENANCE.tsv")
        guard named != nil || FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--provenance \(path): cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--provenance \(path): not UTF-8 text")
        }
        let rows = DevelopmentSet.parseProvenance(text)
        guard !rows.isEmpty else {
            throw ValidationError("--provenance \(path): no rows with the columns filename, role, source_class and local_path")
        }
        return rows
    }
}
