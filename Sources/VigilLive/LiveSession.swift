import Foundation
import VigilAnalysis
import VigilCore
import VigilDSP
import VigilDetectors
import VigilDevice
import VigilEvents

/// The pure core of `vigil live`: owns the analysis (the shared STFT and every sound detector
/// this build has), the event engine and the device, consumes blocks of mono samples in media
/// order, and publishes the records to an ``EventHub``. No wall clock and no I/O: pacing and
/// transport live around it. Thread-safe (one lock); control changes queued on the
/// ``DeviceController`` take effect at the start of the next block.
///
/// Device changes: the engine's policy is fixed per engine, so a change finishes the current
/// engine at the current media time (open zone lifecycles and ebr clips close at their
/// scheduled stop and their events are emitted) and starts a new one with the new policy; zone
/// lifecycles restart. Event IDs, clip IDs and snapshot indices keep counting across engines.
/// Detectors run for every available sound trigger regardless of the policy (their state is
/// never reset), and the engine gates their detections, so a trigger disabled mid-stream
/// stops its events from the next block and one enabled mid-stream reports at once.
public final class LiveSession: @unchecked Sendable {
    /// The stream's sample rate.
    public let sampleRate: Double
    /// The `file` of every record: the source's name.
    public let sourceName: String
    /// The live device.
    public let device: DeviceController
    /// Where records go.
    public let hub: EventHub
    /// Counters.
    public let metrics: LiveMetrics
    /// Report suppressed candidates too.
    public let explain: Bool

    private let lock = NSLock()
    private let stft: ShortTimeFourierTransform
    private let detectors: [any SpectralDetector]
    private var detections: [Detection] = []
    private var engine: EventEngine
    private var sampleCount: Int64 = 0
    private var sequence: UInt64 = 0
    private var finished = false
    private var eventOffset = 0
    private var clipOffset = 0
    private var snapshotOffset = 0
    private var maxEventID = 0
    private var maxClipID = 0
    private var maxSnapshot = 0
    private var onRecord: (@Sendable (LiveRecord) -> Void)?

    /// Creates a session for a stream at `sampleRate`.
    /// - Parameter onRecord: called with every record, in order, on the processing thread
    ///   (e.g. to write JSON Lines to stdout); it must not block for long.
    public init(
        sampleRate: Double, sourceName: String, device: DeviceController, settings: DetectorSettings = DetectorSettings(),
        explain: Bool = false, hub: EventHub, metrics: LiveMetrics, onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.sampleRate = sampleRate
        self.sourceName = sourceName
        self.device = device
        self.explain = explain
        self.hub = hub
        self.metrics = metrics
        self.onRecord = onRecord
        let configuration = STFTConfiguration.standard(sampleRate: sampleRate)
        stft = ShortTimeFourierTransform(configuration: configuration)
        detectors = DetectorRegistry.makeDetectors(
            for: Set(DetectorRegistry.availableSoundTriggers), configuration: configuration, settings: settings)
        _ = device.takeChanges()
        engine = EventEngine(policy: EventPolicy(device: device.current))
    }

    /// Media time consumed so far (seconds).
    public var mediaTime: Double { lock.withLock { Double(sampleCount) / sampleRate } }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { lock.withLock { finished } }

