/// How an ``MQTTPublisher`` connects and queues.
public struct MQTTPublisherConfiguration: Sendable, Hashable {
    /// The broker.
    public var broker: MQTTBrokerURL
    /// The MQTT client identifier (unique per broker).
    public var clientID: String
    /// The availability topic: the will message `offline` (retained) is set on it, and `online`
    /// (retained) is published on every connect.
    public var availabilityTopic: String
    /// Messages that wait while the broker is unreachable (or while the in-flight window is
    /// full); beyond it the oldest waiting message is dropped and counted.
    public var queueLimit: Int
    /// Queued messages handed to libmosquitto and not yet acknowledged by the broker (PUBACK).
    /// With 1 (the default) delivery keeps the publication order even across a reconnect (the one
    /// unacknowledged message is resent first); more raises throughput, but a message resent after a
    /// reconnect may then arrive after later ones.
    public var maximumInFlight: Int
    /// CA certificate file (PEM) for `mqtts://`; `nil` uses the system's CA directory.
    public var caFile: String?
    /// Client certificate and key (PEM) for brokers that ask for one.
    public var certificateFile: String?
    /// The client certificate's key.
    public var keyFile: String?
    /// MQTT keep-alive, in seconds.
    public var keepAlive: Int
    /// The wait before a reconnect: from the first to the second value, doubling.
    public var reconnectDelay: (minimum: Int, maximum: Int) {
        get { (reconnectDelayMinimum, reconnectDelayMaximum) }
        set {
            reconnectDelayMinimum = newValue.minimum
            reconnectDelayMaximum = newValue.maximum
        }
    }
    private var reconnectDelayMinimum: Int
    private var reconnectDelayMaximum: Int

    /// Creates a configuration.
    public init(
        broker: MQTTBrokerURL, clientID: String = "vigil", availabilityTopic: String = "vigil/available", queueLimit: Int = 1000,
        maximumInFlight: Int = 1, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, keepAlive: Int = 30,
        reconnectDelay: (minimum: Int, maximum: Int) = (1, 30)
    ) {
        self.broker = broker
        self.clientID = clientID
        self.availabilityTopic = availabilityTopic
        self.queueLimit = queueLimit
        self.maximumInFlight = maximumInFlight
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.keepAlive = keepAlive
        reconnectDelayMinimum = reconnectDelay.minimum
        reconnectDelayMaximum = reconnectDelay.maximum
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.broker == b.broker && a.clientID == b.clientID && a.availabilityTopic == b.availabilityTopic && a.queueLimit == b.queueLimit
            && a.maximumInFlight == b.maximumInFlight && a.caFile == b.caFile && a.certificateFile == b.certificateFile
            && a.keyFile == b.keyFile && a.keepAlive == b.keepAlive && a.reconnectDelayMinimum == b.reconnectDelayMinimum
            && a.reconnectDelayMaximum == b.reconnectDelayMaximum
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(broker)
        hasher.combine(clientID)
        hasher.combine(availabilityTopic)
        hasher.combine(queueLimit)
    }
}
