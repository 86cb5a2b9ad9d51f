import VigilCore

/// The event engine: turns detections into the events, zone lifecycle records and
/// suppressions a Matter / Google Home camera would report, under an ``EventPolicy``.
///
/// Pure and deterministic: time is the media timeline of the detections, never the wall
/// clock. One engine handles one stream (clip IDs and snapshot indices count per engine).
///
/// Feed detections in nondecreasing `detectedAt` order with ``ingest(_:)``; call
/// ``advance(to:)`` to collect what became final as media time moves on without
/// detections, and ``finish(at:)`` at the end of the stream. Or call
/// ``run(policy:detections:endTime:)`` for a whole batch.
///
/// An event is emitted once it is final: a vision event when its lifecycle stops; with
/// ebr, also only once its clip has closed. A lifecycle stops at `T0 + min(D, max)` but is
/// only known to have stopped when a strictly later time is seen (a detection at exactly
/// the stop time still extends or joins it).
///
/// **Started activities.** A ``Detection/Phase/started`` detection (a sound the detector has
/// confirmed and that is still going on) creates its event at once, gated, with its media
/// and clip tracking at its `detectedAt`; the ``Detection/Phase/complete`` detection of the
/// same activity (same trigger and `detectedAt`) later completes that event instead of
/// creating one. An engine created with `reportsStarts` emits ``EngineRecord/eventStarted(_:)``
/// for every event that is not final when it is created; the final ``EngineRecord/event(_:)``
/// with the same ID follows. Batch runs have neither.
public struct EventEngine: Sendable {
    /// The policy in force (replaced by ``changePolicy(to:at:)``).
    public private(set) var policy: EventPolicy
    /// Whether ``EngineRecord/eventStarted(_:)`` records are emitted.
    public let reportsStarts: Bool
    /// The latest media time seen (by ``ingest(_:)`` or ``advance(to:)``); `-infinity` at first.
    public private(set) var clock: Double = -.infinity
    /// Whether ``finish(at:)`` was called; a finished engine ignores further input.
    public private(set) var isFinished = false

    private var groups: [VisionGroup] = []
    private var pending: [PendingEvent] = []
    private var clipTracker: TriggerLifecycle
    private var openClip: OpenClip?
    private var nextEventID = 1
    private var nextClipID = 1
    private var nextSnapshotIndex = 1

    /// Creates an engine with nothing open.
    /// - Parameter reportsStarts: also emit an ``EngineRecord/eventStarted(_:)`` record for every
    ///   event that is not final when it is created (the live stream); `false` for batch output.
    public init(policy: EventPolicy, reportsStarts: Bool = false) {
        self.policy = policy
        self.reportsStarts = reportsStarts
        self.clipTracker = TriggerLifecycle(timing: policy.clipTiming)
    }

    // MARK: - Public API

    /// Processes one detection. First emits what became final strictly before its
    /// `detectedAt`, then gates the detection and applies it.
    ///
    /// A detection older than ``clock`` is handled as if it happened at ``clock`` (the
    /// lifecycles never run backwards); the event keeps the detection's own times.
    /// A detection whose `detectedAt` is NaN or infinite is rejected with rule
    /// ``SuppressionRule/invalidTime``, recorded at ``clock`` (0 before any time was seen).
    public mutating func ingest(_ detection: Detection) -> [EngineRecord] {
        guard !isFinished else { return [] }
        guard detection.detectedAt.isFinite else {
            // A started detection's complete detection reports the rejection (once).
            if detection.phase == .started { return [] }
            // JSON cannot carry NaN or infinity: record the rejection at the current media time.
            let record = Suppression(
                trigger: detection.trigger, zone: detection.trigger.isSound ? nil : detection.zoneID,
                time: clock.isFinite ? clock : 0, rule: .invalidTime,
                reason: "detectedAt (\(detection.detectedAt)) is not a finite number", scope: .event)
            return [.suppressed(record)]
        }
        let time = Swift.max(clock, detection.detectedAt)
        var records = advance(to: time)
        if detection.phase == .complete, let slot = startedSlot(matching: detection) {
            // The end of an activity whose event was created at its start: already gated.
            pending[slot].complete(with: detection)
            records += emitFinalEvents()
            return records
        }
        if let (rule, reason) = gate(detection) {
            // A started detection that is gated says nothing: its complete detection reports the
            // suppression (once), as without starts.
            if detection.phase == .complete { records.append(suppression(detection, rule: rule, reason: reason)) }
            return records
        }
        if detection.trigger.isSound {
            records += createEvent(
                for: detection, zone: nil, end: detection.phase == .started ? nil : detection.end, at: time)
        } else if detection.phase == .complete {
            records += applyVision(detection, at: time)
        }
        records += emitFinalEvents()
        return records
    }

