/// The activation lifecycle shared by zone triggers, motion grouping and ebr clips.
///
/// All times are absolute seconds of media time, fed in nondecreasing order.
///
/// - A detection while idle starts an activation at `T0` with active duration
///   `D = initialDuration`.
/// - A detection while active (at most `T0 + min(D, maxDuration)`, inclusive) may augment:
///   the first augmentation is always allowed; after that `D` may grow again only once
///   the elapsed time has strictly passed the previous `D` (the value before the latest
///   augmentation). A detection that cannot augment is absorbed.
/// - The activation stops at `T0 + min(D, maxDuration)`, as soon as a later time is seen:
///   reason ``ZoneStopReason/timeout`` when `D > maxDuration`, else
///   ``ZoneStopReason/actionStopped``.
/// - After a stop at `S`, a detection at `s` with `S <= s < S + blindDuration` is blind.
public struct TriggerLifecycle: Sendable, Hashable {
    /// One running activation.
    public struct Activation: Sendable, Hashable {
        /// Media time of the first detection (`T0`).
        public var start: Double
        /// The active duration `D` (may exceed `maxDuration`; the stop is capped).
        public var duration: Double
        /// `D` before the latest augmentation; `nil` before the first augmentation.
        public var previousDuration: Double?
        /// Number of augmentations so far.
        public var augmentations: Int

        /// Creates an activation.
        public init(start: Double, duration: Double, previousDuration: Double?, augmentations: Int) {
            self.start = start
            self.duration = duration
            self.previousDuration = previousDuration
            self.augmentations = augmentations
        }
    }

    /// The state of the lifecycle.
    public enum State: Sendable, Hashable {
        /// No activation and no blind period.
        case idle
        /// An activation is running.
        case active(Activation)
        /// The last activation stopped at `stoppedAt`; detections before `until` are ignored.
        case blind(stoppedAt: Double, until: Double)
    }

    /// The end of an activation.
    public struct Stop: Sendable, Hashable {
        /// Media time of the activation's first detection (`T0`).
        public var activationStart: Double
        /// Media time of the stop: `T0 + min(D, maxDuration)`.
        public var time: Double
        /// Why it stopped.
        public var reason: ZoneStopReason

        /// Creates a stop.
        public init(activationStart: Double, time: Double, reason: ZoneStopReason) {
            self.activationStart = activationStart
            self.time = time
            self.reason = reason
        }
    }

    /// How the lifecycle took one detection.
    public enum Response: Sendable, Hashable {
        /// The detection started a new activation.
        case started
        /// The detection augmented the running activation; the new active duration.
        case augmented(duration: Double)
        /// The detection fell into the running activation but could not augment it.
        case absorbed
        /// The detection fell into the blind period after the stop at `stoppedAt`.
        case blind(stoppedAt: Double, until: Double)
    }

    /// The timing, sanitized (see ``LifecycleTiming/sanitized``).
    public let timing: LifecycleTiming
    /// The current state.
    public private(set) var state: State = .idle

    /// Creates an idle lifecycle.
    public init(timing: LifecycleTiming) {
        self.timing = timing.sanitized
    }

    /// The stop time of the running activation, or `nil` when not active.
    public var scheduledStop: Double? {
        guard case .active(let activation) = state else { return nil }
        return stopTime(of: activation)
    }

    /// Whether an activation is running.
    public var isActive: Bool { scheduledStop != nil }

    /// Closes the running activation if its stop time lies strictly before `time`, and ends
    /// a blind period that is over by `time`. Returns the stop, if one happened.
    public mutating func expire(before time: Double) -> Stop? {
        switch state {
        case .idle:
            return nil
        case .blind(_, let until):
            if time >= until { state = .idle }
            return nil
        case .active(let activation):
            guard stopTime(of: activation) < time else { return nil }
            let stop = close(activation)
            if case .blind(_, let until) = state, time >= until { state = .idle }
            return stop
        }
    }

    /// Feeds a detection at `time`. First expires what ended before `time` (the returned
    /// `stop`), then starts, augments, absorbs, or reports the blind period.
    public mutating func observe(at time: Double) -> (stop: Stop?, response: Response) {
        let stop = expire(before: time)
        switch state {
        case .idle:
            state = .active(Activation(start: time, duration: timing.initialDuration, previousDuration: nil, augmentations: 0))
            return (stop, .started)
        case .blind(let stoppedAt, let until):
            return (stop, .blind(stoppedAt: stoppedAt, until: until))
        case .active(var activation):
            let mayAugment: Bool
            if let previous = activation.previousDuration {
                mayAugment = time > activation.start + previous
            } else {
                mayAugment = true
            }
            guard mayAugment else { return (stop, .absorbed) }
            activation.previousDuration = activation.duration
            activation.duration += timing.augmentationDuration
            activation.augmentations += 1
            state = .active(activation)
            return (stop, .augmented(duration: activation.duration))
        }
    }

    /// Closes the running activation at its scheduled stop time, however far in the future.
    public mutating func finish() -> Stop? {
        finish(cutAt: .infinity)
    }

    /// Closes the running activation at its scheduled stop time or at `cut`, whichever is
    /// earlier (never before the activation's start): the end of the media it was watching.
    /// An activation cut before its scheduled stop stops with ``ZoneStopReason/actionStopped``
    /// (the activity is no longer observed; `maxDuration` was not reached).
    public mutating func finish(cutAt cut: Double) -> Stop? {
        guard case .active(let activation) = state else { return nil }
        let scheduled = stopTime(of: activation)
        guard cut < scheduled else { return close(activation) }
        let time = Swift.max(activation.start, cut)
        let until = time + timing.blindDuration
        state = timing.blindDuration > 0 && until > time ? .blind(stoppedAt: time, until: until) : .idle
        return Stop(activationStart: activation.start, time: time, reason: .actionStopped)
    }

    /// Ends a blind period at once (the lifecycle becomes idle), so that the next detection
    /// starts a new activation. Does nothing while idle or active.
    public mutating func endBlindPeriod() {
        if case .blind = state { state = .idle }
    }

    private func stopTime(of activation: Activation) -> Double {
        activation.start + Swift.min(activation.duration, timing.maxDuration)
    }

    private mutating func close(_ activation: Activation) -> Stop {
        let time = stopTime(of: activation)
        let reason: ZoneStopReason = activation.duration > timing.maxDuration ? .timeout : .actionStopped
        let until = time + timing.blindDuration
        state = timing.blindDuration > 0 && until > time ? .blind(stoppedAt: time, until: until) : .idle
        return Stop(activationStart: activation.start, time: time, reason: reason)
    }
}
