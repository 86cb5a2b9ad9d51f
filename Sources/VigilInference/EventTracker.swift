import VigilCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a detector turns decision probabilities into events.
public struct DecisionParameters: Sendable, Hashable {
    /// Probability at which an event starts (sensitivity 5).
    public var threshold: Double
    /// The event continues while the smoothed probability stays above threshold x this.
    public var releaseRatio: Double = 0.6
    /// Pauses shorter than this do not end an event (seconds).
    public var mergeGapSeconds: Double
    /// Decisions above the threshold needed to report an event.
    public var minActiveDecisions: Int = 2
    /// Reported onset = first smoothed centre above threshold minus this (seconds).
    public var onsetLeadSeconds: Double = 0.05
    /// Change of the threshold's logit per sensitivity step (a step up lowers the threshold).
    public var sensitivityLogitStep: Double = 0.4
    /// Two-stage glass-break gate (nil: none).
    public var gate: ImpactShatterGate?
    /// Onset refinement: the onset moves back over the frames before the first active decision
    /// whose largest floor-relative band level stays at or above this (log10 units), at most
    /// ``onsetBacktrackSeconds`` (nil: no refinement).
    public var onsetActivity: Double?
    /// Events longer than this are dropped (nil: no limit); glass breaks last at most a few seconds.
    /// An event is confirmed only while it is at most this long; a confirmed (announced) event
    /// that goes on longer is reported ending at onset + this.
    public var maxEventSeconds: Double?
    /// Longest onset refinement (seconds): half the long pooling window (0.375 s). The first
    /// active decision's window reaches no further back than that, so walking back further only
    /// finds the sound before the event (a clip's own background, a fade-in), which puts onsets
    /// up to 1.5 s early (docs/sound-models.md, "Pipeline"). A model file that sets another value
    /// keeps it.
    public var onsetBacktrackSeconds: Double = FeatureSpec.current.longWindowSeconds / 2
    /// Splitting at pauses: within an event, runs of frames whose mean floor-relative band
    /// level is at or above ``splitActivity`` (log10 units), separated by quieter stretches of at
    /// least this long (seconds), are reported as separate events, each with the onset of its run
    /// (nil: no splitting). Barks in a bout and phrases of speech are annotated this way.
    public var splitPauseSeconds: Double?
    /// Activity level for ``splitPauseSeconds`` (mean over the bands, log10 units over the band floor).
    public var splitActivity: Double = 0.3
    /// Bout continuation: for this long after the last active decision of a reported event
    /// (seconds), a new event starts at ``boutThreshold`` instead of ``threshold`` (nil: none).
    /// A dog barks in bouts: once one bark of a bout is sure, the next ones need less evidence,
    /// while a sound that is not a bark rarely scores high enough to open a bout.
    public var boutSeconds: Double?
    /// Start threshold at sensitivity 5 within a bout (``boutSeconds``); other levels move its logit
    /// by ``boutLogitStep`` per level, and it is never above the start threshold at that level.
    public var boutThreshold: Double = 0.5
    /// Change of the bout threshold's logit per sensitivity step: the models' smallest step, not
    /// ``sensitivityLogitStep`` (dogBark's 1.14 would put the bout threshold at 0.003 at level 10,
    /// where every background frame after a bark would start an event).
    public static let boutLogitStep = 0.4

    /// Creates parameters.
    public init(threshold: Double, mergeGapSeconds: Double, gate: ImpactShatterGate? = nil) {
        self.threshold = threshold
        self.mergeGapSeconds = mergeGapSeconds
        self.gate = gate
    }

    /// The start threshold at `sensitivity` (1...10; 5 gives ``threshold``):
    /// logit(θ) = logit(threshold) − step × (level − 5).
    public func threshold(for sensitivity: Sensitivity) -> Double {
        let level = 1 + sensitivity.fraction * 9
        let l = Self.logit(threshold) - sensitivityLogitStep * (level - 5)
        return 1 / (1 + exp(-l))
    }

    /// The start threshold within a bout at `sensitivity` (see ``boutSeconds``).
    public func boutThreshold(for sensitivity: Sensitivity) -> Double {
        let level = 1 + sensitivity.fraction * 9
        let l = Self.logit(boutThreshold) - Self.boutLogitStep * (level - 5)
        return min(threshold(for: sensitivity), 1 / (1 + exp(-l)))
    }

    /// log(p / (1 − p)), with p kept within 1e-6 of 0 and 1 (the scale of the sensitivity mapping).
    public static func logit(_ p: Double) -> Double {
        let q = min(max(p, 1e-6), 1 - 1e-6)
        return log(q / (1 - q))
    }
}