    /// Moves media time to `time` with no detection: closes lifecycles whose stop time lies
    /// strictly before `time` and emits the records that became final. Earlier times are ignored.
    public mutating func advance(to time: Double) -> [EngineRecord] {
        guard !isFinished, !time.isNaN, time >= clock else { return [] }
        clock = time
        return closeLifecycles(before: time)
    }

    /// Ends the stream at `endTime`: advances to it, then closes every open lifecycle at its
    /// scheduled stop time (even when that is after `endTime`) and emits everything left.
    /// The engine is finished afterwards and ignores further input.
    public mutating func finish(at endTime: Double) -> [EngineRecord] {
        guard !isFinished else { return [] }
        var records = advance(to: endTime)
        // Activities still going on at the end of the stream end there.
        let end = clock.isFinite ? clock : 0
        for slot in pending.indices where pending[slot].awaitingEnd {
            pending[slot].end = Swift.max(pending[slot].start, end)
            pending[slot].awaitingEnd = false
        }
        records += closeLifecycles(before: nil)
        records += emitFinalEvents()
        isFinished = true
        return records
    }

    /// Replaces the policy at media time `time` (a device change on a live stream): advances to
    /// `time`, closes every open lifecycle at its scheduled stop as ``finish(at:)`` does (zone
    /// lifecycles, vision groups, the ebr clip) and emits what became final, then continues
    /// with `newPolicy` and fresh lifecycles. Event IDs, clip IDs and snapshot indices keep
    /// counting. Events of activities still going on (started, not complete) carry over with
    /// their ID and media and complete when their detector reports the end, unless `newPolicy`
    /// gates their trigger (disabled, muted, transport inactive, liveView): then they end at
    /// `time` and are emitted now, and the later complete detection is gated like any other.
    public mutating func changePolicy(to newPolicy: EventPolicy, at time: Double) -> [EngineRecord] {
        guard !isFinished else { return [] }
        var records = time.isNaN ? [] : advance(to: time)
        records += closeLifecycles(before: nil)
        records += emitFinalEvents()
        policy = newPolicy
        groups.removeAll()
        clipTracker = TriggerLifecycle(timing: newPolicy.clipTiming)
        openClip = nil
        let now = clock.isFinite ? clock : 0
        for slot in pending.indices where pending[slot].awaitingEnd {
            let event = pending[slot]
            let probe = Detection(
                trigger: event.trigger, start: event.start, end: now, detectedAt: event.detectedAt, confidence: event.confidence)
            if gate(probe) != nil {
                pending[slot].end = Swift.max(event.start, now)
                pending[slot].awaitingEnd = false
            }
        }
        records += emitFinalEvents()
        return records
    }