    /// Consumes the next block: applies queued device changes, runs the detectors, feeds their
    /// detections to the engine, advances it to the block's end, and publishes the records.
    /// Returns them too.
    @discardableResult
    public func process(_ samples: UnsafeBufferPointer<Float>) -> [LiveRecord] {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return [] }
        var out: [LiveRecord] = []
        applyDeviceChanges(into: &out)
        detections.removeAll(keepingCapacity: true)
        let detectors = self.detectors
        stft.process(samples) { frame in
            for detector in detectors { detector.process(frame, into: &detections) }
        }
        sampleCount += Int64(samples.count)
        let now = Double(sampleCount) / sampleRate
        var records: [EngineRecord] = []
        for detection in sortedDetections() { records += engine.ingest(detection) }
        records += engine.advance(to: now)
        for record in records { emit(record, at: now, into: &out) }
        return out
    }

    /// Convenience for arrays.
    @discardableResult
    public func process(_ samples: [Float]) -> [LiveRecord] { samples.withUnsafeBufferPointer { process($0) } }

    /// Ends the stream: flushes the detectors and the engine, publishes the remaining records
    /// and an `end` record, and closes the hub.
    @discardableResult
    public func finish() -> [LiveRecord] {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return [] }
        finished = true
        var out: [LiveRecord] = []
        applyDeviceChanges(into: &out)
        detections.removeAll(keepingCapacity: true)
        let detectors = self.detectors
        stft.finish { frame in
            for detector in detectors { detector.process(frame, into: &detections) }
        }
        let now = Double(sampleCount) / sampleRate
        for detector in detectors { detector.finish(at: now, into: &detections) }
        var records: [EngineRecord] = []
        for detection in sortedDetections() { records += engine.ingest(detection) }
        records += engine.finish(at: now)
        for record in records { emit(record, at: now, into: &out) }
        publish(type: "end", at: now, members: [("time", RecordEncoder.rounded(now))], into: &out)
        hub.close()
        return out
    }

    // MARK: Private

    private func sortedDetections() -> [Detection] {
        detections.enumerated().sorted { l, r in
            l.element.detectedAt != r.element.detectedAt ? l.element.detectedAt < r.element.detectedAt : l.offset < r.offset
        }.map(\.element)
    }

    private func applyDeviceChanges(into out: inout [LiveRecord]) {
        guard let (newDevice, changes) = device.takeChanges() else { return }
        let now = Double(sampleCount) / sampleRate
        for record in engine.finish(at: now) { emit(record, at: now, into: &out) }
        eventOffset += maxEventID
        clipOffset += maxClipID
        snapshotOffset += maxSnapshot
        (maxEventID, maxClipID, maxSnapshot) = (0, 0, 0)
        engine = EventEngine(policy: EventPolicy(device: newDevice))
        _ = engine.advance(to: now)
        for change in changes {
            publish(
                type: "deviceChanged", at: now,
                members: [("time", RecordEncoder.rounded(now)), ("command", .string(change.command)), ("detail", change.detail)], into: &out)
        }
    }

    private func emit(_ record: EngineRecord, at now: Double, into out: inout [LiveRecord]) {
        var record = record
        if case .suppressed = record, !explain { return }
        var trigger: EventTriggerType?
        var detectedAt: Double?
        if case .event(var event) = record {
            maxEventID = max(maxEventID, event.id)
            event.id += eventOffset
            switch event.media {
            case .clip(let id, let start, let end)?:
                maxClipID = max(maxClipID, id)
                event.media = .clip(id: id + clipOffset, start: start, end: end)
            case .snapshot(let time, let index)?:
                maxSnapshot = max(maxSnapshot, index)
                event.media = .snapshot(time: time, index: index + snapshotOffset)
            default:
                break
            }
            trigger = event.trigger
            detectedAt = event.detectedAt
            record = .event(event)
        }
        let analysis = AnalysisRecord(file: sourceName, content: .engine(record))
        guard case .object(var object) = RecordEncoder.json(analysis) else { return }
        sequence += 1
        object["seq"] = .number(Double(sequence))
        object["emittedAt"] = RecordEncoder.rounded(now)
        let live = LiveRecord(
            sequence: sequence, type: analysis.typeName, trigger: trigger, emittedAt: now, detectedAt: detectedAt,
            line: JSONValue.object(object).serialized(.compact))
        deliver(live, into: &out)
    }

    private func publish(type: String, at now: Double, members: [(String, JSONValue)], into out: inout [LiveRecord]) {
        sequence += 1
        var object = JSONObject([
            ("v", .number(Double(RecordEncoder.schemaVersion))), ("type", .string(type)), ("file", .string(sourceName)),
        ])
        for (key, value) in members { object[key] = value }
        object["seq"] = .number(Double(sequence))
        object["emittedAt"] = RecordEncoder.rounded(now)
        deliver(LiveRecord(sequence: sequence, type: type, emittedAt: now, line: JSONValue.object(object).serialized(.compact)), into: &out)
    }

    private func deliver(_ record: LiveRecord, into out: inout [LiveRecord]) {
        out.append(record)
        onRecord?(record)
        hub.publish(record)
    }
}
