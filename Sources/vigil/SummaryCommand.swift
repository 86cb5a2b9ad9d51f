import ArgumentParser
import Foundation
import VigilAnalysis
import VigilPipeline

/// `vigil summary`: run summaries.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Work with run summaries (summary.json written by vigil analyze --out).",
        subcommands: [Merge.self])

    /// `vigil summary merge`.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge the summaries of shards (--shard i/n) into the summary of the whole run.",
            discussion: """
                Reads each SUMMARY (a summary.json, or a directory holding one) and writes the union: every \
                recording once, totals recomputed. The merge of all shards equals the summary of one unsharded \
                run. A recording present in several inputs is reported and the last one wins.
                Example: vigil summary merge out-0 out-1 out-2 --out merged
                """)

        @Argument(help: "summary.json files or directories that contain one.")
        var summaries: [String]

        @Option(help: "Write DIR/summary.json and DIR/summary.tsv instead of printing the JSON.")
        var out: String?

        func validate() throws {
            if summaries.isEmpty { throw ValidationError("give at least one summary") }
        }

        func run() throws {
            let merged: RunSummary, duplicates: [String]
            do { (merged, duplicates) = try RecordingOutputWriter.mergeSummaries(summaries) } catch {
                throw ValidationError(error.description)
            }
            for file in duplicates { AnalyzeCommand.stderr("warning: \(file) appears in more than one summary; the last one is kept") }
            if let out {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                try RecordingOutputWriter.writeSummary(merged, to: out)
            } else {
                print(merged.jsonValue.serialized(.pretty))
            }
        }
    }
}
