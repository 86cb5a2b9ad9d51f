import Testing
import VigilCore
import VigilInference

/// ``EventTracker`` confirmation: when an event is confirmed (its `detectedAt`) and what an
/// announced event becomes at its end.
@Suite("Event tracker confirmation")
struct EventTrackerTests {
    static let period = 0.04

    /// Feeds decisions every ``period`` from 0 to `duration` (available 0.5 s after their centre)
    /// with probability `p(t)`, taking confirmed starts after each. Returns the starts with the
    /// index of the decision after which each was taken, and the events with the index after
    /// which each was returned.
    static func run(_ parameters: DecisionParameters, duration: Double, p: (Double) -> Double)
        -> (starts: [(event: TrackedEvent, at: Double)], events: [(event: TrackedEvent, at: Double)])
    {
        let tracker = EventTracker(parameters: parameters, sensitivity: .medium, decisionPeriod: period, hop: 0.01)
        var starts: [(TrackedEvent, Double)] = []
        var events: [(TrackedEvent, Double)] = []
        var batch: [TrackedEvent] = []
        var k = 0
        while Double(k) * period <= duration {
            let t = Double(k) * period
            tracker.decide(centerTime: t, availableTime: t + 0.5, probability: p(t), into: &batch)
            events += batch.map { ($0, t + 0.5) }
            batch.removeAll()
            if let s = tracker.takeConfirmedStart() { starts.append((s, t + 0.5)) }
            #expect(tracker.takeConfirmedStart() == nil, "a start is handed out once")
            k += 1
        }
        tracker.finish(into: &batch)
        events += batch.map { ($0, duration + 0.5) }
        return (starts, events)
    }

    @Test("an event is confirmed at its second active decision; its end keeps that onset and detectedAt")
    func confirmedAtMinimumActiveDecisions() throws {
        let parameters = DecisionParameters(threshold: 0.5, mergeGapSeconds: 0.3)
        let (starts, events) = Self.run(parameters, duration: 6) { (1.0..<2.5).contains($0) || (4.0..<4.5).contains($0) ? 0.9 : 0.05 }
        try #require(starts.count == 2 && events.count == 2, "\(starts) \(events)")
        for (s, e) in zip(starts, events) {
            // Taken at the decision that confirmed it, long before the event ends.
            #expect(s.event.detectedAt == s.at && s.at < e.at - 0.3)
            #expect(s.event.onset == e.event.onset && s.event.detectedAt == e.event.detectedAt)
            #expect(s.event.offset <= e.event.offset)
        }
        // The median of the decisions centred at 0.96, 1.0 and 1.04 s first crosses (centre 1.0 s);
        // the next one (centre 1.04 s, decision 1.08 s, available 0.5 s later) is the second
        // active decision and confirms.
        #expect(abs(starts[0].event.detectedAt - 1.58) < 1e-9)
        #expect(abs(events[0].event.offset - 2.5) < 0.05 && abs(events[1].event.offset - 4.5) < 0.05)
    }

    @Test("a confirmed event that goes past the maximum length ends at onset + maximum")
    func announcedEventEndsAtTheMaximum() throws {
        var parameters = DecisionParameters(threshold: 0.5, mergeGapSeconds: 0.3)
        parameters.maxEventSeconds = 6
        let (starts, events) = Self.run(parameters, duration: 12) { (1.0..<9.0).contains($0) ? 0.9 : 0.05 }
        try #require(starts.count == 1 && events.count == 1, "\(starts) \(events)")
        #expect(events[0].event.onset == starts[0].event.onset && events[0].event.detectedAt == starts[0].event.detectedAt)
        #expect(abs(events[0].event.offset - (events[0].event.onset + 6)) < 1e-9)
    }

    @Test("an event that is past the maximum length before it is confirmed is never reported")
    func notConfirmablePastTheMaximum() {
        var parameters = DecisionParameters(threshold: 0.5, mergeGapSeconds: 0.3)
        parameters.maxEventSeconds = 2
        // 60 active decisions take 2.4 s: longer than the maximum when the last one comes.
        parameters.minActiveDecisions = 60
        let (starts, events) = Self.run(parameters, duration: 8) { (1.0..<5.0).contains($0) ? 0.9 : 0.05 }
        #expect(starts.isEmpty && events.isEmpty, "\(starts) \(events)")
        // Within the maximum, the same event is confirmed and reported.
        parameters.maxEventSeconds = 6
        let within = Self.run(parameters, duration: 8) { (1.0..<5.0).contains($0) ? 0.9 : 0.05 }
        #expect(within.starts.count == 1 && within.events.count == 1)
        #expect(within.starts.first?.event.detectedAt == within.events.first?.event.detectedAt)
    }

