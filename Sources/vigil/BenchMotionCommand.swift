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
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: setsDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                Self.stderr("error: \(setsDir): not a directory of motion sequences")
                throw ExitCode(ExitStatus.usage)
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: setsDir)) ?? []).sorted().filter { name in
                var dir: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(atPath: (setsDir as NSString).appendingPathComponent(name), isDirectory: &dir)
                    && dir.boolValue
            }
            guard !names.isEmpty else {
                Self.stderr("error: \(setsDir): no sequence folders")
                throw ExitCode(ExitStatus.usage)
            }
            var results: [MotionBench.SequenceResult] = []
            var failures: [MotionBench.SequenceError] = []
            for name in names {
                do {
                    results.append(try MotionBench.score(sequence: (setsDir as NSString).appendingPathComponent(name), name: name))
                } catch let error as MotionBench.SequenceError {
                    failures.append(error)
                    Self.stderr("error: \(error)")
                }
            }
            if json {
                print(MotionBench.json(results, failures: failures).serialized(.pretty))
            } else {
                print(MotionBench.table(results), terminator: "")
            }
            if !failures.isEmpty { throw ExitCode(ExitStatus.someInputsFailed) }
        }

        static func stderr(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }
    }
}
