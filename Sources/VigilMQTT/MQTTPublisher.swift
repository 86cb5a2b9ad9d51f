import CMosquitto
import Foundation
import Glibc
import Logging
import NIOConcurrencyHelpers

/// Publishes messages to an MQTT broker through libmosquitto, at QoS 1.
///
/// - The will message `offline` (retained) is set on the availability topic, and `online`
///   (retained) is published on every connect, followed by the retained messages set with
///   ``setRetainedMessages(_:)`` (Home Assistant discovery configs).
/// - ``publish(_:)`` never blocks on the network: messages go through a bounded in-order queue.
///   While the broker is unreachable they wait there and are delivered in order after the
///   reconnect; beyond ``MQTTPublisherConfiguration/queueLimit`` the oldest waiting message is
///   dropped, counted in ``MQTTPublisherStatus/dropped`` and logged.
/// - libmosquitto's network thread reconnects with a doubling delay; a message handed to it and
///   not yet acknowledged is resent after a reconnect (so a subscriber may see it twice and
///   deduplicates, as QoS 1 allows).
///
/// Thread-safe: every method may be called from any thread.
public final class MQTTPublisher: Sendable {
    /// The configuration.
    public let configuration: MQTTPublisherConfiguration
    private let core: PublisherCore
    private let client: MosquittoHandle

