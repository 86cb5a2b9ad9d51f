import ArgumentParser
import Foundation
import VigilBench
import VigilCore

extension BenchCommand {
    /// `vigil bench motion`: per-pixel motion quality against ground-truth masks (CDnet 2014 rules).
    struct Motion: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score the motion detector's masks against per-pixel ground truth (CDnet 2014 measures).",
            discussion: """
                SETS_DIR holds one folder per sequence: input.mp4 (decoded with the ffmpeg command, luma only), \
                groundtruth/gtNNNNNN.png (the mask of frame NNNNNN, counted from 0: 255 motion, 0 static, 50 shadow, \
                85 outside the region of interest, 170 unknown), optional ROI.png (non-zero = scored) and \
                sequence.json ("scoredFrames": [first, last], inclusive). The detector runs on every frame with the \
                default device (no zones, medium sensitivity); its mask is the one --motion-masks writes.

                Per sequence, from the counts summed over the scored frames: recall, specificity, FPR, FNR, PWC, \
                precision and F-measure (positives 255; negatives 0 and 50; 85, 170 and pixels outside ROI.png not \
                scored), then their means over the sequences. Zone F1: frames x zones of a fixed 2 x 2 grid, a zone \
                active when at least 0.5 % of its scored pixels are motion (ground truth) or in the detector's mask. \
                Time per frame: the detector's thread CPU time (one core), decoding and scoring excluded.

                Example:
                  vigil bench motion ../shared/data/motion --json
                """)

        @Argument(help: "Directory of sequence folders.")
        var setsDir: String

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let scored: (results: [MotionBench.SequenceResult], failures: [MotionBench.SequenceError])
            do {
                scored = try MotionBench.scoreAll(setsDirectory: setsDir) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(ExitStatus.usage)
            }
            if json {
                print(MotionBench.json(scored.results, failures: scored.failures).serialized(.pretty))
            } else {
                print(MotionBench.table(scored.results), terminator: "")
            }
            if !scored.failures.isEmpty { throw ExitCode(ExitStatus.someInputsFailed) }
        }
    }
}