/// Glass break's two stages: an impact (a jump of the band energies, the low bands for the
/// thud) followed within ``window`` by broadband high-frequency shatter energy (a share above
/// 4.5 kHz of at least ``shatterHFRatio`` while the frame is ``shatterRelative`` above the
/// background) for at least ``shatterFrames`` frames.
public struct ImpactShatterGate: Sendable, Hashable {
    /// Mean band flux (log10 units) that counts as an impact.
    public var impactFlux: Double = 0.15
    /// Low-band (< 1 kHz) flux that counts as a thud.
    public var thudFlux: Double = 0.25
    /// Share of energy above 4.5 kHz in a shatter frame.
    public var shatterHFRatio: Double = 0.05
    /// Mean floor-relative band level (log10) of a shatter frame.
    public var shatterRelative: Double = 0.4
    /// Shatter frames needed after the impact.
    public var shatterFrames: Int = 3
    /// Time after the impact in which the shatter must come (seconds).
    public var window: Double = 0.6
    /// Creates the default gate.
    public init() {}
}

/// An event found by ``EventTracker``.
public struct TrackedEvent: Sendable, Hashable {
    /// Onset (seconds).
    public var onset: Double
    /// Offset (seconds).
    public var offset: Double
    /// When the tracker confirmed the event (media time): the decision at which it had
    /// ``DecisionParameters/minActiveDecisions`` active decisions, was no longer than
    /// ``DecisionParameters/maxEventSeconds`` and, with a gate, had its gate evidence.
    public var detectedAt: Double
    /// Highest smoothed probability.
    public var peakProbability: Double
    /// Mean smoothed probability over the active decisions.
    public var meanProbability: Double
    /// Gate evidence: impact time and shatter duration (glass break only).
    public var impactTime: Double?
    /// Seconds of shatter frames after the impact.
    public var shatterSeconds: Double?

    /// Creates an event.
    public init(
        onset: Double, offset: Double, detectedAt: Double, peakProbability: Double, meanProbability: Double,
        impactTime: Double? = nil, shatterSeconds: Double? = nil
    ) {
        self.onset = onset
        self.offset = offset
        self.detectedAt = detectedAt
        self.peakProbability = peakProbability
        self.meanProbability = meanProbability
        self.impactTime = impactTime
        self.shatterSeconds = shatterSeconds
    }
}

/// Temporal smoothing of decision probabilities into events: a 3-decision median, start at the
/// threshold, release at threshold x ``DecisionParameters/releaseRatio``, pauses up to the merge
/// gap bridged, and events with fewer than ``DecisionParameters/minActiveDecisions`` dropped.
/// Events are returned when they end, in nondecreasing `detectedAt` order.
///
/// An event is confirmed at the first decision at which every rule that decides whether it is
/// reported holds for what was seen so far (enough active decisions, not longer than the
/// maximum, the gate's impact and shatter); ``takeConfirmedStart()`` hands it out then, while it
/// goes on. A confirmed event is always reported when it ends, with the same onset and
/// `detectedAt` (a device cannot take an announced event back): past the maximum length it
/// ends at onset + maximum, and when it splits at pauses its first part is the announced event.
public final class EventTracker {
    /// The parameters.
    public let parameters: DecisionParameters
    /// The start threshold in use.
    public let startThreshold: Double
    /// The start threshold within a bout (``DecisionParameters/boutSeconds``; the start threshold without bouts).
    public let boutStartThreshold: Double
    /// The open event's start threshold (the bout threshold when it started within a bout).
    private var eventThreshold: Double
    /// A new event starts at the bout threshold while its decision centre is at or before this.
    private var boutUntil = -Double.infinity
    private let halfStride: Double
    private var recent: [(time: Double, available: Double, p: Double)] = {
        var r: [(time: Double, available: Double, p: Double)] = []
        r.reserveCapacity(3)
        return r
    }()
    private var active = false
    private var onset = 0.0
    private var detectedAt = 0.0
    // Confirmation of the open event (see the type's summary).
    private var confirmed = false
    private var startTaken = false
    private var confirmedGate: (impact: Double, shatter: Double)?
    private var lastAbove = 0.0
    private var count = 0
    private var peak = 0.0
    private var sum = 0.0
    private var sumCount = 0
    /// Offset of the last closed event: a later onset never reaches back before it.
    private var previousOffset = -Double.infinity
    // Gate history: (time, flux, lowFlux, hfRatio, meanRel), kept for ~8 s.
    private var frames: [(t: Double, flux: Float, low: Float, hf: Float, rel: Float, maxRel: Float)] = []
    private var framesStart = 0
    private let hop: Double

