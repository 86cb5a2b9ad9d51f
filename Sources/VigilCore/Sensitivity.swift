/// A detection sensitivity on the device's 1...sensitivityMax scale.
///
/// Detectors take the sensitivity normalised to 0...1 (`fraction`): 0 is the least
/// sensitive setting (1) and 1 the most sensitive (sensitivityMax).
public struct Sensitivity: Sendable, Hashable {
    /// The setting, 1...maximum.
    public let level: Int
    /// The device's sensitivityMax (2...10).
    public let maximum: Int

    /// Creates a sensitivity, clamping `level` into 1...maximum.
    public init(_ level: Int, maximum: Int = 10) {
        let maxLevel = min(max(maximum, 2), 10)
        self.maximum = maxLevel
        self.level = min(max(level, 1), maxLevel)
    }

    /// 0 for the least sensitive setting, 1 for the most sensitive.
    public var fraction: Double { Double(level - 1) / Double(maximum - 1) }

    /// Google's Medium setting (5 of 10).
    public static let medium = Sensitivity(5, maximum: 10)
}
