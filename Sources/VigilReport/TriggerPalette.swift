import VigilImaging

/// The colour of each trigger in every picture the project draws (reports, charts).
public enum TriggerPalette {
    /// The colour for a trigger's wire name; unknown names get a neutral grey.
    public static func color(for trigger: String) -> RGBColor {
        switch trigger {
        case "smokeAlarm": return RGBColor(red: 230, green: 57, blue: 70)
        case "coAlarm": return RGBColor(red: 247, green: 140, blue: 30)
        case "dogBark": return RGBColor(red: 160, green: 110, blue: 60)
        case "glassBreak": return RGBColor(red: 40, green: 190, blue: 220)
        case "personTalking": return RGBColor(red: 80, green: 190, blue: 80)
        case "sound": return RGBColor(red: 120, green: 140, blue: 255)
        case "motion": return RGBColor(red: 190, green: 90, blue: 230)
        default: return RGBColor(red: 170, green: 170, blue: 170)
        }
    }

    /// Display order of triggers in legends and lanes.
    public static let order = [
        "smokeAlarm", "coAlarm", "glassBreak", "dogBark", "personTalking", "sound", "motion", "personDetected",
        "vehicleDetected", "animalDetected", "packageDetected",
    ]

    /// `triggers` sorted in display order (unknown ones last, alphabetically).
    public static func sorted(_ triggers: some Sequence<String>) -> [String] {
        Array(Set(triggers)).sorted { a, b in
            let i = order.firstIndex(of: a) ?? order.count
            let j = order.firstIndex(of: b) ?? order.count
            return i != j ? i < j : a < b
        }
    }
}