    /// A tracker with `parameters` at `sensitivity`; `decisionPeriod` is the time between decisions,
    /// `hop` the frame period.
    public init(parameters: DecisionParameters, sensitivity: Sensitivity, decisionPeriod: Double, hop: Double) {
        self.parameters = parameters
        startThreshold = parameters.threshold(for: sensitivity)
        boutStartThreshold = parameters.boutSeconds == nil ? startThreshold : parameters.boutThreshold(for: sensitivity)
        eventThreshold = startThreshold
        halfStride = decisionPeriod / 2
        self.hop = hop
    }

    /// Per-frame values for the gate: `columns` from ``SoundFeatureExtractor/newestColumns``.
    public func observeFrame(time: Double, columns: ArraySlice<Float>, melBands: Int) {
        guard keepsFrames else { return }
        let b = columns.startIndex + melBands
        observeFrame(
            time: time, flux: columns[b + 1], lowFlux: columns[b + 2], hfRatio: columns[b + 6], meanRelative: columns[b + 9],
            maxRelative: columns[b + 11])
    }

    private var keepsFrames: Bool {
        parameters.gate != nil || parameters.onsetActivity != nil || parameters.splitPauseSeconds != nil
    }

    /// Per-frame values for the gate.
    public func observeFrame(time: Double, flux: Float, lowFlux: Float, hfRatio: Float, meanRelative: Float, maxRelative: Float) {
        guard keepsFrames else { return }
        frames.append((time, flux, lowFlux, hfRatio, meanRelative, maxRelative))
        // Keep ~8 s unless an event is open (then keep from its onset).
        let keepFrom = active ? min(onset - 1, time - 8) : time - 8
        while framesStart < frames.count && frames[framesStart].t < keepFrom { framesStart += 1 }
        if framesStart > 1024 {
            frames.removeFirst(framesStart)
            framesStart = 0
        }
    }

    /// Adds one decision; appends events that ended.
    public func decide(centerTime: Double, availableTime: Double, probability: Double, into events: inout [TrackedEvent]) {
        if recent.count == 3 {
            recent[0] = recent[1]
            recent[1] = recent[2]
            recent[2] = (centerTime, availableTime, probability)
        } else {
            recent.append((centerTime, availableTime, probability))
        }
        if recent.count == 1 {
            step(centerTime, availableTime, probability, &events)
            return
        }
        if recent.count == 2 { return }
        // Median of three, without allocating.
        let a = recent[0].p, b = recent[1].p, c = recent[2].p
        let median = max(min(a, b), min(max(a, b), c))
        step(recent[1].time, availableTime, median, &events)
    }

    private func step(_ t: Double, _ available: Double, _ p: Double, _ events: inout [TrackedEvent]) {
        if active {
            if p >= eventThreshold * parameters.releaseRatio {
                lastAbove = t
                if p >= eventThreshold { count += 1 }
                peak = max(peak, p)
                sum += p
                sumCount += 1
            } else if t - lastAbove > parameters.mergeGapSeconds {
                close(&events)
            }
            if active && !confirmed { confirm(at: available) }
            if active && confirmed, let bout = parameters.boutSeconds { boutUntil = max(boutUntil, lastAbove + bout) }
        }
        let threshold = t <= boutUntil ? boutStartThreshold : startThreshold
        if !active && p >= threshold {
            active = true
            eventThreshold = threshold
            onset = max(0, t - parameters.onsetLeadSeconds)
            if let a = parameters.onsetActivity {
                // Walk back from the decision centre while the frames stay active.
                var i = frames.count - 1
                while i >= framesStart && frames[i].t > t { i -= 1 }
                var earliest = onset
                while i >= framesStart && frames[i].t >= t - parameters.onsetBacktrackSeconds && Double(frames[i].maxRel) >= a {
                    earliest = min(earliest, frames[i].t - hop)
                    i -= 1
                }
                // Not into the previous event (the walk back would otherwise overlap it).
                onset = max(0, earliest, min(previousOffset, onset))
            }
            detectedAt = available
            lastAbove = t
            count = 1
            peak = p
            sum = p
            sumCount = 1
            confirmed = false
            startTaken = false
            confirmedGate = nil
            confirm(at: available)
        }
    }

    /// Confirms the open event at media time `available` if every reporting rule holds for what
    /// was seen so far. Each rule can only stay true as the event goes on (the active decisions
    /// and the shatter frames only grow; the impact lies before the offset so far), except the
    /// maximum length, which ``close(_:)`` applies to a confirmed event by shortening it.
    private func confirm(at available: Double) {
        guard count >= parameters.minActiveDecisions else { return }
        let offset = lastAbove + halfStride
        if let m = parameters.maxEventSeconds, offset - onset > m { return }
        if let gate = parameters.gate {
            guard let evidence = gateEvidence(gate, from: onset - 0.5, to: offset) else { return }
            confirmedGate = evidence
        }
        confirmed = true
        detectedAt = available
        if let bout = parameters.boutSeconds { boutUntil = max(boutUntil, lastAbove + bout) }
    }