    /// Creates a publisher (not yet connected): sets credentials, TLS and the will message.
    public init(configuration: MQTTPublisherConfiguration, logger: Logger = Logger(label: "vigil.mqtt")) throws(MQTTError) {
        MosquittoLibrary.initialise()
        self.configuration = configuration
        let brokerName = configuration.broker.description
        func failure(_ kind: MQTTError.Kind, _ reason: String) -> MQTTError { MQTTError(kind, broker: brokerName, reason: reason) }
        guard configuration.queueLimit >= 0, (1...65_535).contains(configuration.maximumInFlight) else {
            throw failure(.invalidMessage, "queue limit must be ≥ 0 and the in-flight window 1...65535")
        }
        if let problem = MQTTMessage(topic: configuration.availabilityTopic, text: "").problem { throw failure(.invalidMessage, problem) }
        let core = PublisherCore(configuration: configuration, logger: logger)
        let opaque = Unmanaged.passRetained(core)
        guard let mosq = mosquitto_new(configuration.clientID, true, opaque.toOpaque()) else {
            opaque.release()
            throw failure(.library, "cannot create a client: \(String(cString: strerror(errno)))")
        }
        core.opaque = opaque
        let handle = MosquittoHandle(pointer: mosq)
        core.client = handle
        func check(_ status: Int32, _ kind: MQTTError.Kind, _ doing: String) throws(MQTTError) {
            guard status == MOSQ_ERR_SUCCESS.rawValue else {
                mosquitto_destroy(mosq)
                opaque.release()
                throw failure(kind, "\(doing): \(MosquittoLibrary.text(status))")
            }
        }
        let broker = configuration.broker
        if let username = broker.username {
            try check(mosquitto_username_pw_set(mosq, username, broker.password), .library, "cannot set the credentials")
        }
        if broker.usesTLS {
            for file in [configuration.caFile, configuration.certificateFile, configuration.keyFile].compactMap({ $0 })
            where access(file, R_OK) != 0 {
                mosquitto_destroy(mosq)
                opaque.release()
                throw failure(.tls, "cannot read \(file): \(String(cString: strerror(errno)))")
            }
            if configuration.caFile == nil { _ = mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1) }
            try check(
                mosquitto_tls_set(
                    mosq, configuration.caFile, configuration.caFile == nil ? "/etc/ssl/certs" : nil, configuration.certificateFile,
                    configuration.keyFile, nil),
                .tls, "cannot set up TLS")
        }
        let offline = Array("offline".utf8)
        try check(
            mosquitto_will_set(mosq, configuration.availabilityTopic, Int32(offline.count), offline, 1, true), .invalidMessage,
            "cannot set the will message")
        let delay = configuration.reconnectDelay
        try check(
            mosquitto_reconnect_delay_set(mosq, UInt32(max(1, delay.minimum)), UInt32(max(delay.minimum, delay.maximum, 1)), true),
            .library,
            "cannot set the reconnect delay")
        mosquitto_connect_callback_set(mosq, onConnect)
        mosquitto_disconnect_callback_set(mosq, onDisconnect)
        mosquitto_publish_callback_set(mosq, onPublish)
        self.core = core
        self.client = handle
    }

    deinit {
        core.endRetries()
        mosquitto_disconnect(client.pointer)
        mosquitto_loop_stop(client.pointer, true)
        mosquitto_destroy(client.pointer)
        core.opaque?.release()
    }

    /// A copy of the current counters.
    public var status: MQTTPublisherStatus { core.state.withLockedValue { $0.status } }

    /// Sets the retained messages published after `online` on every connect (and now, when
    /// connected): discovery configs that must be there whenever the broker is.
    public func setRetainedMessages(_ messages: [MQTTMessage]) throws(MQTTError) {
        if let problem = messages.lazy.compactMap(\.problem).first {
            throw MQTTError(.invalidMessage, broker: configuration.broker.description, reason: problem)
        }
        let connected = core.state.withLockedValue { state in
            state.retained = messages
            return state.status.connected
        }
        if connected { core.publishDirectly(messages) }
    }

    /// Starts connecting in the background (libmosquitto's network thread); returns at once.
    /// A broker that cannot be reached yet is retried with the reconnect delay.
    public func start() throws(MQTTError) {
        let broker = configuration.broker
        let status = mosquitto_connect_async(client.pointer, broker.host, Int32(broker.port), Int32(configuration.keepAlive))
        guard status == MOSQ_ERR_SUCCESS.rawValue else {
            // libmosquitto's network thread waits for a first connection attempt that got under way
            // and never retries one that failed at once (a refused TCP connection): retry on a
            // thread of our own until one gets under way, then start the network thread.
            core.connectionAttemptFailed(status)
            core.retryFirstConnection()
            return
        }
        let loop = mosquitto_loop_start(client.pointer)
        guard loop == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(.library, broker: broker.description, reason: "cannot start the network thread: \(MosquittoLibrary.text(loop))")
        }
    }

    /// Waits until the broker accepts the connection. Throws the broker's refusal (credentials,
    /// authorisation) as soon as it comes, or ``MQTTError/Kind/unreachable`` after `timeout` seconds.
    public func waitUntilConnected(timeout: Double) throws(MQTTError) {
        let deadline = monotonicSeconds() + timeout
        while true {
            let (connected, error) = core.state.withLockedValue { ($0.status.connected, $0.status.lastError) }
            if connected { return }
            if let error, error.kind == .notAuthorized || error.kind == .refused || error.kind == .tls { throw error }
            if monotonicSeconds() >= deadline {
                let reason = error.map { "no connection within \(timeout) s (\($0.reason))" } ?? "no connection within \(timeout) s"
                throw MQTTError(.unreachable, broker: configuration.broker.description, reason: reason)
            }
            usleep(10_000)
        }
    }

    /// Queues `message` (QoS 1) for delivery in order. Throws only for a message MQTT cannot carry.
    public func publish(_ message: MQTTMessage) throws(MQTTError) {
        if let problem = message.problem { throw MQTTError(.invalidMessage, broker: configuration.broker.description, reason: problem) }
        core.enqueue(message)
    }

    /// Waits until every queued message is acknowledged, at most `timeout` seconds; whether it was.
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if core.state.withLockedValue({ $0.status.queued == 0 && $0.status.inFlight == 0 }) { return true }
            usleep(5_000)
        }
        return false
    }

    /// Publishes `offline` (retained) on the availability topic, waits up to `timeout` seconds for
    /// the queue to drain, and disconnects.
    public func stop(timeout: Double = 5) {
        core.endRetries()
        let connected = core.state.withLockedValue { $0.status.connected }
        if connected {
            flush(timeout: timeout)
            core.publishDirectly([MQTTMessage(topic: configuration.availabilityTopic, text: "offline", retain: true)])
            core.waitForControlMessages(timeout: timeout)
        }
        mosquitto_disconnect(client.pointer)
        mosquitto_loop_stop(client.pointer, false)
    }
}

/// The libmosquitto client pointer (used under libmosquitto's own locking).
struct MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The publisher's shared state and the callbacks' target.
final class PublisherCore: @unchecked Sendable {
    struct State {
        var status = MQTTPublisherStatus()
        var waiting: [MQTTMessage] = []
        var waitingHead = 0
        var retained: [MQTTMessage] = []
        var queuedMessageIDs: Set<Int32> = []
        var controlMessageIDs: Set<Int32> = []
        var earlyAcknowledgements: Set<Int32> = []
        var droppedSinceConnected = 0
        /// Whether the first-connection retry thread runs, and whether it is asked to end.
        var retrying = false
        var retriesEnded = false
    }

