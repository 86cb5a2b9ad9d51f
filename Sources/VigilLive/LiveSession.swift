import Foundation
import NIOConcurrencyHelpers
import VigilAnalysis
import VigilControl
import VigilCore
import VigilDSP
import VigilDetectors
import VigilDevice
import VigilEvents
import VigilFrameIO
import VigilPipeline
import VigilVision

/// The pure core of `vigil live`: owns the analysis, the event engine and the device, consumes
/// media in order, and hands the records to its event sinks (``EventSink``; always last an
/// ``EventHubSink`` publishing to an ``EventHub``). An audio session (created with a sample
/// rate) runs an ``AudioStreamAnalyzer`` (the shared STFT and every sound detector this build
/// has, the same as `vigil analyze`) on blocks of mono samples; a video session (``init(videoSourceName:device:explain:hub:metrics:sinks:onRecord:)``)
/// runs the ``MotionDetector`` with the device's zones on frames; an audio-and-video session
/// (a container file or a camera stream) runs both into one engine. No wall clock and no I/O:
/// pacing and transport live around it. Thread-safe (one lock, held while the sinks receive); control changes queued on the
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
    /// The stream's sample rate (audio sessions); 0 for a video session, and for a session whose
    /// audio analysis has not started (``startAudio(sampleRate:)``).
    public var sampleRate: Double { state.withLockedValue { _ in audioRate } }
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

    /// What the lock guards: the engine, the stream position and whether the stream has ended.
    private struct State {
        var engine: EventEngine
        /// Video: media time of the latest frame, and the frame interval seen.
        var frameTime: Double?
        var frameInterval = 0.0
        var frames = 0
        var sequence: UInt64 = 0
        var finished = false
    }

    private let state: NIOLockedValueBox<State>
    /// The analysis (one of the two, or both), used only with the lock held. They stay outside the mutex
    /// because an analyzer takes the caller's sample buffer, which cannot enter the mutex's region.
    /// `audio` is `nil` until ``startAudio(sampleRate:)`` in a session made without a rate.
    private var audio: AudioStreamAnalyzer?
    private let motion: MotionDetector?
    /// The rate `audio` runs at (0 without audio), set with it under the lock.
    private var audioRate = 0.0
    /// Whether the session analyzes audio (from the start, or once its rate is known).
    private let audioExpected: Bool
    /// The detector settings `audio` is made with.
    private let settings: DetectorSettings
    /// Called with the lock held, in order, for every record.
    private let sinks: [any EventSink]

    /// Creates a session for a stream at `sampleRate`.
    /// - Parameters:
    ///   - sinks: receive every record, in order, on the processing thread (e.g. JSON Lines on
    ///     stdout), before the hub; they must not block for long.
    ///   - onRecord: called with every record after the sinks (tests).
    public convenience init(
        sampleRate: Double, sourceName: String, device: DeviceController, settings: DetectorSettings = DetectorSettings(),
        explain: Bool = false, hub: EventHub, metrics: LiveMetrics, sinks: [any EventSink] = [],
        onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.init(
            audioRate: sampleRate, video: false, sourceName: sourceName, device: device, settings: settings, explain: explain, hub: hub,
            metrics: metrics, sinks: sinks, onRecord: onRecord)
    }

    /// Creates a session for a video stream: motion in the device's activity zones (privacy
    /// zones masked, whole-frame changes suppressed, as in `vigil analyze --video`).
    /// - Parameters: `sinks` and `onRecord` as for an audio session.
    public convenience init(
        videoSourceName sourceName: String, device: DeviceController, explain: Bool = false, hub: EventHub, metrics: LiveMetrics,
        sinks: [any EventSink] = [], onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.init(
            audioRate: nil, video: true, sourceName: sourceName, device: device, settings: DetectorSettings(), explain: explain, hub: hub,
            metrics: metrics, sinks: sinks, onRecord: onRecord)
    }

    /// Creates a session for a stream with audio and video on one media timeline (a container file
    /// or a camera stream): the ``AudioStreamAnalyzer`` on blocks of mono samples at `sampleRate` and
    /// the ``MotionDetector`` on frames, feeding one event engine, so that sound and motion events
    /// share one timeline, one ID sequence and one ebr clip tracker. Feed both in media order: a
    /// frame once the audio has reached its time (``LiveRunner`` does). Parameters as for an audio
    /// session.
    public convenience init(
        sampleRate: Double, audioVideoSourceName sourceName: String, device: DeviceController,
        settings: DetectorSettings = DetectorSettings(),
        explain: Bool = false, hub: EventHub, metrics: LiveMetrics, sinks: [any EventSink] = [],
        onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.init(
            audioRate: sampleRate, video: true, sourceName: sourceName, device: device, settings: settings, explain: explain, hub: hub,
            metrics: metrics, sinks: sinks, onRecord: onRecord)
    }

    /// Creates a session for a stream whose audio rate is known only once it connects (a camera
    /// stream analysed at its own rate): the audio analysis starts with ``startAudio(sampleRate:)``,
    /// and blocks before it are ignored; with `video`, frames are analyzed from the start.
    /// Parameters as for an audio session.
    public convenience init(
        audioRateLaterSourceName sourceName: String, video: Bool, device: DeviceController,
        settings: DetectorSettings = DetectorSettings(), explain: Bool = false, hub: EventHub, metrics: LiveMetrics,
        sinks: [any EventSink] = [], onRecord: (@Sendable (LiveRecord) -> Void)? = nil
    ) {
        self.init(
            audioRate: nil, audioLater: true, video: video, sourceName: sourceName, device: device, settings: settings, explain: explain,
            hub: hub, metrics: metrics, sinks: sinks, onRecord: onRecord)
    }

    /// The session with an audio analyzer at `audioRate` (if given; with `audioLater`, made by
    /// ``startAudio(sampleRate:)``) and a motion detector (if `video`).
    private init(
        audioRate: Double?, audioLater: Bool = false, video: Bool, sourceName: String, device: DeviceController,
        settings: DetectorSettings, explain: Bool, hub: EventHub, metrics: LiveMetrics, sinks: [any EventSink],
        onRecord: (@Sendable (LiveRecord) -> Void)?
    ) {
        self.audioExpected = audioRate != nil || audioLater
        self.settings = settings
        self.sourceName = sourceName
        self.device = device
        self.explain = explain
        self.hub = hub
        self.metrics = metrics
        self.sinks = Self.sinks(sinks, onRecord: onRecord, hub: hub)
        audio = audioRate.map { Self.makeAnalyzer(sampleRate: $0, settings: settings) }
        self.audioRate = audioRate ?? 0
        _ = device.takeChanges()
        motion = video ? MotionDetector(configuration: MotionConfiguration(device: device.current)) : nil
        state = NIOLockedValueBox(State(engine: EventEngine(policy: EventPolicy(device: device.current), reportsStarts: true)))
    }

    /// The analyzer of every available sound trigger at `sampleRate`, reporting starts.
    private static func makeAnalyzer(sampleRate: Double, settings: DetectorSettings) -> AudioStreamAnalyzer {
        let analyzer = AudioStreamAnalyzer(
            sampleRate: sampleRate, triggers: Set(DetectorRegistry.availableSoundTriggers), settings: settings)
        analyzer.reportsStarts = true
        return analyzer
    }

    /// Starts the audio analysis of a session made for a stream whose rate was not yet known (a
    /// camera stream analysed at its own rate): blocks at `sampleRate` follow. Does nothing when
    /// the analysis has already started or the session analyzes no audio.
    public func startAudio(sampleRate: Double) {
        precondition(sampleRate > 0, "a sample rate must be positive")
        state.withLockedValue { _ in
            guard audioExpected, audio == nil else { return }
            audio = Self.makeAnalyzer(sampleRate: sampleRate, settings: settings)
            audioRate = sampleRate
        }
    }

    /// Whether only video frames are analyzed (a stream without audio).
    public var isVideo: Bool { motion != nil && !audioExpected }

    /// Whether audio blocks are analyzed (a stream with audio, with or without video; the
    /// analysis may wait for ``startAudio(sampleRate:)``).
    public var analyzesAudio: Bool { audioExpected }

    /// Whether video frames are analyzed (a stream with video, with or without audio).
    public var analyzesVideo: Bool { motion != nil }

    /// Media time consumed so far (seconds): the end of the last audio block, or the time of
    /// the last video frame (with both, the later of the two).
    public var mediaTime: Double { state.withLockedValue { currentTime($0) } }

    /// Media time consumed so far, from the guarded `state`.
    private func currentTime(_ state: State) -> Double {
        guard let audio else { return state.frameTime ?? 0 }
        return motion == nil ? audio.mediaTime : max(audio.mediaTime, state.frameTime ?? 0)
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { state.withLockedValue { $0.finished } }

    /// Consumes the next block: applies queued device changes, runs the detectors, feeds their
    /// detections to the engine, advances it to the block's end, and publishes the records.
    /// Returns them too.
    @discardableResult
    public func process(_ samples: UnsafeBufferPointer<Float>) -> [LiveRecord] {
        state.withLockedValue { state in
            guard !state.finished, let audio else { return [] }
            var out: [LiveRecord] = []
            applyDeviceChanges(&state, into: &out)
            audio.removeDetections()
            audio.process(samples)
            let now = currentTime(state)
            var records: [EngineRecord] = []
            for detection in Self.sorted(audio.detections) { records += state.engine.ingest(detection) }
            records += state.engine.advance(to: now)
            for record in records { emit(record, at: now, &state, into: &out) }
            return out
        }
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
        state.withLockedValue { state in
            guard !state.finished, let motion else { return [] }
            if let previous = state.frameTime, frame.time > previous { state.frameInterval = frame.time - previous }
            let time = max(frame.time, state.frameTime ?? frame.time)
            state.frameTime = time
            state.frames += 1
            var out: [LiveRecord] = []
            applyDeviceChanges(&state, into: &out)
            let luma = frame.picture.luma
            let result = luma.pixels.withUnsafeBufferPointer {
                motion.process(luma: $0, width: luma.width, height: luma.height, stride: luma.width, time: time)
            }
            // With audio as well, records are stamped with the later of the audio and the frame time.
            let now = currentTime(state)
            var records: [EngineRecord] = []
            for detection in result.detections { records += state.engine.ingest(detection) }
            records += state.engine.advance(to: now)
            for record in records { emit(record, at: now, &state, into: &out) }
            return out
        }
    }

    /// Ends the stream: flushes the detectors and the engine, publishes the remaining records
    /// and an `end` record, and closes the hub. A video stream ends one frame interval after
    /// its last frame.
    @discardableResult
    public func finish() -> [LiveRecord] {
        state.withLockedValue { state in
            guard !state.finished else { return [] }
            state.finished = true
            var out: [LiveRecord] = []
            if motion != nil, let last = state.frameTime {
                state.frameTime = last + state.frameInterval
            }
            applyDeviceChanges(&state, into: &out)
            audio?.removeDetections()
            audio?.finish()
            let now = currentTime(state)
            var records: [EngineRecord] = []
            for detection in Self.sorted(audio?.detections ?? []) { records += state.engine.ingest(detection) }
            // Audio and video: a video that ends before the audio closes its lifecycles at its end.
            if let audio, motion != nil, let videoEnd = state.frameTime, videoEnd < audio.mediaTime {
                records += state.engine.endVision(at: videoEnd)
            }
            records += state.engine.finish(at: now)
            for record in records { emit(record, at: now, &state, into: &out) }
            publish(type: "end", at: now, members: [("time", RecordEncoder.rounded(now))], &state, into: &out)
            for sink in sinks { try? sink.finish() }  // stream sinks write as they receive; nothing is held back to fail
            return out
        }
    }

    // MARK: Private

    /// The sinks of a session: `sinks`, then `onRecord`, then the hub.
    private static func sinks(_ sinks: [any EventSink], onRecord: (@Sendable (LiveRecord) -> Void)?, hub: EventHub) -> [any EventSink] {
        sinks + (onRecord.map { [RecordCallbackSink(onRecord: $0)] } ?? []) + [EventHubSink(hub: hub)]
    }

    private static func sorted(_ detections: [Detection]) -> [Detection] {
        detections.enumerated().sorted { l, r in
            l.element.detectedAt != r.element.detectedAt ? l.element.detectedAt < r.element.detectedAt : l.offset < r.offset
        }.map(\.element)
    }

    // The helpers below run with the lock held (`state` is the guarded state).

    private func applyDeviceChanges(_ state: inout State, into out: inout [LiveRecord]) {
        guard let (newDevice, changes) = device.takeChanges() else { return }
        let now = currentTime(state)
        for record in state.engine.changePolicy(to: EventPolicy(device: newDevice), at: now) { emit(record, at: now, &state, into: &out) }
        motion?.reconfigure(MotionConfiguration(device: newDevice))
        for change in changes {
            publish(
                type: "deviceChanged", at: now,
                members: [("time", RecordEncoder.rounded(now)), ("command", .string(change.command)), ("detail", change.detail)], &state,
                into: &out)
        }
    }

    private func emit(_ record: EngineRecord, at now: Double, _ state: inout State, into out: inout [LiveRecord]) {
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
        state.sequence += 1
        object["seq"] = .number(Double(state.sequence))
        object["emittedAt"] = RecordEncoder.rounded(now)
        let json = JSONValue.object(object)
        let stamp = StreamStamp(sequence: state.sequence, type: analysis.typeName, trigger: trigger, emittedAt: now, detectedAt: detectedAt)
        deliver(OutputRecord(json: json, line: json.serialized(.compact), stamp: stamp), into: &out)
    }

    private func publish(type: String, at now: Double, members: [(String, JSONValue)], _ state: inout State, into out: inout [LiveRecord]) {
        state.sequence += 1
        var object = JSONObject([
            ("v", .number(Double(RecordEncoder.schemaVersion))), ("type", .string(type)), ("file", .string(sourceName)),
        ])
        for (key, value) in members { object[key] = value }
        object["seq"] = .number(Double(state.sequence))
        object["emittedAt"] = RecordEncoder.rounded(now)
        let json = JSONValue.object(object)
        let stamp = StreamStamp(sequence: state.sequence, type: type, emittedAt: now)
        deliver(OutputRecord(json: json, line: json.serialized(.compact), stamp: stamp), into: &out)
    }

    private func deliver(_ record: OutputRecord, into out: inout [LiveRecord]) {
        if let live = LiveRecord(record) { out.append(live) }
        for sink in sinks { sink.receive([record]) }
    }
}

/// Hands each record of a live run to a closure (tests, embedding).
final class RecordCallbackSink: EventSink {
    let onRecord: @Sendable (LiveRecord) -> Void
    init(onRecord: @escaping @Sendable (LiveRecord) -> Void) { self.onRecord = onRecord }
    func receive(_ records: [OutputRecord]) {
        for record in records { if let live = LiveRecord(record) { onRecord(live) } }
    }
}
