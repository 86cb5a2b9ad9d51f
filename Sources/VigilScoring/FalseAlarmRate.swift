/// False alarms of one label per hour of negative material, from
/// ``DetectionStatistics/falseAlarmsPerHour(label:estimated:fileDurations:reference:negativeMaterial:)``.
package struct FalseAlarmRate: Sendable, Hashable {
    /// What counts as negative material for a label.
    package enum NegativeMaterial: Sendable, Hashable {
        /// Whole files without any reference event of the label; every detection of the label on them is a
        /// false alarm.
        case negativeFiles
        /// All time outside reference events of the label (on every file); a detection of the label is a false
        /// alarm when it overlaps no reference event of the label.
        case negativeTime
    }

    /// The label.
    package var label: String
    /// Number of false alarms.
    package var falseAlarms: Int
    /// Seconds of negative material.
    package var negativeSeconds: Double
    /// Files that contributed negative material.
    package var negativeFiles: Int

    /// Creates a rate.
    package init(label: String, falseAlarms: Int, negativeSeconds: Double, negativeFiles: Int) {
        self.label = label
        self.falseAlarms = falseAlarms
        self.negativeSeconds = negativeSeconds
        self.negativeFiles = negativeFiles
    }

    /// False alarms per hour of negative material; NaN when there is none.
    package var perHour: Double {
        negativeSeconds > 0 ? Double(falseAlarms) / (negativeSeconds / 3600) : .nan
    }
}