    @Test("an announced event split at a pause: the first part is the announced event, later parts come at the end")
    func splitKeepsTheAnnouncedFirstPart() throws {
        var parameters = DecisionParameters(threshold: 0.5, mergeGapSeconds: 0.3)
        parameters.splitPauseSeconds = 0.5
        let tracker = EventTracker(parameters: parameters, sensitivity: .medium, decisionPeriod: Self.period, hop: 0.01)
        // Two bursts of band activity (1.0-1.6 s and 2.4-3.0 s) in one event of the model.
        func active(_ t: Double) -> Bool { (1.0..<1.6).contains(t) || (2.4..<3.0).contains(t) }
        var starts: [TrackedEvent] = []
        var events: [TrackedEvent] = []
        var frame = 0
        for k in 0...125 {
            let t = Double(k) * Self.period
            // Frames up to the decision's availability are seen before it.
            while Double(frame) * 0.01 <= t + 0.5 {
                let ft = Double(frame) * 0.01
                let rel: Float = active(ft) ? 1 : 0
                tracker.observeFrame(time: ft, flux: 0, lowFlux: 0, hfRatio: 0, meanRelative: rel, maxRelative: rel)
                frame += 1
            }
            tracker.decide(centerTime: t, availableTime: t + 0.5, probability: (1.0..<3.0).contains(t) ? 0.9 : 0.05, into: &events)
            if let s = tracker.takeConfirmedStart() { starts.append(s) }
        }
        tracker.finish(into: &events)
        try #require(starts.count == 1 && events.count == 2, "\(starts) \(events)")
        #expect(events[0].onset == starts[0].onset && events[0].detectedAt == starts[0].detectedAt)
        #expect(abs(events[0].offset - 1.6) < 0.02 && abs(events[1].onset - 2.4) < 0.02 && abs(events[1].offset - 3.0) < 0.05)
        // The second part is known only when the event ends.
        #expect(events[1].detectedAt > events[1].offset - 0.5 && events[1].detectedAt > starts[0].detectedAt)
    }

    /// Onsets of one event whose band activity starts at `activeFrom` while the model's decisions
    /// rise at 2.0 s, with onset refinement at `backtrack` (nil: the default).
    static func refinedOnset(activeFrom: Double, backtrack: Double?) throws -> Double {
        var parameters = DecisionParameters(threshold: 0.5, mergeGapSeconds: 0.3)
        parameters.onsetActivity = 1.5
        if let backtrack { parameters.onsetBacktrackSeconds = backtrack }
        let tracker = EventTracker(parameters: parameters, sensitivity: .medium, decisionPeriod: period, hop: 0.01)
        var events: [TrackedEvent] = []
        var frame = 0
        for k in 0...100 {
            let t = Double(k) * period
            while Double(frame) * 0.01 <= t + 0.5 {
                let ft = Double(frame) * 0.01
                // Quiet, then some band 20 dB over its floor from `activeFrom` to 3 s.
                let level: Float = (activeFrom..<3.0).contains(ft) ? 2 : 0.2
                tracker.observeFrame(time: ft, flux: 0, lowFlux: 0, hfRatio: 0, meanRelative: level, maxRelative: level)
                frame += 1
            }
            tracker.decide(centerTime: t, availableTime: t + 0.5, probability: (2.0..<3.0).contains(t) ? 0.9 : 0.05, into: &events)
        }
        tracker.finish(into: &events)
        try #require(events.count == 1, "\(events)")
        return events[0].onset
    }

    @Test("onset refinement moves the onset back over active frames, at most the backtrack limit")
    func onsetRefinementIsBounded() throws {
        // Activity a little before the first active decision (2.0 s): the onset moves to it.
        #expect(abs(try Self.refinedOnset(activeFrom: 1.8, backtrack: nil) - 1.79) < 0.015)
        // Activity from 1.0 s (a clip's own background before the bark): the default walks back
        // no more than 0.375 s (half the long pooling window), not to 1.0 s.
        let bounded = try Self.refinedOnset(activeFrom: 1.0, backtrack: nil)
        #expect(bounded >= 2.0 - 0.375 - 0.011 && bounded < 1.7, "\(bounded)")
        // The old limit (1.5 s) reached the start of that background.
        #expect(abs(try Self.refinedOnset(activeFrom: 1.0, backtrack: 1.5) - 0.99) < 0.015)
        // No activity before the decisions: the onset stays at the first active decision.
        let unrefined = try Self.refinedOnset(activeFrom: 2.5, backtrack: nil)
        #expect(unrefined > 1.9 && unrefined < 2.0, "\(unrefined)")
    }