    /// The open event, once confirmed and not yet handed out (nil otherwise): onset, offset so
    /// far and `detectedAt` as its final report will have them. Each event is handed out once.
    public func takeConfirmedStart() -> TrackedEvent? {
        guard active, confirmed, !startTaken else { return nil }
        startTaken = true
        var event = TrackedEvent(
            onset: onset, offset: max(onset, lastAbove + halfStride), detectedAt: detectedAt, peakProbability: peak,
            meanProbability: sum / Double(max(sumCount, 1)))
        event.impactTime = confirmedGate?.impact
        event.shatterSeconds = confirmedGate?.shatter
        return event
    }

    /// End of stream: the last median value and any open event.
    public func finish(into events: inout [TrackedEvent]) {
        if recent.count >= 2, let last = recent.last {
            step(last.time, last.available, (recent[recent.count - 2].p + last.p) / 2, &events)
        }
        if active { close(&events) }
    }

    private func close(_ events: inout [TrackedEvent]) {
        active = false
        previousOffset = max(previousOffset, lastAbove + halfStride)
        // Not confirmed while it went on: the rules on everything seen (the last frames may
        // complete the gate's shatter), confirmed now at the latest decision.
        if !confirmed { confirm(at: max(detectedAt, recent.last?.available ?? detectedAt)) }
        guard confirmed else { return }
        var offset = lastAbove + halfStride
        // Announced while within the maximum length: it ends there.
        if let m = parameters.maxEventSeconds { offset = min(offset, onset + m) }
        var event = TrackedEvent(
            onset: onset, offset: offset, detectedAt: detectedAt, peakProbability: peak,
            meanProbability: sum / Double(max(sumCount, 1)))
        if let gate = parameters.gate {
            // The evidence on every frame seen; at least the confirmation's evidence holds.
            let evidence = gateEvidence(gate, from: onset - 0.5, to: offset) ?? confirmedGate
            event.impactTime = evidence?.impact
            event.shatterSeconds = evidence?.shatter
        }
        if let pause = parameters.splitPauseSeconds {
            let runs = activeRuns(from: onset, to: event.offset, pause: pause)
            if runs.count > 1 {
                // Later parts are known only now (the event ended): detectedAt is the latest decision's time.
                let latest = recent.last?.available ?? detectedAt
                for (k, r) in runs.enumerated() {
                    var part = event
                    // The first part is the announced event (its onset and detectedAt).
                    part.onset = k == 0 ? onset : r.start
                    part.offset = k == runs.count - 1 ? event.offset : r.end
                    part.detectedAt = k == 0 ? detectedAt : max(detectedAt, latest)
                    events.append(part)
                }
                return
            }
        }
        events.append(event)
    }

    /// Runs of active frames in [from, to] separated by pauses of at least `pause` seconds.
    private func activeRuns(from: Double, to: Double, pause: Double) -> [(start: Double, end: Double)] {
        let a = Float(parameters.splitActivity)
        var runs: [(start: Double, end: Double)] = []
        var i = framesStart
        while i < frames.count {
            let f = frames[i]
            i += 1
            if f.t < from { continue }
            if f.t > to { break }
            guard f.rel >= a else { continue }
            if let last = runs.last, f.t - hop / 2 - last.end < pause {
                runs[runs.count - 1].end = f.t + hop / 2
            } else {
                runs.append((f.t - hop / 2, f.t + hop / 2))
            }
        }
        // A run of a single frame is a click, not a part.
        return runs.filter { $0.end - $0.start > 1.5 * hop }
    }

    /// The first impact in [from, to] followed by enough shatter frames, if any.
    private func gateEvidence(_ gate: ImpactShatterGate, from: Double, to: Double) -> (impact: Double, shatter: Double)? {
        var i = framesStart
        while i < frames.count {
            let f = frames[i]
            if f.t > to { break }
            if f.t >= from && (Double(f.flux) >= gate.impactFlux || Double(f.low) >= gate.thudFlux) {
                var n = 0
                var j = i
                while j < frames.count && frames[j].t <= f.t + gate.window {
                    let g = frames[j]
                    if Double(g.hf) >= gate.shatterHFRatio && Double(g.rel) >= gate.shatterRelative { n += 1 }
                    j += 1
                }
                if n >= gate.shatterFrames { return (f.t, Double(n) * hop) }
            }
            i += 1
        }
        return nil
    }
}
