/// What a suppression withheld.
public enum SuppressionScope: String, Sendable, Hashable, CaseIterable {
    /// A detection that did not become (part of) an event.
    case event
    /// An ebr clip: the event was emitted without media.
    case clip
    /// An images-mode snapshot: the event was emitted without one.
    case snapshot
}
