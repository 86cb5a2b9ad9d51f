/// One output record of the ``EventEngine``.
public enum EngineRecord: Sendable, Hashable {
    /// An event that is not final yet (only from an engine that reports starts).
    case eventStarted(EventStart)
    /// A final event.
    case event(Event)
    /// A zone trigger activation began (Matter `ZoneTriggered`).
    case zoneTriggered(ZoneLifecycleRecord)
    /// A zone trigger activation ended (Matter `ZoneStopped`).
    case zoneStopped(ZoneLifecycleRecord)
    /// A candidate withheld by a rule.
    case suppressed(Suppression)

    /// The record's media time: an event's (or event start's) start, a lifecycle record's
    /// time, a suppression's detection time.
    public var time: Double {
        switch self {
        case .eventStarted(let start): return start.start
        case .event(let event): return event.start
        case .zoneTriggered(let record), .zoneStopped(let record): return record.time
        case .suppressed(let suppression): return suppression.time
        }
    }
}
