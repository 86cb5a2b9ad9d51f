/// Validation figures of one model.
package struct ValidationFigures: Sendable, Hashable {
    /// Event-based figures (0.5 s onset collar, offsets ignored; VigilScoring, DCASE 2017 settings).
    package var event: LabelFigures
    /// Event-based figures in sed_eval's default setting (0.2 s onset collar, offsets within
    /// max(0.2 s, 50 % of the reference)): how closely onsets and offsets agree.
    package var eventSedEvalDefault: LabelFigures
    /// Segment-based figures (1 s segments; VigilScoring).
    package var segment: LabelFigures
    /// Detections on counted negative files.
    package var negativeFalseAlarms: Int
    /// Hours of counted negative material.
    package var negativeHours: Double
    /// False alarms per hour on negatives.
    package var falseAlarmsPerHour: Double { negativeHours > 0 ? Double(negativeFalseAlarms) / negativeHours : 0 }
}
