/// Clip length control of a motion-triggered transport (Matter
/// `TransportMotionTriggerTimeControlStruct`). Seconds.
public struct TransportMotionTimeControl: Sendable, Hashable {
    /// Clip length started by a trigger, at least 1.
    public var initialDuration: UInt32
    /// Extension per trigger while the clip runs.
    public var augmentationDuration: UInt32
    /// The clip never runs past this, at least initialDuration ("max event length").
    public var maxDuration: UInt32
    /// Triggers are ignored this long after a clip ends.
    public var blindDuration: UInt32

    /// Creates a time control.
    public init(initialDuration: UInt32, augmentationDuration: UInt32, maxDuration: UInt32, blindDuration: UInt32) {
        self.initialDuration = initialDuration
        self.augmentationDuration = augmentationDuration
        self.maxDuration = maxDuration
        self.blindDuration = blindDuration
    }

    /// The device default: 10 s, +5 s, at most 60 s, 10 s blind.
    public static let standard = TransportMotionTimeControl(
        initialDuration: 10, augmentationDuration: 5, maxDuration: 60, blindDuration: 10)

    /// Every problem (ConstraintError): initialDuration 1...65535; maxDuration >= initialDuration.
    public func validationErrors() -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if !(1...65535).contains(initialDuration) {
            errors.append(.outOfRange(initialDuration, 1...65535, field: "initialDuration"))
        }
        if maxDuration < initialDuration {
            errors.append(
                MatterCommandError(
                    .constraintError, field: "maxDuration", "\(maxDuration) is below initialDuration \(initialDuration)"))
        }
        return errors
    }
}
