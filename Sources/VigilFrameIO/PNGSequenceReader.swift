import Foundation
import VigilCore
import VigilImaging

/// Reads a directory of PNG frames in order, one file at a time.
///
/// Timestamps: with `framesPerSecond`, the frames (sorted by the last number in their names,
/// then by name) are `1 / fps` apart from 0. Without it, each name's last number is its time:
/// seconds when it has a fractional part (`frame-12.040.png`), milliseconds when it is an
/// integer (`1250.png`, `cam_000040ms.png`). Names without a number, or repeated times, are
/// errors that ask for `--fps`. Integer names less than ``minimumMillisecondStep`` apart (the
/// median step) are frame numbers (`1.png ... 51.png`, as ffmpeg writes them), not times: an
/// error that asks for `--fps`.
public struct PNGSequenceReader: FrameSource {
    /// One frame file.
    public struct Entry: Sendable, Hashable {
        /// Full path.
        public var path: String
        /// File name.
        public var name: String
        /// Media time in seconds.
        public var time: Double
    }

    /// The directory.
    public let sourceName: String
    /// The frames in order.
    public let entries: [Entry]
    /// Decode limits per frame.
    public let limits: ImageLimits
    private var position = 0

    /// The smallest median step, in milliseconds, between integer-named frames that is read as
    /// a time: 10 ms is 100 frames/s, above any home camera's rate. Closer integer names are
    /// frame numbers.
    public static let minimumMillisecondStep = 10.0

    /// Lists `directory` (non-recursive, `.png` in any case).
    /// - Throws: ``FrameSourceError`` when the directory cannot be read, holds no PNG, or the
    ///   names give no usable times without `framesPerSecond`.
    public init(directory: String, framesPerSecond: Double? = nil, limits: ImageLimits = .default) throws(FrameSourceError) {
        sourceName = directory
        self.limits = limits
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw FrameSourceError(.unreadable, source: directory, reason: "cannot list the directory: \(error.localizedDescription)")
        }
        let pngs = names.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
        guard !pngs.isEmpty else { throw FrameSourceError(.empty, source: directory, reason: "no .png frames in the directory") }
        let keyed = pngs.map { (name: $0, number: Self.lastNumber(in: $0)) }
        let sorted = keyed.sorted { a, b in
            switch (a.number, b.number) {
            case (let x?, let y?) where x.value != y.value: return x.value < y.value
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.name < b.name
            }
        }
        var entries: [Entry] = []
        for (index, item) in sorted.enumerated() {
            let path = (directory as NSString).appendingPathComponent(item.name)
            if let fps = framesPerSecond {
                guard fps > 0, fps.isFinite else {
                    throw FrameSourceError(.unsupportedFormat, source: directory, reason: "frame rate \(fps) is not positive")
                }
                entries.append(Entry(path: path, name: item.name, time: Double(index) / fps))
            } else {
                guard let number = item.number else {
                    throw FrameSourceError(
                        .unsupportedFormat, source: directory,
                        reason: "\(item.name) has no number to take its time from; give --fps")
                }
                let time = number.isInteger ? number.value / 1000 : number.value
                if let last = entries.last, time <= last.time {
                    throw FrameSourceError(
                        .unsupportedFormat, source: directory,
                        reason: "\(item.name) and \(last.name) give the same time \(time) s; give --fps")
                }
                entries.append(Entry(path: path, name: item.name, time: time))
            }
        }
        if framesPerSecond == nil { try Self.rejectFrameNumbers(sorted, directory: directory) }
        self.entries = entries
    }

    /// Throws when the integer names of `sorted` (in frame order) have a median step below
    /// ``minimumMillisecondStep``: they number the frames rather than time them.
    private static func rejectFrameNumbers(
        _ sorted: [(name: String, number: (value: Double, isInteger: Bool)?)], directory: String
    ) throws(FrameSourceError) {
        let integers = sorted.filter { $0.number?.isInteger == true }
        guard integers.count >= 2 else { return }
        var steps: [Double] = []
        for index in 1..<integers.count { steps.append(integers[index].number!.value - integers[index - 1].number!.value) }
        steps.sort()
        let median = steps[steps.count / 2]
        guard median < minimumMillisecondStep else { return }
        let first = integers.first!, last = integers.last!
        let kind = median == 1 ? "consecutive frame numbers" : "frame numbers \(Int(median)) apart"
        throw FrameSourceError(
            .unsupportedFormat, source: directory,
            reason: "the names \(first.name) ... \(last.name) are \(kind), not millisecond timestamps "
                + "(as times they would be \(DecimalText.fixed(1000 / max(median, 1), places: 0)) frames/s); give --fps with the frame rate"
        )
    }

    /// The last decimal number in a file name's stem, and whether it is an integer.
    public static func lastNumber(in name: String) -> (value: Double, isInteger: Bool)? {
        let stem = name.lowercased().hasSuffix(".png") ? String(name.dropLast(4)) : name
        let characters = Array(stem)
        var index = characters.count - 1
        while index >= 0 && !(characters[index].isASCII && characters[index].isNumber) { index -= 1 }
        guard index >= 0 else { return nil }
        var begin = index
        var sawPoint = false
        while begin > 0 {
            let previous = characters[begin - 1]
            if previous.isASCII && previous.isNumber {
                begin -= 1
            } else if previous == "." && !sawPoint && begin - 2 >= 0 && characters[begin - 2].isNumber {
                sawPoint = true
                begin -= 1
            } else {
                break
            }
        }
        let text = String(characters[begin...index])
        guard let value = Double(text) else { return nil }
        return (value, !sawPoint)
    }

    /// Reads and decodes the next file.
    public mutating func nextFrame() throws(FrameSourceError) -> VideoFrame? {
        guard position < entries.count else { return nil }
        let entry = entries[position]
        let index = position
        position += 1
        // A PNG is never much larger than its pixels; refuse before reading a huge file.
        let fileLimit = limits.maxDecodedBytes.multipliedReportingOverflow(by: 2)
        if !fileLimit.overflow, let size = (try? FileManager.default.attributesOfItem(atPath: entry.path))?[.size] as? Int,
            size > fileLimit.partialValue
        {
            throw FrameSourceError(
                .decodeFailed, source: entry.path, frame: index,
                reason: "file is \(size) bytes, more than twice the \(InputLimits.byteText(limits.maxDecodedBytes)) decode limit "
                    + InputLimits.Limit.imageBytes.raiseHint)
        }
        guard let data = FileManager.default.contents(atPath: entry.path) else {
            throw FrameSourceError(.unreadable, source: entry.path, frame: index, reason: "cannot read the file")
        }
        do {
            let image = try PNGCodec.decode([UInt8](data), source: entry.path, limits: limits)
            return VideoFrame(index: index, time: entry.time, picture: .raster(image))
        } catch {
            throw FrameSourceError(.decodeFailed, source: entry.path, frame: index, reason: error.reason)
        }
    }
}
