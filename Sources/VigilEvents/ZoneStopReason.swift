/// Why an activation of a ``TriggerLifecycle`` ended (Matter `ZoneEventStoppedReasonEnum`).
/// Raw values are the wire names.
public enum ZoneStopReason: String, Sendable, Hashable, CaseIterable {
    /// The active duration ran out (no augmenting detection in time); also used when the
    /// active duration ends exactly at `maxDuration`.
    case actionStopped
    /// The activation was cut at `maxDuration` while its active duration reached beyond it.
    case timeout
}
