import Foundation
import VigilFrameIO
import VigilImaging

/// Frames of a container file (MP4, ...) decoded by the `ffmpeg` command-line tool, piped as
/// gray YUV4MPEG2 into ``Y4MReader``. Vigil has no container reader of its own; a reader on
/// FFmpeg's libraries can take this type's place behind ``VideoSource``.
public final class FFmpegFrameSource: VideoSource {
    /// Why the decoder could not start or failed.
    public struct DecoderError: Error, CustomStringConvertible {
        /// The file or directory concerned.
        public var path: String
        /// Why it failed.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The container file.
    public let name: String
    /// Decoded as fast as the run asks.
    public var pacedByArrival: Bool { false }
    private let process: Process
    private let errors: Pipe
    private var reader: Y4MReader<FileDescriptorReader>?
    private let output: FileHandle

    /// The `ffmpeg` executable on PATH, or `nil`.
    public static var executable: String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Starts `ffmpeg` on `path` (luma only, every frame in order, no frame-rate conversion).
    public init(path: String) throws(DecoderError) {
        name = path
        guard let ffmpeg = Self.executable else {
            throw DecoderError(path: path, reason: "needs the ffmpeg command (Debian package ffmpeg) to decode it; ffmpeg is not on PATH")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-pix_fmt", "gray", "-f", "yuv4mpegpipe", "-",
        ]
        let pipe = Pipe()
        errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw DecoderError(path: path, reason: "cannot start ffmpeg: \(error)")
        }
        output = pipe.fileHandleForReading
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The next decoded frame; at the end, an error if ffmpeg failed.
    public func nextFrame() throws(FrameSourceError) -> VideoFrame? {
        if reader == nil {
            do {
                reader = try Y4MReader(
                    source: FileDescriptorReader(descriptor: output.fileDescriptor, name: sourceName, closesOnRelease: false),
                    name: sourceName)
            } catch {
                throw decoderFailure() ?? error
            }
        }
        if let frame = try reader!.nextFrame() { return frame }
        if let failure = decoderFailure() { throw failure }
        return nil
    }

    /// A decoder pipe cannot start again.
    public func rewind() -> Bool { false }

    /// ffmpeg's own message when it exited with an error.
    private func decoderFailure() -> FrameSourceError? {
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return nil }
        let message =
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
        return FrameSourceError(.decodeFailed, source: sourceName, reason: "ffmpeg: \(message)")
    }
}
