import Foundation
import VigilAnalysis
import VigilControl
import VigilCore
import VigilDSP
import VigilDetectors
import VigilDevice
import VigilEvents
import VigilFrameIO
import VigilVision

/// The pure core of `vigil live`: owns the analysis, the event engine and the device, consumes
/// media in order, and publishes the records to an ``EventHub``. An audio session (created
/// with a sample rate) runs the shared STFT and every sound detector this build has on blocks
/// of mono samples; a video session (``init(videoSourceName:device:explain:hub:metrics:onRecord:)``)
/// runs the ``MotionDetector`` with the device's zones on frames. No wall clock and no I/O:
/// pacing and transport live around it. Thread-safe (one lock); control changes queued on the
/// ``DeviceController`` take effect at the start of the next block or frame.
///
/// **Early records.** After each STFT frame the sound detectors report activities they have
/// just confirmed (`reportStarts`), and the engine (created with `reportsStarts`) turns each
/// into an `eventStarted` record at once; the final `event` with the same `id` follows when
/// the activity ends (and, in ebr, its clip has closed). Vision events get an `eventStarted`
/// when their activation begins.
///
/// Device changes go to ``EventEngine/changePolicy(to:at:)`` at the current media time (open
/// zone lifecycles and ebr clips close at their scheduled stop and their events are emitted;
/// zone lifecycles restart; event IDs, clip IDs and snapshot indices keep counting; events of
/// sounds still going on carry over, or end at the change if the new policy gates their
/// trigger). Sound detectors run for every available sound trigger regardless of the policy
/// (their state is never reset), and the engine gates their detections, so a trigger disabled
/// mid-stream stops its events from the next block and one enabled mid-stream reports at once.
/// The motion detector takes the new zones, sensitivities and privacy zones from the next
/// frame, keeping its background model.
public final class LiveSession: @unchecked Sendable {
    /// The stream's sample rate (audio sessions); 0 for a video session.
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
    private let stft: ShortTimeFourierTransform?
    private let detectors: [any SpectralDetector]
    private let motion: MotionDetector?
    private var detections: [Detection] = []
    private var engine: EventEngine
    private var sampleCount: Int64 = 0
    /// Video: media time of the latest frame, and the frame interval seen.
    private var frameTime: Double?
    private var frameInterval = 0.0
    private var frames = 0
    private var sequence: UInt64 = 0
    private var finished = false
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
        motion = nil
        _ = device.takeChanges()
        engine = EventEngine(policy: EventPolicy(device: device.current), reportsStarts: true)
    }

    /// Creates a session for a video stream: motion in the device's activity zones (privacy
    /// zones masked, whole-frame changes suppressed, as in `vigil analyze --video`).
    /// - Parameter onRecord: as for an audio session.
    public init(
        videoSourceName sourceName: String, device: DeviceController, explain: Bool = false, hub: EventHub, metrics: LiveMetrics,
        onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.sampleRate = 0
        self.sourceName = sourceName
        self.device = device
        self.explain = explain
        self.hub = hub
        self.metrics = metrics
        self.onRecord = onRecord
        stft = nil
        detectors = []
        _ = device.takeChanges()
        motion = MotionDetector(configuration: MotionConfiguration(device: device.current))
        engine = EventEngine(policy: EventPolicy(device: device.current), reportsStarts: true)
    }

    /// Whether this session analyzes video frames (else audio blocks).
    public var isVideo: Bool { motion != nil }

    /// Media time consumed so far (seconds): the end of the last audio block, or the time of
    /// the last video frame.
    public var mediaTime: Double { lock.withLock { currentTime } }

    private var currentTime: Double {
        if motion != nil { return frameTime ?? 0 }
        return Double(sampleCount) / sampleRate
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { lock.withLock { finished } }

    /// Consumes the next block: applies queued device changes, runs the detectors, feeds their
    /// detections to the engine, advances it to the block's end, and publishes the records.
    /// Returns them too.
    @discardableResult
    public func process(_ samples: UnsafeBufferPointer<Float>) -> [LiveRecord] {
        lock.lock()
        defer { lock.unlock() }
        guard !finished, let stft else { return [] }
        var out: [LiveRecord] = []
        applyDeviceChanges(into: &out)
        detections.removeAll(keepingCapacity: true)
        let detectors = self.detectors
        stft.process(samples) { frame in
            for detector in detectors {
                detector.process(frame, into: &detections)
                detector.reportStarts(into: &detections)
            }
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

    /// Consumes the next video frame (video sessions; frames in nondecreasing media time):
    /// applies queued device changes (new zones from this frame on), runs the motion detector,
    /// feeds its zone detections to the engine, advances it to the frame's time, and publishes
    /// the records. Returns them too.
    @discardableResult
    public func process(frame: VideoFrame) -> [LiveRecord] {
        lock.lock()
        defer { lock.unlock() }
        guard !finished, let motion else { return [] }
        if let previous = frameTime, frame.time > previous { frameInterval = frame.time - previous }
        let time = max(frame.time, frameTime ?? frame.time)
        frameTime = time
        frames += 1
        var out: [LiveRecord] = []
        applyDeviceChanges(into: &out)
        let luma = frame.picture.luma
        let result = luma.pixels.withUnsafeBufferPointer {
            motion.process(luma: $0, width: luma.width, height: luma.height, stride: luma.width, time: time)
        }
        var records: [EngineRecord] = []
        for detection in result.detections { records += engine.ingest(detection) }
        records += engine.advance(to: time)
        for record in records { emit(record, at: time, into: &out) }
        return out
    }

    /// Ends the stream: flushes the detectors and the engine, publishes the remaining records
    /// and an `end` record, and closes the hub. A video stream ends one frame interval after
    /// its last frame.
    @discardableResult
    public func finish() -> [LiveRecord] {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return [] }
        finished = true
        var out: [LiveRecord] = []
        if motion != nil, let last = frameTime {
            frameTime = last + frameInterval
        }
        applyDeviceChanges(into: &out)
        detections.removeAll(keepingCapacity: true)
        let detectors = self.detectors
        stft?.finish { frame in
            for detector in detectors { detector.process(frame, into: &detections) }
        }
        let now = currentTime
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
        let now = currentTime
        for record in engine.changePolicy(to: EventPolicy(device: newDevice), at: now) { emit(record, at: now, into: &out) }
        motion?.reconfigure(MotionConfiguration(device: newDevice))
        for change in changes {
            publish(
                type: "deviceChanged", at: now,
                members: [("time", RecordEncoder.rounded(now)), ("command", .string(change.command)), ("detail", change.detail)], into: &out)
        }
    }

    private func emit(_ record: EngineRecord, at now: Double, into out: inout [LiveRecord]) {
        if case .suppressed = record, !explain { return }
        var trigger: EventTriggerType?
        var detectedAt: Double?
        switch record {
        case .event(let event):
            trigger = event.trigger
            detectedAt = event.detectedAt
        case .eventStarted(let started):
            trigger = started.trigger
            detectedAt = started.detectedAt
        default:
            break
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
