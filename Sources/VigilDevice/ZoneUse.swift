/// What a zone is for. Matter's `ZoneUseEnum` has Motion=0, Privacy=1, Focus=2; Google's
/// ZoneManagementTrait takes a list and adds person, vehicle, animal and package.
///
/// Values outside both sets are kept as ``unrecognized(_:)`` so that zone commands can reject
/// them with ConstraintError in the specified order of checks.
public enum ZoneUse: Sendable, Hashable {
    /// Motion detection zone (Matter 0).
    case motion
    /// Privacy zone: blacked out, never reports motion (Matter 1).
    case privacy
    /// Focus zone (Matter 2); needs focus-zone support.
    case focus
    /// Google: person detection.
    case person
    /// Google: vehicle detection.
    case vehicle
    /// Google: animal detection.
    case animal
    /// Google: package detection.
    case package
    /// A wire value that is not a known use (the original text, or the number as text).
    case unrecognized(String)

    /// Every known use, in wire order.
    public static let known: [ZoneUse] = [.motion, .privacy, .focus, .person, .vehicle, .animal, .package]

    /// The use with wire name `name` ("motion", "privacy", ...), or ``unrecognized(_:)``.
    public init(wireName name: String) {
        self = Self.known.first(where: { $0.wireName == name }) ?? .unrecognized(name)
    }

    /// The use for Matter's numeric `ZoneUseEnum` value (0, 1, 2), or ``unrecognized(_:)``.
    public init(matterValue value: Int) {
        switch value {
        case 0: self = .motion
        case 1: self = .privacy
        case 2: self = .focus
        default: self = .unrecognized(String(value))
        }
    }

    /// The JSON name.
    public var wireName: String {
        switch self {
        case .motion: return "motion"
        case .privacy: return "privacy"
        case .focus: return "focus"
        case .person: return "person"
        case .vehicle: return "vehicle"
        case .animal: return "animal"
        case .package: return "package"
        case .unrecognized(let text): return text
        }
    }

    /// Matter's numeric value, for the three Matter uses.
    public var matterValue: Int? {
        switch self {
        case .motion: return 0
        case .privacy: return 1
        case .focus: return 2
        default: return nil
        }
    }

    /// Whether this is a known use.
    public var isKnown: Bool {
        if case .unrecognized = self { return false }
        return true
    }
}
