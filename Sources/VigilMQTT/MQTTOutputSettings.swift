import VigilDevice

/// What `--mqtt` and its companion options ask for: the broker, TLS, the topic and discovery
/// prefixes and the queue bound, checked once so that a usage problem names its option before
/// anything runs. ``publisherConfiguration(cameraID:availabilityTopic:)`` and ``mapping(for:)``
/// turn it into the publisher's configuration and the Home Assistant mapping (docs/mqtt.md).
public struct MQTTOutputSettings: Sendable, Hashable {
    /// A problem with one option: the option (with its value) and the reason.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The option and its value as given (a URL's password replaced by `***`).
        public var option: String
        /// What is wrong with it.
        public var reason: String
        /// "--mqtt-topic-prefix a/+/b: contains an MQTT wildcard (+ or #)".
        public var description: String { "\(option): \(reason)" }
    }

    /// The broker (`--mqtt`).
    public var broker: MQTTBrokerURL
    /// CA certificate (PEM) for an `mqtts://` broker (`--mqtt-ca-file`); nil: the system's CA certificates.
    public var caFile: String?
    /// First topic segment of the event, state and availability topics (`--mqtt-topic-prefix`).
    public var topicPrefix = "vigil"
    /// Home Assistant's discovery prefix (`--mqtt-discovery-prefix`).
    public var discoveryPrefix = "homeassistant"
    /// Messages that wait while the broker is unreachable (`--mqtt-queue-limit`); beyond it the
    /// oldest waiting message is dropped and counted.
    public var queueLimit = 1000
    /// Seconds to wait for the broker at start: a refusal (credentials) in that time is an error; a
    /// broker not reached in that time is a warning, and records queue until it is.
    public var connectTimeout: Double = 5
    /// Seconds the end of a run waits for queued messages to be delivered.
    public var finishTimeout: Double = 10

    /// Settings for `broker`, with the default prefixes and bounds.
    public init(broker: MQTTBrokerURL) { self.broker = broker }

    /// The settings of the command-line options; nil without a broker URL. Throws a ``Problem``
    /// naming the option: a URL that does not parse, a CA file without `mqtts://`, a prefix that
    /// is not a topic level sequence MQTT allows, a companion option without `--mqtt`, a queue
    /// limit below 1.
    public static func parse(
        broker: String?, caFile: String? = nil, topicPrefix: String? = nil, discoveryPrefix: String? = nil, queueLimit: Int? = nil
    ) throws(Problem) -> MQTTOutputSettings? {
        guard let broker else {
            let given =
                [("--mqtt-ca-file", caFile), ("--mqtt-topic-prefix", topicPrefix), ("--mqtt-discovery-prefix", discoveryPrefix)]
                .first { $0.1 != nil }?.0 ?? (queueLimit != nil ? "--mqtt-queue-limit" : nil)
            if let given { throw Problem(option: given, reason: "goes with --mqtt URL") }
            return nil
        }
        var settings: MQTTOutputSettings
        do { settings = MQTTOutputSettings(broker: try MQTTBrokerURL(parsing: broker)) } catch {
            throw Problem(option: "--mqtt \(MQTTBrokerURL.redacted(broker))", reason: error.reason)
        }
        if let caFile {
            guard settings.broker.usesTLS else { throw Problem(option: "--mqtt-ca-file \(caFile)", reason: "goes with an mqtts:// broker") }
            settings.caFile = caFile
        }
        for (option, value) in [("--mqtt-topic-prefix", topicPrefix), ("--mqtt-discovery-prefix", discoveryPrefix)] {
            guard let value else { continue }
            if let reason = prefixProblem(value) { throw Problem(option: "\(option) \(value)", reason: reason) }
        }
        settings.topicPrefix = topicPrefix ?? settings.topicPrefix
        settings.discoveryPrefix = discoveryPrefix ?? settings.discoveryPrefix
        if let queueLimit {
            guard (1...10_000_000).contains(queueLimit) else {
                throw Problem(option: "--mqtt-queue-limit \(queueLimit)", reason: "must be 1...10000000 messages")
            }
            settings.queueLimit = queueLimit
        }
        return settings
    }

    /// Why `prefix` cannot start a topic, or nil.
    static func prefixProblem(_ prefix: String) -> String? {
        if prefix.contains("+") || prefix.contains("#") { return "contains an MQTT wildcard (+ or #)" }
        if prefix.contains("\u{0}") { return "contains a NUL character" }
        if prefix.allSatisfy({ $0 == "/" }) { return "is empty" }
        if prefix.utf8.count > 1000 { return "is longer than 1000 bytes" }
        return nil
    }

    /// The Home Assistant mapping of `device` (its name and enabled triggers) with these prefixes.
    public func mapping(for device: Device) -> HomeAssistantMQTTMapping {
        HomeAssistantMQTTMapping(device: device, topicPrefix: topicPrefix, discoveryPrefix: discoveryPrefix)
    }

    /// The publisher's configuration for the camera `cameraID`: client identifier
    /// `vigil-<camera>-<process id>` (unique per broker even with two runs of one camera), the
    /// availability topic as its will, the queue bound, TLS.
    public func publisherConfiguration(cameraID: String, availabilityTopic: String, processID: Int32) -> MQTTPublisherConfiguration {
        MQTTPublisherConfiguration(
            broker: broker, clientID: "vigil-\(cameraID)-\(processID)", availabilityTopic: availabilityTopic, queueLimit: queueLimit,
            caFile: caFile)
    }
}
