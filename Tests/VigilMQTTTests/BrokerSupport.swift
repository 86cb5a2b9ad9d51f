import Foundation
import Glibc
import VigilTestSupport

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func commandAvailable(_ command: String) -> Bool { ExternalCommand.isAvailable(command) }

let mosquittoAvailable = ["mosquitto", "mosquitto_sub", "mosquitto_passwd"].allSatisfy(commandAvailable)
let opensslAvailable = commandAvailable("openssl")

/// Runs `arguments` (looked up on PATH) in `directory`; throws when it fails.
func run(_ arguments: [String], in directory: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CommandFailed(description: "\(arguments.joined(separator: " ")) failed") }
}

struct CommandFailed: Error, CustomStringConvertible {
    var description: String
}

func temporaryDirectory() throws -> URL { try TestProcesses.temporaryDirectory(prefix: "vigil-mqtt") }

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLoopbackPort() -> Int { TestProcesses.freeLoopbackPort() }

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func portAccepts(_ port: Int) -> Bool { TestProcesses.portAccepts(port) }

/// Polls `condition` every 20 ms for up to `seconds`; whether it became true.
@discardableResult
func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

func launch(_ arguments: [String], log: URL) throws -> Process { try TestProcesses.start(arguments, log: log) }

/// Ends `process`: SIGTERM (mosquitto saves its persistence file), SIGKILL after 5 s.
func terminate(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    if !wait(seconds: 5, until: { !process.isRunning }) { _ = kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// Ends `process` at once (SIGKILL).
func killNow(_ process: Process) { TestProcesses.kill(process) }

/// A mosquitto broker on a free loopback port, with its configuration, persistence and optional
/// password file in a temporary folder. It can be stopped and started again on the same port.
final class TestBroker {
    let directory: URL
    let port: Int
    private var process: Process?
    private var runs = 0

    /// `users`: name -> password; none allows anonymous clients. With `tls`, the listener speaks
    /// TLS with a server certificate for 127.0.0.1 signed by a CA made here (`ca.crt`).
    init(users: [String: String] = [:], tls: Bool = false) throws {
        directory = try temporaryDirectory()
        port = freeLoopbackPort()
        var config = [
            "listener \(port) 127.0.0.1", "persistence true", "persistence_location \(directory.path)/", "log_dest stderr",
            // Started as root, mosquitto would switch to the user mosquitto, which cannot read the
            // temporary folder's key or write its persistence file.
            "user \(String(cString: getpwuid(getuid()).pointee.pw_name))",
        ]
        if tls {
            try "subjectAltName=IP:127.0.0.1\n".write(to: directory.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
            try run(
                [
                    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                    "-subj", "/CN=Vigil test CA",
                ], in: directory)
            try run(
                [
                    "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                    "/CN=127.0.0.1",
                ], in: directory)
            try run(
                [
                    "openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                    "server.crt",
                    "-days", "2", "-extfile", "san.ext",
                ], in: directory)
            config += [
                "cafile \(caFile.path)", "certfile \(directory.appendingPathComponent("server.crt").path)",
                "keyfile \(directory.appendingPathComponent("server.key").path)",
            ]
        }
        if users.isEmpty {
            config.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords")
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["mosquitto_passwd", "-b"] + (index == 0 ? ["-c"] : []) + [passwords.path, user, password]
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { throw CommandFailed(description: "mosquitto_passwd failed") }
            }
            config += ["allow_anonymous false", "password_file \(passwords.path)"]
        }
        try (config.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// The CA certificate of a TLS broker.
    var caFile: URL { directory.appendingPathComponent("ca.crt") }

    func start() throws {
        runs += 1
        process = try launch(
            ["mosquitto", "-c", directory.appendingPathComponent("mosquitto.conf").path],
            log: directory.appendingPathComponent("broker-\(runs).log"))
        guard wait(seconds: 10, until: { portAccepts(port) }) else {
            throw CommandFailed(description: "mosquitto did not start on port \(port)")
        }
    }

    func stop() {
        if let process { terminate(process) }
        process = nil
    }

    /// Whether the broker's logs (every run's) name a client `clientID` that connected.
    func hasConnected(_ clientID: String) -> Bool {
        (1...max(runs, 1)).contains { run in
            let log = try? String(contentsOf: directory.appendingPathComponent("broker-\(run).log"), encoding: .utf8)
            return log?.contains("as \(clientID) ") ?? false
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// `mosquitto_sub` on the test broker, QoS 1 with a persistent session, writing
/// `retain<TAB>topic<TAB>payload` lines to a file.
final class TestSubscriber {
    struct Message: Hashable {
        var retained: Bool
        var topic: String
        var payload: String
    }

    let output: URL
    let clientID: String
    private let process: Process

    init(
        broker: TestBroker, topics: [String] = ["vigil/#", "homeassistant/#"],
        clientID: String = "vigil-test-\(UUID().uuidString.prefix(8))"
    ) throws {
        self.clientID = clientID
        output = broker.directory.appendingPathComponent("\(clientID).out")
        process = try launch(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-c", "-i", clientID, "-F", "%r\t%t\t%p"]
                + topics.flatMap { ["-t", $0] }, log: output)
    }

    var messages: [Message] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return Message(retained: fields[0] == "1", topic: String(fields[1]), payload: String(fields[2]))
        }
    }

    deinit { killNow(process) }
}
