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
    /// The end of the video stream, once ``endVision(at:)`` was called; `nil` while video goes on
    /// (or when the stream has none).
    public private(set) var visionEnd: Double?

    private var groups: [VisionGroup] = []
    private var pending: [PendingEvent] = []
    private var clipTracker: TriggerLifecycle
    private var openClip: OpenClip?
    private var nextEventID = 1
    private var nextClipID = 1
    private var nextSnapshotIndex = 1
    /// Safety alarm events (smokeAlarm, coAlarm) of this stream: ID, trigger, start and end
    /// (`nil` while the alarm goes on). Generic `sound` detected during one is subsumed by it.
    private var safetyAlarms: [(id: Int, trigger: EventTriggerType, start: Double, end: Double?)] = []

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
            if let alarm = safetyAlarms.firstIndex(where: { $0.id == pending[slot].id }) {
                safetyAlarms[alarm].start = detection.start
            }
            endSafetyAlarm(of: pending[slot].id, at: detection.end)
            records += emitFinalEvents()
            return records
        }
        if let (rule, reason) = gate(detection) {
            // A started detection that is gated says nothing: its complete detection reports the
            // suppression (once), as without starts.
            if detection.phase == .complete { records.append(suppression(detection, rule: rule, reason: reason)) }
            return records
        }
        if let (rule, reason) = subsumingAlarm(of: detection) {
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

    /// Ends the video stream at `time` (the end of its last frame) while other input (audio)
    /// may go on: advances to `time`, then closes every vision lifecycle at its scheduled stop or
    /// at `time`, whichever is earlier (zone lifecycles with their `zoneStopped`), and emits what
    /// became final. Afterwards an images-mode event whose snapshot time lies after `time` has no
    /// snapshot (no frame exists then), with a `suppressed` record of scope
    /// ``SuppressionScope/snapshot``. Called once; later calls, and a non-finite `time`, are ignored.
    public mutating func endVision(at time: Double) -> [EngineRecord] {
        guard !isFinished, visionEnd == nil, time.isFinite else { return [] }
        var records = advance(to: time)
        visionEnd = time
        records += closeOpenLifecycles(cutAt: time, includingClips: false)
        records += emitFinalEvents()
        return records
    }

    /// Ends the stream at `endTime`: advances to it, then closes every open lifecycle and clip
    /// at its scheduled stop or at the end of its media, whichever is earlier: vision lifecycles
    /// at ``visionEnd`` (when the video ended first), everything at `endTime` (or the latest time
    /// seen, if later). No event, clip or zone activation ends after the media. Emits everything
    /// left; the engine is finished afterwards and ignores further input.
    public mutating func finish(at endTime: Double) -> [EngineRecord] {
        guard !isFinished else { return [] }
        var records = advance(to: endTime)
        // Activities still going on at the end of the stream end there.
        let end = clock.isFinite ? clock : 0
        for slot in pending.indices where pending[slot].awaitingEnd {
            pending[slot].end = Swift.max(pending[slot].start, end)
            pending[slot].awaitingEnd = false
            endSafetyAlarm(of: pending[slot].id, at: Swift.max(pending[slot].start, end))
        }
        records += closeOpenLifecycles(cutAt: clock == -.infinity ? .infinity : clock, includingClips: true)
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
        records += closeOpenLifecycles(cutAt: .infinity, includingClips: true)
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
                endSafetyAlarm(of: event.id, at: Swift.max(event.start, now))
            }
        }
        records += emitFinalEvents()
        return records
    }

    /// Runs a whole batch: sorts the detections by `detectedAt` (stable; detections whose
    /// `detectedAt` is not finite first), ingests them, finishes at `endTime`, and returns
    /// all records sorted by ``EngineRecord/time`` (ties in emission order).
    /// - Parameter visionEnd: the end of the video when it ends before `endTime` (a longer audio
    ///   track): ``endVision(at:)`` is called before the first detection after it.
    public static func run(
        policy: EventPolicy, detections: [Detection], endTime: Double, visionEnd: Double? = nil
    ) -> [EngineRecord] {
        var engine = EventEngine(policy: policy)
        let ordered = detections.enumerated().sorted { lhs, rhs in
            let (l, r) = (sortKey(lhs.element.detectedAt), sortKey(rhs.element.detectedAt))
            return l != r ? l < r : lhs.offset < rhs.offset
        }
        var records: [EngineRecord] = []
        for (_, detection) in ordered {
            if let visionEnd, detection.detectedAt > visionEnd { records += engine.endVision(at: visionEnd) }
            records += engine.ingest(detection)
        }
        if let visionEnd { records += engine.endVision(at: visionEnd) }
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

    /// Rule 7: a generic `sound` detection during a safety alarm event already created (its
    /// activity overlaps the alarm's start...end, the end open while the alarm goes on) is the
    /// alarm's own sound: the alarm's event reports it.
    private func subsumingAlarm(of detection: Detection) -> (SuppressionRule, String)? {
        guard detection.trigger == .sound else { return nil }
        for alarm in safetyAlarms.reversed() where detection.end >= alarm.start && detection.start <= (alarm.end ?? .infinity) {
            let start = DecimalText.fixed(alarm.start, places: 3)
            let span = alarm.end.map { "\(start)-\(DecimalText.fixed($0, places: 3)) s" } ?? "from \(start) s"
            return (
                .subsumedBySafetyAlarm,
                "sound during \(alarm.trigger.rawValue) event #\(alarm.id) (\(span)): the alarm's event reports it"
            )
        }
        return nil
    }

    /// How far before its `detectedAt` a generic `sound` detection may start (the level
    /// detector confirms 0.1 s after the onset; 10 s leaves room for any sound detector).
    /// Safety alarms that ended earlier than this before a new alarm are forgotten.
    static let safetyAlarmLookbackSeconds = 10.0

    /// Records the end of safety alarm event `id`, if it is one.
    private mutating func endSafetyAlarm(of id: Int, at end: Double) {
        if let alarm = safetyAlarms.firstIndex(where: { $0.id == id }) { safetyAlarms[alarm].end = end }
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
                reason =
                    "\(group.trigger.rawValue) \(Self.zoneText(group.zone)) (grouped by the motion time control) is blind after its stop at \(stoppedAt) s until \(until) s"
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
        for slot in pending.indices
        where pending[slot].awaitingEnd && pending[slot].trigger == detection.trigger
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
            // The clip's end is final once media time has passed it; the end of the stream cuts it.
            let start = Swift.max(0, detection.start - preRoll)
            media = .fixedLengthClip(id: takeClipID(), start: start, end: start + policy.etrClipLength)
        case .images:
            let snapshotTime = Self.peakTime(detection.evidence) ?? detection.detectedAt
            if let visionEnd, snapshotTime > visionEnd {
                media = .none
                records.append(
                    suppression(
                        detection, rule: .videoEnded,
                        reason: "no frame at \(DecimalText.fixed(snapshotTime, places: 3)) s: the video ended at "
                            + "\(DecimalText.fixed(visionEnd, places: 3)) s, event emitted without a snapshot",
                        scope: .snapshot))
            } else {
                media = .fixed(.snapshot(time: snapshotTime, index: nextSnapshotIndex))
                nextSnapshotIndex += 1
            }
        case .ebr:
            if detection.trigger.isVision && !policy.isInMotionZones(zone) {
                media = .none
            } else {
                if let stop = clipTracker.expire(before: time) { handleClipStop(stop) }
                // The motion time control's blind period throttles motion clips; a safety alarm
                // always gets its clip.
                if detection.trigger.isSafetyAlarm { clipTracker.endBlindPeriod() }
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
        if detection.trigger.isSafetyAlarm {
            // Alarms that ended long before this one can no longer overlap a sound still to come
            // (a sound's start is at most its confirmation delay before its detectedAt, and
            // detections arrive in detectedAt order): dropped, so a stream that runs for days
            // keeps a bounded list.
            let horizon = detection.detectedAt - Self.safetyAlarmLookbackSeconds
            safetyAlarms.removeAll { alarm in alarm.end.map { $0 < horizon } ?? false }
            safetyAlarms.append((event.id, event.trigger, event.start, event.awaitingEnd ? nil : event.end))
        }
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

    /// Something that closes at a media time: a vision group, the ebr clip tracker, or the etr
    /// clip of a pending event.
    private enum Closing {
        case group(Int)
        case clipTracker
        case fixedLengthClip(eventID: Int)
    }

    /// Closes every lifecycle whose stop lies strictly before `time`, in stop-time order (vision
    /// groups in creation order, then the clip tracker, then etr clips in event order), emitting
    /// final events after each.
    private mutating func closeLifecycles(before time: Double) -> [EngineRecord] {
        var closings: [(stop: Double, closing: Closing)] = []
        for (index, group) in groups.enumerated() {
            if let stop = group.lifecycle.scheduledStop, stop < time { closings.append((stop, .group(index))) }
        }
        if let stop = clipTracker.scheduledStop, stop < time { closings.append((stop, .clipTracker)) }
        for event in pending {
            if case .fixedLengthClip(_, _, let end) = event.media, end < time {
                closings.append((end, .fixedLengthClip(eventID: event.id)))
            }
        }
        var records: [EngineRecord] = []
        for (stop, closing) in Self.inStopOrder(closings) {
            switch closing {
            case .group(let index):
                if let stop = groups[index].lifecycle.expire(before: time) { records += handleGroupStop(index, stop) }
            case .clipTracker:
                if let stop = clipTracker.expire(before: time) { handleClipStop(stop) }
            case .fixedLengthClip(let eventID):
                closeFixedLengthClip(of: eventID, at: stop)
            }
            records += emitFinalEvents()
        }
        for index in groups.indices { _ = groups[index].lifecycle.expire(before: time) }
        _ = clipTracker.expire(before: time)
        return records
    }

    /// Closes every open lifecycle now, each at its scheduled stop or at the end of its media,
    /// whichever is earlier: vision groups at `cut` (and at ``visionEnd``); with `includingClips`
    /// also the ebr clip tracker and etr clips, at `cut`. In stop-time order like
    /// ``closeLifecycles(before:)``, emitting final events after each.
    private mutating func closeOpenLifecycles(cutAt cut: Double, includingClips: Bool) -> [EngineRecord] {
        let visionCut = Swift.min(cut, visionEnd ?? .infinity)
        var closings: [(stop: Double, closing: Closing)] = []
        for (index, group) in groups.enumerated() {
            if let stop = group.lifecycle.scheduledStop { closings.append((Swift.min(stop, visionCut), .group(index))) }
        }
        if includingClips {
            if let stop = clipTracker.scheduledStop { closings.append((Swift.min(stop, cut), .clipTracker)) }
            for event in pending {
                if case .fixedLengthClip(_, _, let end) = event.media {
                    closings.append((Swift.min(end, cut), .fixedLengthClip(eventID: event.id)))
                }
            }
        }
        var records: [EngineRecord] = []
        for (stop, closing) in Self.inStopOrder(closings) {
            switch closing {
            case .group(let index):
                if let stop = groups[index].lifecycle.finish(cutAt: visionCut) { records += handleGroupStop(index, stop) }
            case .clipTracker:
                if let stop = clipTracker.finish(cutAt: cut) { handleClipStop(stop) }
            case .fixedLengthClip(let eventID):
                closeFixedLengthClip(of: eventID, at: stop)
            }
            records += emitFinalEvents()
        }
        return records
    }

    /// `closings` sorted by stop time; ties keep their order (groups, clip tracker, etr clips).
    private static func inStopOrder(_ closings: [(stop: Double, closing: Closing)]) -> [(stop: Double, closing: Closing)] {
        closings.enumerated().sorted { lhs, rhs in
            lhs.element.stop != rhs.element.stop ? lhs.element.stop < rhs.element.stop : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Gives the etr clip of event `eventID` its final end `time` (its planned end, or earlier
    /// when the media ended first; never before the clip's start).
    private mutating func closeFixedLengthClip(of eventID: Int, at time: Double) {
        guard let slot = pending.firstIndex(where: { $0.id == eventID }),
            case .fixedLengthClip(let id, let start, _) = pending[slot].media
        else { return }
        pending[slot].media = .fixed(.clip(id: id, start: start, end: Swift.max(start, time)))
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
        /// etr: a clip planned to end at `end`; final once media time has passed `end`, or cut
        /// at the end of the stream.
        case fixedLengthClip(id: Int, start: Double, end: Double)
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
            case .fixedLengthClip(let id, let start, _): known = .clip(id: id, start: start, end: nil)
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
            case .fixedLengthClip:
                return nil
            }
            var evidence = evidence
            if isVision { evidence["detections"] = .int(count) }
            return Event(
                id: id, trigger: trigger, zone: zone, start: start, end: end, detectedAt: detectedAt,
                confidence: confidence, evidence: evidence, media: resolved)
        }
    }
}