    /// Runs a whole batch: sorts the detections by `detectedAt` (stable; detections whose
    /// `detectedAt` is not finite first), ingests them, finishes at `endTime`, and returns
    /// all records sorted by ``EngineRecord/time`` (ties in emission order).
    public static func run(policy: EventPolicy, detections: [Detection], endTime: Double) -> [EngineRecord] {
        var engine = EventEngine(policy: policy)
        let ordered = detections.enumerated().sorted { lhs, rhs in
            let (l, r) = (sortKey(lhs.element.detectedAt), sortKey(rhs.element.detectedAt))
            return l != r ? l < r : lhs.offset < rhs.offset
        }
        var records: [EngineRecord] = []
        for (_, detection) in ordered {
            records += engine.ingest(detection)
        }
        records += engine.finish(at: endTime)
        return records.enumerated().sorted { lhs, rhs in
            let (l, r) = (sortKey(lhs.element.time), sortKey(rhs.element.time))
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: - Gating

    /// Gating rules 1 to 5, in order. The blind rules are applied by the lifecycles.
    private func gate(_ detection: Detection) -> (SuppressionRule, String)? {
        let trigger = detection.trigger
        if !policy.transportActive {
            return (.transportInactive, "transport is inactive (camera video off): no events are detected")
        }
        if policy.recordingMode == .liveView {
            return (.liveView, "recording mode is liveView: all detectors are off")
        }
        if !policy.enabledTriggers.contains(trigger) {
            if policy.unselectedTriggers.contains(trigger) {
                return (.triggerNotSelected, "trigger \(trigger.rawValue) is enabled on the device but not selected by --triggers")
            }
            return (.triggerDisabled, "trigger \(trigger.rawValue) is not in enabledEventTriggers")
        }
        if trigger.isSound && policy.microphoneMuted {
            return (.microphoneMuted, "microphone is muted: sound trigger \(trigger.rawValue) cannot fire")
        }
        if trigger.isVision, let zone = detection.zoneID, policy.privacyZones.contains(zone) {
            return (.privacyZone, "\(trigger.rawValue) in privacy zone \(zone) withheld: activity there is never reported")
        }
        return nil
    }

    private func suppression(
        _ detection: Detection, rule: SuppressionRule, reason: String, scope: SuppressionScope = .event
    ) -> EngineRecord {
        .suppressed(
            Suppression(
                trigger: detection.trigger, zone: detection.trigger.isSound ? nil : detection.zoneID,
                time: detection.detectedAt, rule: rule, reason: reason, scope: scope))
    }

    // MARK: - Vision grouping

    private mutating func applyVision(_ detection: Detection, at time: Double) -> [EngineRecord] {
        let index = groupIndex(trigger: detection.trigger, zone: detection.zoneID)
        let (stop, response) = groups[index].lifecycle.observe(at: time)
        var records: [EngineRecord] = []
        if let stop { records += handleGroupStop(index, stop) }
        let group = groups[index]
        switch response {
        case .blind(let stoppedAt, let until):
            let reason: String
            let rule: SuppressionRule
            if group.hasZoneTrigger, let zone = group.zone {
                rule = .zoneTriggerBlind
                reason = "zone \(zone) trigger is blind after its stop at \(stoppedAt) s until \(until) s"
            } else {
                rule = .motionTimeControlBlind
                reason = "\(group.trigger.rawValue) \(Self.zoneText(group.zone)) (grouped by the motion time control) is blind after its stop at \(stoppedAt) s until \(until) s"
            }
            records.append(suppression(detection, rule: rule, reason: reason))
        case .started:
            if group.hasZoneTrigger, let zone = group.zone {
                records.append(
                    .zoneTriggered(
                        ZoneLifecycleRecord(
                            zone: zone, trigger: group.trigger, time: time, activationStart: time, stopReason: nil)))
            }
            groups[index].openEventID = nextEventID
            records += createEvent(for: detection, zone: detection.zoneID, end: nil, at: time)
        case .augmented, .absorbed:
            if let id = group.openEventID, let slot = pending.firstIndex(where: { $0.id == id }) {
                pending[slot].count += 1
                pending[slot].confidence = Swift.max(pending[slot].confidence, detection.confidence)
            }
        }
        return records
    }

    /// The event created by the started detection of `detection`'s activity, if it is still open.
    private func startedSlot(matching detection: Detection) -> Int? {
        var fallback: Int?
        for slot in pending.indices where pending[slot].awaitingEnd && pending[slot].trigger == detection.trigger
            && pending[slot].detectedAt == detection.detectedAt
        {
            if pending[slot].start == detection.start { return slot }
            if fallback == nil { fallback = slot }
        }
        return fallback
    }

    private mutating func groupIndex(trigger: EventTriggerType, zone: UInt16?) -> Int {
        if let index = groups.firstIndex(where: { $0.trigger == trigger && $0.zone == zone }) {
            return index
        }
        let zoneTiming = zone.flatMap { policy.zoneTriggers[$0] }
        groups.append(
            VisionGroup(
                trigger: trigger, zone: zone, hasZoneTrigger: zoneTiming != nil,
                lifecycle: TriggerLifecycle(timing: zoneTiming ?? policy.motionTimeControl)))
        return groups.count - 1
    }

    private mutating func handleGroupStop(_ index: Int, _ stop: TriggerLifecycle.Stop) -> [EngineRecord] {
        let group = groups[index]
        var records: [EngineRecord] = []
        if group.hasZoneTrigger, let zone = group.zone {
            records.append(
                .zoneStopped(
                    ZoneLifecycleRecord(
                        zone: zone, trigger: group.trigger, time: stop.time, activationStart: stop.activationStart,
                        stopReason: stop.reason)))
        }
        if let id = group.openEventID, let slot = pending.firstIndex(where: { $0.id == id }) {
            pending[slot].end = stop.time
        }
        groups[index].openEventID = nil
        return records
    }

    // MARK: - Events and media

    private mutating func createEvent(
        for detection: Detection, zone: UInt16?, end: Double?, at time: Double
    ) -> [EngineRecord] {
        var records: [EngineRecord] = []
        let media: MediaPlan
        switch policy.recordingMode {
        case .disabled, .liveView:
            media = .none
        case .cvr:
            media = .range
        case .etr:
            let start = Swift.max(0, detection.start - preRoll)
            media = .fixed(.clip(id: takeClipID(), start: start, end: start + policy.etrClipLength))
        case .images:
            let snapshotTime = Self.peakTime(detection.evidence) ?? detection.detectedAt
            media = .fixed(.snapshot(time: snapshotTime, index: nextSnapshotIndex))
            nextSnapshotIndex += 1
        case .ebr:
            if detection.trigger.isVision && !policy.isInMotionZones(zone) {
                media = .none
            } else {
                let (stop, response) = clipTracker.observe(at: time)
                if let stop { handleClipStop(stop) }
                switch response {
                case .started:
                    let clip = OpenClip(id: takeClipID(), start: Swift.max(0, time - preRoll))
                    openClip = clip
                    media = .clip(id: clip.id, start: clip.start, end: nil)
                case .augmented, .absorbed:
                    if let clip = openClip {
                        media = .clip(id: clip.id, start: clip.start, end: nil)
                    } else {
                        media = .none
                    }
                case .blind(let stoppedAt, let until):
                    media = .none
                    records.append(
                        suppression(
                            detection, rule: .motionTimeControlBlind,
                            reason: "ebr clip is blind after its stop at \(stoppedAt) s until \(until) s: event emitted without media",
                            scope: .clip))
                }
            }
        }
        var evidence = detection.evidence
        if detection.trigger.isVision { evidence["detections"] = .int(1) }
        let event = PendingEvent(
            id: nextEventID, trigger: detection.trigger, zone: zone, start: detection.start, end: end,
            detectedAt: detection.detectedAt, confidence: detection.confidence, evidence: evidence,
            count: 1, isVision: detection.trigger.isVision, media: media, awaitingEnd: detection.phase == .started)
        pending.append(event)
        nextEventID += 1
        if reportsStarts && event.finalEvent() == nil { records.append(.eventStarted(event.startRecord())) }
        return records
    }

    private mutating func takeClipID() -> Int {
        defer { nextClipID += 1 }
        return nextClipID
    }

    private var preRoll: Double {
        policy.maxPreRoll.isNaN || policy.maxPreRoll < 0 ? 0 : policy.maxPreRoll
    }

    private static func peakTime(_ evidence: [String: EvidenceValue]) -> Double? {
        switch evidence["peakTime"] {
        case .number(let value)? where value.isFinite: return value
        case .int(let value)?: return Double(value)
        default: return nil
        }
    }

    private mutating func handleClipStop(_ stop: TriggerLifecycle.Stop) {
        guard let clip = openClip else { return }
        for slot in pending.indices {
            if case .clip(clip.id, let start, nil) = pending[slot].media {
                pending[slot].media = .clip(id: clip.id, start: start, end: stop.time)
            }
        }
        openClip = nil
    }

    // MARK: - Closing and emission

    /// Closes every lifecycle whose stop lies strictly before `time` (all of them when
    /// `time` is nil), in stop-time order (vision groups in creation order, then the clip
    /// tracker), emitting final events after each.
    private mutating func closeLifecycles(before time: Double?) -> [EngineRecord] {
        var closings: [(stop: Double, order: Int)] = []
        for (index, group) in groups.enumerated() {
            if let stop = group.lifecycle.scheduledStop, time.map({ stop < $0 }) ?? true {
                closings.append((stop, index))
            }
        }
        if let stop = clipTracker.scheduledStop, time.map({ stop < $0 }) ?? true {
            closings.append((stop, groups.count))
        }
        closings.sort { $0.stop != $1.stop ? $0.stop < $1.stop : $0.order < $1.order }
        var records: [EngineRecord] = []
        for closing in closings {
            if closing.order < groups.count {
                let index = closing.order
                let stop = time.map { groups[index].lifecycle.expire(before: $0) } ?? groups[index].lifecycle.finish()
                if let stop { records += handleGroupStop(index, stop) }
            } else {
                let stop = time.map { clipTracker.expire(before: $0) } ?? clipTracker.finish()
                if let stop { handleClipStop(stop) }
            }
            records += emitFinalEvents()
        }
        if let time {
            for index in groups.indices { _ = groups[index].lifecycle.expire(before: time) }
            _ = clipTracker.expire(before: time)
        }
        return records
    }

    /// Emits, in creation order, every pending event whose end and media are known.
    private mutating func emitFinalEvents() -> [EngineRecord] {
        var records: [EngineRecord] = []
        pending.removeAll { candidate in
            guard let event = candidate.finalEvent() else { return false }
            records.append(.event(event))
            return true
        }
        return records
    }

    private static func sortKey(_ time: Double) -> Double {
        time.isFinite ? time : -.infinity
    }

    private static func zoneText(_ zone: UInt16?) -> String {
        zone.map { "in zone \($0)" } ?? "outside every zone"
    }
}

extension EventEngine {
    /// A (trigger, zone) group of vision detections.
    fileprivate struct VisionGroup: Sendable {
        var trigger: EventTriggerType
        var zone: UInt16?
        var hasZoneTrigger: Bool
        var lifecycle: TriggerLifecycle
        var openEventID: Int?
    }

    /// The ebr clip currently recording.
    fileprivate struct OpenClip: Sendable {
        var id: Int
        var start: Double
    }

    /// The media an event will carry.
    fileprivate enum MediaPlan: Sendable {
        case none
        /// cvr: the event's own start...end, known when the event is final.
        case range
        case fixed(EventMedia)
        /// ebr: the clip's end is known when the clip tracker stops.
        case clip(id: Int, start: Double, end: Double?)
    }

    /// An event not yet final.
    fileprivate struct PendingEvent: Sendable {
        var id: Int
        var trigger: EventTriggerType
        var zone: UInt16?
        var start: Double
        var end: Double?
        var detectedAt: Double
        var confidence: Double
        var evidence: [String: EvidenceValue]
        var count: Int
        var isVision: Bool
        var media: MediaPlan
        /// Created by a started detection: waits for the complete one (``end`` is nil until then).
        var awaitingEnd = false

        /// Takes the final values of the activity from its complete detection.
        mutating func complete(with detection: Detection) {
            start = detection.start
            end = detection.end
            confidence = detection.confidence
            evidence = detection.evidence
            awaitingEnd = false
        }

        /// The early record: what is known when the event is created.
        func startRecord() -> EventStart {
            let known: EventStart.Media?
            switch media {
            case .none: known = nil
            case .range: known = .range(start: start)
            case .fixed(.range(let start, _)): known = .range(start: start)
            case .fixed(.clip(let id, let start, let end)): known = .clip(id: id, start: start, end: end)
            case .fixed(.snapshot(let time, let index)): known = .snapshot(time: time, index: index)
            case .clip(let id, let start, let end): known = .clip(id: id, start: start, end: end)
            }
            var evidence = evidence
            if isVision { evidence["detections"] = .int(count) }
            return EventStart(
                id: id, trigger: trigger, zone: zone, start: start, detectedAt: detectedAt, confidence: confidence,
                evidence: evidence, media: known)
        }

        func finalEvent() -> Event? {
            guard let end, !awaitingEnd else { return nil }
            let resolved: EventMedia?
            switch media {
            case .none: resolved = nil
            case .range: resolved = .range(start: start, end: end)
            case .fixed(let fixed): resolved = fixed
            case .clip(let id, let clipStart, let clipEnd):
                guard let clipEnd else { return nil }
                resolved = .clip(id: id, start: clipStart, end: clipEnd)
            }
            var evidence = evidence
            if isVision { evidence["detections"] = .int(count) }
            return Event(
                id: id, trigger: trigger, zone: zone, start: start, end: end, detectedAt: detectedAt,
                confidence: confidence, evidence: evidence, media: resolved)
        }
    }
}
