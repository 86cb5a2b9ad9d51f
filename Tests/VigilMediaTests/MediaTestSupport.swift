import Foundation
import Glibc
import VigilTestSupport

/// The package root (two levels above this file's folder).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let samplesDirectory = packageRoot.appendingPathComponent("Samples")

/// Whether `command` is on PATH.
func commandAvailable(_ command: String) -> Bool { ExternalCommand.isAvailable(command) }

let ffmpegAvailable = commandAvailable("ffmpeg")
let rtspServerAvailable = TestProcesses.rtspCameraAvailable

/// Runs `arguments` (the first is looked up on PATH) and waits; throws with stderr when it fails.
func run(_ arguments: [String]) throws { try ExternalCommand.run(arguments) }

/// Starts `arguments` in the background (stdout and stderr to `log`).
func start(_ arguments: [String], log: URL) throws -> Process { try TestProcesses.start(arguments, log: log) }

func stop(_ process: Process) {
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
    }
}

/// Ends `process` at once (SIGKILL), as a camera that loses power.
func kill(_ process: Process) { TestProcesses.kill(process) }

func temporaryDirectory() throws -> URL { try TestProcesses.temporaryDirectory(prefix: "vigil-media") }

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLoopbackPort() -> Int { TestProcesses.freeLoopbackPort() }

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func portAccepts(_ port: Int) -> Bool { TestProcesses.portAccepts(port) }

/// Polls `condition` every 50 ms for up to `seconds`; whether it became true.
@discardableResult
func wait(seconds: Double, until condition: () -> Bool) -> Bool { TestProcesses.wait(seconds: seconds, until: condition) }

/// A socket listening on a free loopback port that never accepts, and its port.
func silentListener() -> (Int32, Int)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    guard bound == 0, listen(fd, 8) == 0 else {
        close(fd)
        return nil
    }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// Media made once per process from Samples/: 30 demo frames at 10 fps (3 s) and the first 3 s
/// of the demo scene, in the containers and codecs the tests read.
final class GeneratedMedia: @unchecked Sendable {
    static let shared = Result { try GeneratedMedia() }

    let directory: URL
    /// The frames as gray y4m: the luma reference, in the full range as libswscale converts to
    /// gray and as the reader hands luma over.
    let y4m: URL
    /// The scene's first 3 s as 16 kHz FLAC (the audio reference).
    let flac: URL
    let h264AAC: URL
    let h265Opus: URL
    let webm: URL
    let audioOnly: URL
    let videoOnly: URL
    /// `h264AAC` with its index at the front (moov first), for cutting.
    let fastStart: URL

    private init() throws {
        let directory = try temporaryDirectory()
        self.directory = directory
        let frames = samplesDirectory.appendingPathComponent("demo-frames/frame-%03d.png").path
        let scene = samplesDirectory.appendingPathComponent("demo-scene.flac").path
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let quiet = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        let video = ["-framerate", "10", "-i", frames]
        let audio = ["-i", scene, "-t", "3"]
        y4m = file("frames.y4m")
        try run(quiet + video + ["-pix_fmt", "gray", "-f", "yuv4mpegpipe", y4m.path])
        flac = file("scene.flac")
        try run(quiet + audio + ["-c:a", "flac", flac.path])
        h264AAC = file("h264-aac.mp4")
        try run(
            quiet + video + audio + [
                "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k",
                h264AAC.path,
            ])
        fastStart = file("faststart.mp4")
        try run(quiet + ["-i", h264AAC.path, "-c", "copy", "-movflags", "+faststart", fastStart.path])
        h265Opus = file("h265-opus.mkv")
        try run(
            quiet + video + audio + [
                "-map", "0:v", "-map", "1:a", "-c:v", "libx265", "-x265-params", "log-level=error", "-crf", "20", "-pix_fmt", "yuv420p",
                "-c:a", "libopus", "-b:a", "64k", h265Opus.path,
            ])
        webm = file("vp9-opus.webm")
        try run(
            quiet + video + audio + [
                "-map", "0:v", "-map", "1:a", "-c:v", "libvpx-vp9", "-crf", "20", "-b:v", "0", "-deadline", "realtime", "-cpu-used", "8",
                "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "64k", webm.path,
            ])
        audioOnly = file("audio.m4a")
        try run(quiet + audio + ["-c:a", "aac", "-b:a", "96k", audioOnly.path])
        videoOnly = file("video.mp4")
        try run(quiet + video + ["-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", videoOnly.path])
    }
}
