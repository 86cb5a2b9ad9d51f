import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Processes and loopback ports for the tests that start real servers (an RTSP camera, a broker).
public enum TestProcesses {
    /// A server or a camera that did not come up.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
        /// A failure described by `description`.
        public init(description: String) { self.description = description }
    }

    /// Whether ffmpeg and Debian's rtsp-server-perl are installed (an RTSP camera can be served).
    public static var rtspCameraAvailable: Bool { ExternalCommand.isAvailable("ffmpeg") && ExternalCommand.isAvailable("rtsp-server-perl") }

    /// Starts `arguments` (the first looked up on PATH) in the background, stdout and stderr to `log`.
    public static func start(_ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try runWithSignalsUnblocked(process)
        return process
    }

    /// Starts `process` from a new thread whose signal mask is empty. The test runner's threads
    /// block signals, and a child inherits the mask of the thread that spawns it: mosquitto waits
    /// for network events with that mask restored, so it would never see SIGTERM.
    public static func runWithSignalsUnblocked(_ process: Process) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = NIOLockedValueBox<(any Error)?>(nil)
        let thread = Thread {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            do { try process.run() } catch { failure.withLockedValue { $0 = error } }
            done.signal()
        }
        thread.start()
        done.wait()
        if let error = failure.withLockedValue({ $0 }) { throw error }
    }

    /// Ends `process` at once (SIGKILL), as a camera that loses power, and waits for it.
    public static func kill(_ process: Process) {
        if process.isRunning {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A new empty folder, named `prefix` and a UUID, in this test process's scratch folder
    /// (``scratchRoot``), which is removed when the process exits.
    public static func temporaryDirectory(prefix: String = "vigil-test") throws -> URL {
        let url = try scratchRoot.get().appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `vigil-tests-PID` in the system's temporary directory, created on first use together with an exit
    /// handler that removes it, so that a test run leaves no folders behind however its tests end.
    private static let scratchRoot: Result<URL, any Error> = Result {
        let root = scratchRootURL(of: getpid())
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestProcesses.scratchRootURL(of: getpid())) }
        return root
    }

    private static func scratchRootURL(of pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("vigil-tests-\(pid)")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freeLoopbackPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func portAccepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Polls `condition` every 50 ms for up to `seconds`; whether it became true.
    @discardableResult
    public static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// An RTSP server on loopback standing for a camera: Debian's rtsp-server-perl relay fed by
/// `ffmpeg -re ... -f rtsp` with a clip in a loop (its video, and its audio when asked, encoded
/// again as AAC so that the loop has no silent encoder padding at its seams). ``stop()``
/// kills both (a camera losing power: the relay keeps a killed publisher's mount, so both restart),
/// ``start()`` brings them back on the same ports.
public final class RTSPTestCamera: Sendable {
    /// The running processes and the number of starts so far.
    private struct Processes {
        var relay: Process?
        var publisher: Process?
        var runs = 0
        var relayLaunches = 0
    }

    /// Held by start() and stop(): a stop waits for a start running on another thread.
    private let processes = NIOLockedValueBox(Processes())
    /// Where the logs go.
    public let directory: URL
    /// The port clients read from.
    public let clientPort: Int
    /// The port the publisher sends to.
    public let sourcePort: Int
    /// The clip served.
    public let clip: URL
    /// Whether the clip's audio is served too.
    public let servesAudio: Bool

    /// Serves `clip` (video only unless `audio`), started at once.
    public init(clip: URL, audio: Bool = false) throws {
        directory = try TestProcesses.temporaryDirectory(prefix: "vigil-rtsp")
        self.clip = clip
        servesAudio = audio
        clientPort = TestProcesses.freeLoopbackPort()
        sourcePort = TestProcesses.freeLoopbackPort()
        try start()
    }

    /// The camera's URL.
    public var url: String { "rtsp://127.0.0.1:\(clientPort)/cam" }

    /// How many relays have been started: one per ``start()``, more where a publisher gave up and
    /// the start tried again with a new relay. A client may have connected to each of them, so a
    /// client's reconnects over `n` restarts lie in `n...relayLaunches - 1`.
    public var relayLaunches: Int { processes.withLockedValue { $0.relayLaunches } }

    /// Starts the relay, waits until it listens, then the publisher. A publisher that gives up
    /// (the relay not ready, or refusing the mount, under load) is started again with a new relay.
    public func start() throws {
        try Self.starting.withLock { try startProcesses() }
    }

    /// One camera starts at a time in the test process (starting takes a few seconds of the
    /// machine's attention).
    private static let starting = NIOLock()

    /// rtsp-server-perl run with its RTP base port set first: the relay goes back to the module's
    /// `$RTP_START_PORT` (20000, whatever `--rtp_start_port` says) whenever it has no mount, so two
    /// relays at once would both take 20000 and the second refuses its publisher's RECORD (404).
    private static let relayScript = """
        $RTSP::Server::RTP_START_PORT = shift @ARGV; my $server = RTSP::Server->new_with_options(); $server->listen; \
        AnyEvent->condvar->recv;
        """

    private func startProcesses() throws {
        try processes.withLockedValue { processes in
            processes.runs += 1
            let runs = processes.runs
            let (clientPort, sourcePort) = (clientPort, sourcePort)
            var lastLog = ""
            for attempt in 1...5 {
                // RTP ports of its own below the ephemeral range, apart from another camera's, new at each attempt.
                let rtpStartPort = 10_000 + ((clientPort + attempt * 397) % 1_000) * 20
                let relay = try TestProcesses.start(
                    [
                        "perl", "-MAnyEvent", "-MRTSP::Server", "-e", Self.relayScript, "\(rtpStartPort)", "--clientport", "\(clientPort)",
                        "--serverport", "\(sourcePort)", "--client_listen_address",
                        "127.0.0.1", "--source_listen_address", "127.0.0.1", "--rtp_start_port", "\(rtpStartPort)", "-l", "0",
                    ], log: directory.appendingPathComponent("relay-\(runs)-\(attempt).log"))
                processes.relay = relay
                processes.relayLaunches += 1
                guard
                    TestProcesses.wait(
                        seconds: 30, until: { TestProcesses.portAccepts(sourcePort) && TestProcesses.portAccepts(clientPort) })
                else {
                    throw TestProcesses.Failure(description: "rtsp-server-perl did not listen on \(sourcePort) and \(clientPort)")
                }
                let log = directory.appendingPathComponent("publisher-\(runs)-\(attempt).log")
                let publisher = try TestProcesses.start(
                    ["ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", clip.path]
                        + (servesAudio ? ["-c:v", "copy", "-c:a", "aac", "-b:a", "64k"] : ["-an", "-c:v", "copy"]) + [
                            "-f", "rtsp", "rtsp://127.0.0.1:\(sourcePort)/cam",
                        ],
                    log: log)
                processes.publisher = publisher
                Thread.sleep(forTimeInterval: Double(min(attempt, 3)))
                if publisher.isRunning { return }
                lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                TestProcesses.kill(relay)
                processes.relay = nil
                Thread.sleep(forTimeInterval: 0.5)
            }
            throw TestProcesses.Failure(description: "ffmpeg could not publish to the relay: \(lastLog.suffix(500))")
        }
    }

    /// Kills the publisher and the relay.
    public func stop() {
        processes.withLockedValue { processes in
            if let publisher = processes.publisher { TestProcesses.kill(publisher) }
            if let relay = processes.relay { TestProcesses.kill(relay) }
            processes.publisher = nil
            processes.relay = nil
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
