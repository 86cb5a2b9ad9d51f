import Foundation
import VigilCore
import VigilFrameIO
import VigilImaging
import VigilMedia
import VigilPipeline
import VigilScoring
import VigilVision

/// `vigil bench motion`: scores the motion detector's masks against per-pixel ground truth
/// (CDnet 2014 measures) on sequence folders (input.mp4 decoded by FFmpeg's libraries, every frame, through ``MediaContainerSource``,
/// groundtruth/gtNNNNNN.png, optional ROI.png, sequence.json).
package enum MotionBench {
    /// One sequence's result.
    package struct SequenceResult {
        /// The sequence folder's name.
        package var name: String
        /// Frames decoded.
        package var frames: Int
        /// Frames scored (the range in sequence.json).
        package var scoredFrames: Int
        /// Per-pixel counts over the scored frames.
        package var counts: MotionSegmentationCounts
        /// Zone activity counts (2 x 2 grid) over the scored frames.
        package var zones: ZoneActivityCounts
        /// The detector's thread CPU time over every frame.
        package var cpuSeconds: Double
        /// The detector's CPU time per frame, in milliseconds.
        package var millisecondsPerFrame: Double { frames > 0 ? cpuSeconds * 1000 / Double(frames) : 0 }
    }

    /// A sequence that could not be scored.
    package struct SequenceError: Error, CustomStringConvertible {
        /// The file or directory concerned.
        package var path: String
        /// Why it failed.
        package var reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// A sets folder that is missing, not a directory or holds no sequence folder.
    package struct SetsDirectoryError: Error, CustomStringConvertible {
        /// The folder given.
        package var path: String
        /// Why it cannot be scored.
        package var reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Scores every sequence folder of `setsDirectory` (sorted by name, hidden ones skipped); a
    /// sequence that cannot be scored is reported through `messages` and listed in the failures,
    /// and the others are still scored.
    package static func scoreAll(
        setsDirectory: String, messages: (String) -> Void
    ) throws(SetsDirectoryError) -> (results: [SequenceResult], failures: [SequenceError]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: setsDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SetsDirectoryError(path: setsDirectory, reason: "not a directory of motion sequences")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: setsDirectory)) ?? []).sorted().filter { name in
            var dir: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: (setsDirectory as NSString).appendingPathComponent(name), isDirectory: &dir)
                && dir.boolValue
        }
        guard !names.isEmpty else { throw SetsDirectoryError(path: setsDirectory, reason: "no sequence folders") }
        var results: [SequenceResult] = []
        var failures: [SequenceError] = []
        for name in names {
            do {
                results.append(try score(sequence: (setsDirectory as NSString).appendingPathComponent(name), name: name))
            } catch let error as SequenceError {
                failures.append(error)
                messages("error: \(error)")
            } catch {
                failures.append(SequenceError(path: name, reason: "\(error)"))
                messages("error: \(name): \(error)")
            }
        }
        return (results, failures)
    }

    /// Scores one sequence folder.
    package static func score(sequence path: String, name: String) throws -> SequenceResult {
        let files = FileManager.default
        func file(_ relative: String) -> String { (path as NSString).appendingPathComponent(relative) }
        for required in ["input.mp4", "sequence.json", "groundtruth"] where !files.fileExists(atPath: file(required)) {
            throw SequenceError(path: path, reason: "missing \(required)")
        }
        guard let metadata = files.contents(atPath: file("sequence.json")),
            let info = try? JSONValue.parse([UInt8](metadata), limits: .default),
            let range = info["scoredFrames"]?.arrayValue, range.count == 2, let first = range[0].intValue, let last = range[1].intValue,
            first >= 0, last >= first
        else {
            throw SequenceError(path: file("sequence.json"), reason: "needs \"scoredFrames\": [first, last] (frame numbers from 0)")
        }
        let roi: RasterImage? = files.fileExists(atPath: file("ROI.png")) ? try labelPlane(file("ROI.png")) : nil

        let source: MediaContainerSource
        do {
            source = try MediaContainerSource(path: file("input.mp4"), options: MediaReaderOptions(readsAudio: false, analysisFPS: nil))
        } catch {
            throw SequenceError(path: file("input.mp4"), reason: error.reason)
        }
        let detector = MotionDetector(configuration: MotionConfiguration())
        var mask: [UInt8] = []
        var counts = MotionSegmentationCounts()
        var zones = ZoneActivityCounts()
        var cpu = 0.0
        var frames = 0
        var scored = 0
        do {
            while let frame = try source.nextFrame() {
                let luma = frame.picture.luma
                if mask.count != luma.width * luma.height { mask = [UInt8](repeating: 0, count: luma.width * luma.height) }
                let start = threadCPUSeconds()
                _ = detector.process(luma, time: frame.time)
                mask.withUnsafeMutableBufferPointer { _ = detector.writeMotionMask(into: $0, width: luma.width, height: luma.height) }
                cpu += threadCPUSeconds() - start
                let index = frames
                frames += 1
                guard index >= first && index <= last else { continue }
                let truthPath = file("groundtruth/gt\(String(format: "%06d", index)).png")
                guard files.fileExists(atPath: truthPath) else {
                    throw SequenceError(path: truthPath, reason: "missing ground truth of scored frame \(index)")
                }
                let truth = try labelPlane(truthPath)
                guard truth.width == luma.width, truth.height == luma.height else {
                    throw SequenceError(
                        path: truthPath, reason: "\(truth.width)x\(truth.height), but the video is \(luma.width)x\(luma.height)")
                }
                if let roi, roi.width != luma.width || roi.height != luma.height {
                    throw SequenceError(
                        path: file("ROI.png"), reason: "\(roi.width)x\(roi.height), but the video is \(luma.width)x\(luma.height)")
                }
                counts.add(detected: mask, groundTruth: truth.pixels, roi: roi?.pixels)
                zones.add(detected: mask, groundTruth: truth.pixels, roi: roi?.pixels, width: luma.width, height: luma.height)
                scored += 1
            }
        } catch let error as FrameSourceError {
            throw SequenceError(path: file("input.mp4"), reason: error.description)
        }
        guard frames > last else {
            throw SequenceError(
                path: file("input.mp4"), reason: "\(frames) frames decoded, but sequence.json scores frames \(first)-\(last)")
        }
        return SequenceResult(name: name, frames: frames, scoredFrames: scored, counts: counts, zones: zones, cpuSeconds: cpu)
    }

    /// A label PNG (ground truth, ROI) as one byte per pixel: gray as is, the first channel of
    /// palette or RGB files (their labels are gray colours), so the label values stay exact.
    package static func labelPlane(_ path: String) throws -> RasterImage {
        guard let data = FileManager.default.contents(atPath: path) else { throw SequenceError(path: path, reason: "cannot read") }
        let image: RasterImage
        do {
            image = try PNGCodec.decode([UInt8](data), source: path)
        } catch {
            throw SequenceError(path: path, reason: error.description)
        }
        let channels = image.format.channels
        guard channels > 1 else { return image }
        var plane = [UInt8](repeating: 0, count: image.width * image.height)
        for i in plane.indices { plane[i] = image.pixels[i * channels] }
        return RasterImage(width: image.width, height: image.height, format: .gray, pixels: plane)
    }

    /// The measures in column order.
    package static let columns = ["recall", "specificity", "fpr", "fnr", "pwc", "precision", "fMeasure", "zoneF1", "msPerFrame"]

    /// The measures of one sequence in column order (``columns``).
    package static func measures(_ r: SequenceResult) -> [Double?] {
        let c = r.counts
        return [
            c.recall, c.specificity, c.falsePositiveRate, c.falseNegativeRate, c.percentageWrongClassifications, c.precision, c.fMeasure,
            r.zones.f1, r.millisecondsPerFrame,
        ]
    }

    /// Per column: the mean over the sequences where it is defined.
    package static func means(_ results: [SequenceResult]) -> [Double?] {
        columns.indices.map { column in
            let values = results.compactMap { measures($0)[column] }
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
    }

    /// The text table: one row per sequence and their mean.
    package static func table(_ results: [SequenceResult]) -> String {
        let header = ["sequence", "frames", "Re", "Sp", "FPR", "FNR", "PWC", "Pr", "F", "zoneF1", "ms/frame"]
        func text(_ value: Double?, _ column: Int) -> String {
            guard let value else { return "-" }
            return DecimalText.fixed(value, places: column == 4 || column == 8 ? 3 : 4)
        }
        var rows = [header]
        for r in results { rows.append([r.name, "\(r.scoredFrames)"] + measures(r).enumerated().map { text($1, $0) }) }
        if !results.isEmpty {
            rows.append(["mean", "\(results.reduce(0) { $0 + $1.scoredFrames })"] + means(results).enumerated().map { text($1, $0) })
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max()! }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == 0
                    ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// The JSON report: protocol, sequences, mean and errors.
    package static func json(_ results: [SequenceResult], failures: [SequenceError]) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1e6).rounded() / 1e6) } ?? .null }
        func measureObject(_ values: [Double?]) -> [(String, JSONValue)] { zip(columns, values).map { ($0, number($1)) } }
        let sequences: [JSONValue] = results.map { r in
            let head: [(String, JSONValue)] = [
                ("sequence", .string(r.name)), ("frames", .number(Double(r.frames))), ("scoredFrames", .number(Double(r.scoredFrames))),
                ("truePositives", .number(Double(r.counts.truePositives))), ("falsePositives", .number(Double(r.counts.falsePositives))),
                ("trueNegatives", .number(Double(r.counts.trueNegatives))), ("falseNegatives", .number(Double(r.counts.falseNegatives))),
            ]
            return .object(JSONObject(head + measureObject(measures(r))))
        }
        return .object(
            JSONObject([
                ("protocol", .string("CDnet 2014: positives 255; negatives 0, 50; 85, 170 and outside ROI not scored")),
                ("zoneLayout", .string("2x2, active at >= 0.5 % of scored pixels")),
                ("timing", .string("detector thread CPU time per frame, decoding excluded")),
                ("sequences", .array(sequences)),
                ("mean", .object(JSONObject(measureObject(results.isEmpty ? columns.map { _ in nil } : means(results))))),
                ("errors", .array(failures.map { .string($0.description) })),
            ]))
    }
}