    let state = NIOLockedValueBox(State())
    /// Serialises hand-overs to libmosquitto so that the queue's order is kept.
    let sendLock = NIOLockedValueBox(())
    let configuration: MQTTPublisherConfiguration
    let logger: Logger
    // Set once in MQTTPublisher.init before the network thread starts.
    var client: MosquittoHandle?
    var opaque: Unmanaged<PublisherCore>?

    init(configuration: MQTTPublisherConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Records why a connection attempt failed at once.
    func connectionAttemptFailed(_ status: Int32) {
        let error = MQTTError(
            .unreachable, broker: configuration.broker.description, reason: "cannot connect: \(MosquittoLibrary.text(status))")
        state.withLockedValue { $0.status.lastError = error }
    }

    /// Retries the first connection on a thread of its own, with the reconnect delay (doubling),
    /// until an attempt gets under way, and then starts libmosquitto's network thread (which
    /// handles the connection and every later reconnect); or until ``endRetries()`` is called. Only
    /// this thread uses the client meanwhile: nothing is handed to libmosquitto while disconnected.
    func retryFirstConnection() {
        guard let client else { return }
        let delay = configuration.reconnectDelay
        let started = state.withLockedValue { state -> Bool in
            guard !state.retriesEnded, !state.retrying else { return false }
            state.retrying = true
            return true
        }
        guard started else { return }
        let thread = Thread { [self] in
            var wait = Double(max(1, delay.minimum))
            retrying: while true {
                let due = monotonicSeconds() + wait
                while monotonicSeconds() < due {
                    if state.withLockedValue({ $0.retriesEnded }) { break retrying }
                    usleep(10_000)
                }
                let status = mosquitto_reconnect_async(client.pointer)
                if status == MOSQ_ERR_SUCCESS.rawValue {
                    let loop = mosquitto_loop_start(client.pointer)
                    if loop != MOSQ_ERR_SUCCESS.rawValue {
                        logger.error("MQTT: cannot start the network thread: \(MosquittoLibrary.text(loop))")
                    }
                    break
                }
                connectionAttemptFailed(status)
                wait = min(wait * 2, Double(max(delay.minimum, delay.maximum, 1)))
            }
            state.withLockedValue { $0.retrying = false }
        }
        thread.name = "vigil-mqtt-connect"
        thread.start()
    }

    /// Ends the first-connection retries and waits until the retry thread is done with the client.
    func endRetries() {
        state.withLockedValue { $0.retriesEnded = true }
        while state.withLockedValue({ $0.retrying }) { usleep(5_000) }
    }

    func enqueue(_ message: MQTTMessage) {
        let dropped = state.withLockedValue { state -> Bool in
            state.waiting.append(message)
            var dropped = false
            if state.waiting.count - state.waitingHead > configuration.queueLimit {
                state.waitingHead += 1
                state.status.dropped += 1
                state.droppedSinceConnected += 1
                dropped = true
            }
            compact(&state)
            state.status.queued = state.waiting.count - state.waitingHead
            return dropped
        }
        if dropped {
            let count = state.withLockedValue { $0.droppedSinceConnected }
            if count == 1 {
                logger.warning(
                    "MQTT queue full (\(configuration.queueLimit) messages): dropping the oldest waiting messages",
                    metadata: ["broker": "\(configuration.broker)"])
            } else {
                logger.debug("MQTT queue full: dropped a message", metadata: ["dropped": "\(count)"])
            }
        }
        pump()
    }

    private func compact(_ state: inout State) {
        if state.waitingHead > 1024 && state.waitingHead * 2 > state.waiting.count {
            state.waiting.removeFirst(state.waitingHead)
            state.waitingHead = 0
        }
    }

    /// Hands waiting messages to libmosquitto while connected and the in-flight window allows.
    func pump() {
        guard let client else { return }
        sendLock.withLockedValue { _ in
            while true {
                let next = state.withLockedValue { state -> MQTTMessage? in
                    guard state.status.connected, state.status.inFlight < configuration.maximumInFlight,
                        state.waitingHead < state.waiting.count
                    else { return nil }
                    let message = state.waiting[state.waitingHead]
                    state.waitingHead += 1
                    compact(&state)
                    state.status.queued = state.waiting.count - state.waitingHead
                    state.status.inFlight += 1
                    return message
                }
                guard let message = next else { return }
                var mid: Int32 = 0
                let status = message.payload.withUnsafeBytes { bytes in
                    mosquitto_publish(client.pointer, &mid, message.topic, Int32(bytes.count), bytes.baseAddress, 1, message.retain)
                }
                // libmosquitto keeps a QoS 1 message it numbered even when the connection just dropped.
                let accepted =
                    status == MOSQ_ERR_SUCCESS.rawValue || status == MOSQ_ERR_NO_CONN.rawValue || status == MOSQ_ERR_CONN_LOST.rawValue
                state.withLockedValue { state in
                    if accepted {
                        if state.earlyAcknowledgements.remove(mid) != nil {
                            state.status.inFlight -= 1
                            state.status.delivered += 1
                        } else {
                            state.queuedMessageIDs.insert(mid)
                        }
                    } else {
                        state.status.inFlight -= 1
                        state.status.dropped += 1
                    }
                }
                if !accepted {
                    logger.error("MQTT message to \(message.topic) dropped: \(MosquittoLibrary.text(status))")
                }
            }
        }
    }

    /// Publishes `messages` at once (availability, discovery), outside the queue.
    func publishDirectly(_ messages: [MQTTMessage]) {
        guard let client else { return }
        for message in messages {
            var mid: Int32 = 0
            let status = message.payload.withUnsafeBytes { bytes in
                mosquitto_publish(client.pointer, &mid, message.topic, Int32(bytes.count), bytes.baseAddress, 1, message.retain)
            }
            if status == MOSQ_ERR_SUCCESS.rawValue || status == MOSQ_ERR_NO_CONN.rawValue {
                state.withLockedValue { state in
                    if state.earlyAcknowledgements.remove(mid) == nil { state.controlMessageIDs.insert(mid) }
                }
            } else {
                logger.error("MQTT message to \(message.topic) failed: \(MosquittoLibrary.text(status))")
            }
        }
    }

    func waitForControlMessages(timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline, !state.withLockedValue({ $0.controlMessageIDs.isEmpty }) { usleep(5_000) }
    }

    func connected(_ code: Int32) {
        if code == 0 {
            let (retained, dropped) = state.withLockedValue { state -> ([MQTTMessage], Int) in
                state.status.connected = true
                state.status.connections += 1
                state.status.lastError = nil
                let dropped = state.droppedSinceConnected
                state.droppedSinceConnected = 0
                return (state.retained, dropped)
            }
            logger.info("MQTT connected", metadata: ["broker": "\(configuration.broker)"])
            if dropped > 0 {
                logger.warning(
                    "MQTT: \(dropped) messages were dropped while the broker was unreachable (queue limit \(configuration.queueLimit))")
            }
            publishDirectly([MQTTMessage(topic: configuration.availabilityTopic, text: "online", retain: true)] + retained)
            pump()
        } else {
            let kind: MQTTError.Kind = code == 4 || code == 5 || code == 134 || code == 135 ? .notAuthorized : .refused
            let error = MQTTError(
                kind, broker: configuration.broker.description,
                reason: "the broker refused the connection: \(String(cString: mosquitto_connack_string(code)))")
            state.withLockedValue { $0.status.lastError = error }
            logger.error("\(error)")
        }
    }

    func disconnected(_ code: Int32) {
        let wasConnected = state.withLockedValue { state -> Bool in
            let was = state.status.connected
            state.status.connected = false
            if code != 0 && state.status.lastError?.kind != .notAuthorized {
                state.status.lastError = MQTTError(
                    .unreachable, broker: configuration.broker.description, reason: "connection lost: \(MosquittoLibrary.text(code))")
            }
            return was
        }
        if wasConnected && code != 0 {
            logger.warning("MQTT connection lost; reconnecting", metadata: ["broker": "\(configuration.broker)"])
        }
    }

    func acknowledged(_ mid: Int32) {
        state.withLockedValue { state in
            if state.queuedMessageIDs.remove(mid) != nil {
                state.status.inFlight -= 1
                state.status.delivered += 1
            } else if state.controlMessageIDs.remove(mid) == nil {
                state.earlyAcknowledgements.insert(mid)
            }
        }
        pump()
    }
}

private func core(_ opaque: UnsafeMutableRawPointer?) -> PublisherCore? {
    opaque.map { Unmanaged<PublisherCore>.fromOpaque($0).takeUnretainedValue() }
}

private let onConnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, opaque, code in
    core(opaque)?.connected(code)
}

private let onDisconnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, opaque, code in
    core(opaque)?.disconnected(code)
}

private let onPublish: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, opaque, mid in
    core(opaque)?.acknowledged(mid)
}

/// libmosquitto's process-wide set-up and error texts.
enum MosquittoLibrary {
    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func initialise() { _ = initialised }

    static func text(_ status: Int32) -> String {
        if status == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(status))
    }
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
