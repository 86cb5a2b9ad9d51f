import Foundation
import VigilCore
import VigilImaging
import VigilVision

/// Writes what the motion detector saw, for tuning: one mask PNG per frame (`--motion-masks`)
/// and a TSV with every region's decision per frame (`--motion-trace`). Masks are written
/// atomically one by one; the trace is streamed to a temporary file renamed on ``finish()``.
public final class MotionDiagnosticsWriter {
    /// An output that cannot be written: names the path and the reason.
    public struct UnwritableError: Error, CustomStringConvertible {
        /// The file or directory concerned.
        public var path: String
        /// Why it failed.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The TSV header of the trace.
    public static let traceHeader = "time\tframe\tzone\tfraction\tdecision\treason\n"

    private let maskDirectory: String?
    private let tracePath: String?
    private var trace: FileHandle?
    private var pending = ""
    private var mask: RasterImage

    /// Whether the detector must record region decisions.
    public var tracesRegions: Bool { tracePath != nil }

    /// Checks the outputs: the mask directory is created if missing and must be a writable
    /// directory; the trace's directory must exist and be writable.
    public init?(maskDirectory: String?, tracePath: String?) throws(UnwritableError) {
        guard maskDirectory != nil || tracePath != nil else { return nil }
        self.maskDirectory = maskDirectory
        self.tracePath = tracePath
        mask = RasterImage(width: 1, height: 1, format: .gray)
        let files = FileManager.default
        if let maskDirectory {
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: maskDirectory, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw UnwritableError(path: maskDirectory, reason: "--motion-masks must be a directory")
                }
            } else {
                do {
                    try files.createDirectory(atPath: maskDirectory, withIntermediateDirectories: true)
                } catch {
                    throw UnwritableError(path: maskDirectory, reason: "cannot create the --motion-masks directory: \(Self.reason(error))")
                }
            }
            guard access(maskDirectory, W_OK | X_OK) == 0 else {
                throw UnwritableError(path: maskDirectory, reason: "the --motion-masks directory is not writable")
            }
        }
        if let tracePath {
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: tracePath, isDirectory: &isDirectory), isDirectory.boolValue {
                throw UnwritableError(path: tracePath, reason: "--motion-trace is a directory, not a file")
            }
            let temporary = Self.temporaryPath(tracePath)
            guard files.createFile(atPath: temporary, contents: Data(Self.traceHeader.utf8)),
                let handle = FileHandle(forWritingAtPath: temporary)
            else {
                throw UnwritableError(path: tracePath, reason: "cannot write the --motion-trace file: \(String(cString: strerror(errno)))")
            }
            handle.seekToEndOfFile()
            trace = handle
        }
    }

    deinit {
        if let trace, let tracePath {
            try? trace.close()
            try? FileManager.default.removeItem(atPath: Self.temporaryPath(tracePath))
        }
    }

    /// Writes frame `frameIndex`'s mask (from `detector`, which has just processed it) and its trace rows.
    public func record(_ result: FrameMotion, frameIndex: Int, detector: MotionDetector, width: Int, height: Int) throws {
        if let maskDirectory {
            if mask.width != width || mask.height != height { mask = RasterImage(width: width, height: height, format: .gray) }
            mask.pixels.withUnsafeMutableBufferPointer { _ = detector.writeMotionMask(into: $0, width: width, height: height) }
            let path = (maskDirectory as NSString).appendingPathComponent(Self.maskName(frameIndex))
            let png = try PNGCodec.encode(mask, fast: true, destination: path)
            try RecordingOutputWriter.atomicWrite(Data(png), to: path)
        }
        if trace != nil {
            let time = DecimalText.fixed(result.time, places: 3)
            for decision in result.decisions {
                let zone = decision.zoneID.map(String.init) ?? "outside"
                let fraction = decision.fraction.map { DecimalText.fixed($0, places: 5) } ?? ""
                pending +=
                    "\(time)\t\(frameIndex)\t\(zone)\t\(fraction)\t\(decision.outcome.rawValue)\t\(decision.reason?.rawValue ?? "")\n"
            }
            if pending.utf8.count >= 1 << 16 { try flush() }
        }
    }

    /// Completes the trace file (renamed into place).
    public func finish() throws {
        guard let trace, let tracePath else { return }
        try flush()
        try trace.close()
        self.trace = nil
        guard rename(Self.temporaryPath(tracePath), tracePath) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: Self.temporaryPath(tracePath))
            throw UnwritableError(path: tracePath, reason: "cannot write the --motion-trace file: \(reason)")
        }
    }

    /// The mask file name of frame `index` (`000000.png` ...).
    public static func maskName(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    private func flush() throws {
        guard let trace, !pending.isEmpty else { return }
        do {
            try trace.write(contentsOf: Data(pending.utf8))
        } catch {
            throw UnwritableError(path: tracePath ?? "", reason: "cannot write the --motion-trace file: \(Self.reason(error))")
        }
        pending = ""
    }

    private static func temporaryPath(_ path: String) -> String { path + ".partial-\(getpid())" }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
