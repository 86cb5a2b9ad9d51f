import VigilAnalysis
import VigilCore

/// One output record: the JSON object (schema in docs/output-schema.md) and its compact one-line
/// form, serialized once and shared by every sink.
public struct OutputRecord: Sendable, Hashable {
    /// The record.
    public let json: JSONValue
    /// `json` serialized compactly, without a newline.
    public let line: String
    /// Where the record stands in a live stream; nil in batch analysis.
    public let stamp: StreamStamp?

    /// Wraps `json`, serializing it once.
    public init(_ json: JSONValue) {
        self.json = json
        line = json.serialized(.compact)
        stamp = nil
    }

    /// Wraps `json` whose compact form `line` is already known, with its place in a live stream.
    public init(json: JSONValue, line: String, stamp: StreamStamp?) {
        self.json = json
        self.line = line
        self.stamp = stamp
    }
}

/// A live stream record's place and times, as stream clients need them without parsing the line.
public struct StreamStamp: Sendable, Hashable {
    /// Position in the stream: 1, 2, 3, ... (`seq`).
    public var sequence: UInt64
    /// The record's `type`.
    public var type: String
    /// The trigger of an `event` or `eventStarted` record.
    public var trigger: EventTriggerType?
    /// Media time (seconds) at which the run emitted the record.
    public var emittedAt: Double
    /// The detection time of an `event` or `eventStarted` record (media seconds).
    public var detectedAt: Double?

    /// Creates a stamp.
    public init(sequence: UInt64, type: String, trigger: EventTriggerType? = nil, emittedAt: Double, detectedAt: Double? = nil) {
        self.sequence = sequence
        self.type = type
        self.trigger = trigger
        self.emittedAt = emittedAt
        self.detectedAt = detectedAt
    }
}

/// A recording whose analysis is complete, as the sinks that write per-recording files see it.
public struct FinishedRecording: Sendable {
    /// The recording.
    public var recording: InputRecording
    /// Its records, in output order.
    public var records: [JSONValue]
    /// Its summary line (summary.json, summary.tsv).
    public var summary: RecordingSummary
    /// report.png, when one was drawn.
    public var report: [UInt8]?
    /// Identifies the run and the input (the output folder's completion marker).
    public var fingerprint: String
    /// Whether the outputs were already complete on disk from an earlier run (nothing to write).
    public var resumed: Bool

    /// Creates a finished recording.
    public init(
        recording: InputRecording, records: [JSONValue], summary: RecordingSummary, report: [UInt8]? = nil, fingerprint: String,
        resumed: Bool = false
    ) {
        self.recording = recording
        self.records = records
        self.summary = summary
        self.report = report
        self.fingerprint = fingerprint
        self.resumed = resumed
    }
}

/// Where an analysis run's output goes. A run hands every sink the same records in the same
/// order: in batch analysis all of one recording's records at once, in input order; in a live
/// run each record as it is emitted. The run calls a sink from one thread at a time.
///
/// Implementations: ``JSONLinesSink``, ``TSVSink``, ``TableSink``, ``OutputFolderSink`` (the
/// per-recording folder of `--out`), and in VigilLive `EventHubSink` (the live stream's clients)
/// and `MQTTEventSink` (`--mqtt`: an MQTT broker for Home Assistant).
/// To add one, see docs/architecture.md ("Adding a sink").
public protocol EventSink: AnyObject {
    /// Receives records, in output order.
    func receive(_ records: [OutputRecord])
    /// A recording is complete (batch analysis; called after its records were received).
    /// - Throws: an error naming what could not be written; the run reports it and counts the
    ///   recording as failed.
    func recordingFinished(_ recording: FinishedRecording) throws
    /// The run is over: write what is held back and flush.
    /// - Throws: an error naming what could not be written.
    func finish() throws
}

extension EventSink {
    /// Nothing per recording by default.
    public func recordingFinished(_ recording: FinishedRecording) throws {}
    /// Nothing held back by default.
    public func finish() throws {}
}