    /// Events of a stream with one sure bark (p 0.995, 1.0-1.3 s) and weaker ones (p 0.7) at
    /// `weak` starts (0.3 s each), at threshold 0.99 with the bout continuation `bout` (seconds, threshold).
    static func boutEvents(weak: [Double], bout: (Double, Double)?, sensitivity: Sensitivity = .medium) -> [TrackedEvent] {
        var parameters = DecisionParameters(threshold: 0.99, mergeGapSeconds: 0.3)
        if let bout {
            parameters.boutSeconds = bout.0
            parameters.boutThreshold = bout.1
        }
        let tracker = EventTracker(parameters: parameters, sensitivity: sensitivity, decisionPeriod: period, hop: 0.01)
        var events: [TrackedEvent] = []
        for k in 0...300 {
            let t = Double(k) * period
            let p = (1.0..<1.3).contains(t) ? 0.995 : weak.contains { (($0)..<($0 + 0.3)).contains(t) } ? 0.7 : 0.05
            tracker.decide(centerTime: t, availableTime: t + 0.5, probability: p, into: &events)
        }
        tracker.finish(into: &events)
        return events
    }

    @Test("bout continuation: after a reported event, weaker ones within the bout window are reported too")
    func boutContinuation() throws {
        // Without it only the sure bark is an event (onset: the first active median's centre, 1.0 s, less the 0.05 s lead).
        let plain = Self.boutEvents(weak: [0.3, 2.0, 3.5, 9.0], bout: nil)
        #expect(plain.count == 1 && abs(plain[0].onset - 0.95) < 0.015, "\(plain)")
        // With a 2 s window at 0.5: the weak ones at 2.0 s (0.7 s after the bark) and 3.5 s (1.2 s
        // after the previous one: the bout goes on; its first decision is at 3.52 s) are reported; the
        // one before the sure bark and the one 5.2 s after the bout are not.
        let bout = Self.boutEvents(weak: [0.3, 2.0, 3.5, 9.0], bout: (2, 0.5))
        try #require(bout.count == 3, "\(bout)")
        #expect(abs(bout[0].onset - 0.95) < 0.015 && abs(bout[1].onset - 1.95) < 0.015 && abs(bout[2].onset - 3.47) < 0.015, "\(bout)")
        // A bout threshold above the weak events' probability finds nothing more.
        #expect(Self.boutEvents(weak: [2.0], bout: (2, 0.8)).count == 1)
        // Weak events alone never open a bout.
        #expect(Self.boutEvents(weak: [], bout: (2, 0.5)).count == 1)
        // At sensitivity 1 the start threshold (0.998 with the default step) is above the sure
        // bark's median: no event, so no bout.
        #expect(Self.boutEvents(weak: [2.0], bout: (2, 0.5), sensitivity: Sensitivity(1)).isEmpty)
    }

    @Test("the bout threshold follows the sensitivity and never exceeds the start threshold")
    func boutThresholdMapping() {
        var parameters = DecisionParameters(threshold: 0.99, mergeGapSeconds: 0.3)
        parameters.sensitivityLogitStep = 1.14
        parameters.boutSeconds = 3
        parameters.boutThreshold = 0.6
        var previous = 1.0
        for level in 1...10 {
            let s = Sensitivity(level)
            let b = parameters.boutThreshold(for: s)
            #expect(b <= parameters.threshold(for: s) && b < previous, "level \(level): \(b)")
            previous = b
        }
        #expect(abs(parameters.boutThreshold(for: .medium) - 0.6) < 1e-12)
        // Level 10 moves its logit by 5 x 0.4, not by the model's step.
        let l10 = DecisionParameters.logit(parameters.boutThreshold(for: Sensitivity(10)))
        #expect(abs(l10 - (DecisionParameters.logit(0.6) - 2)) < 1e-9)
        // A bout threshold above the start threshold is capped at it.
        parameters.boutThreshold = 0.995
        #expect(parameters.boutThreshold(for: .medium) == parameters.threshold(for: .medium))
    }
}
