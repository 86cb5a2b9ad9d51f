import Testing
import VigilAnalysis
import VigilCore
import VigilEvents

@Suite("Suppression grouping for --explain")
struct SuppressionGrouperTests {
    func suppressed(
        _ trigger: EventTriggerType, zone: UInt16?, at time: Double, rule: SuppressionRule = .triggerDisabled, reason: String = "off",
        scope: SuppressionScope = .event
    ) -> EngineRecord {
        .suppressed(Suppression(trigger: trigger, zone: zone, time: time, rule: rule, reason: reason, scope: scope))
    }

    func summary(_ records: [EngineRecord]) -> [String] {
        records.map { record in
            guard case .suppressed(let s) = record else { return "other" }
            return "\(s.trigger.rawValue) z\(s.zone.map(String.init) ?? "-") \(s.rule.name) \(s.time)-\(s.end) x\(s.count)"
        }
    }

    @Test("consecutive vision suppressions of one trigger, zone, rule and reason become one record with range and count")
    func groups() {
        var records: [EngineRecord] = []
        for frame in 0..<10 { records.append(suppressed(.motion, zone: 1, at: 1 + Double(frame) / 10)) }
        records.insert(suppressed(.dogBark, zone: nil, at: 1.35), at: 4)
        records.insert(suppressed(.dogBark, zone: nil, at: 1.45), at: 6)
        records.append(suppressed(.motion, zone: 2, at: 1.9, rule: .privacyZone, reason: "private"))
        // After a pause of more than 2 s: a new activity, a new row.
        records.append(suppressed(.motion, zone: 1, at: 5))
        records.append(suppressed(.motion, zone: 1, at: 5.1))
        // A different blind period (its reason names it) is its own row; clip suppressions stay single.
        records.append(suppressed(.motion, zone: 1, at: 5.2, rule: .zoneTriggerBlind, reason: "blind until 6"))
        records.append(suppressed(.motion, zone: 1, at: 5.3, rule: .zoneTriggerBlind, reason: "blind until 8"))
        records.append(suppressed(.motion, zone: 1, at: 5.4, rule: .motionTimeControlBlind, reason: "clip", scope: .clip))
        records.append(suppressed(.motion, zone: 1, at: 5.5, rule: .motionTimeControlBlind, reason: "clip", scope: .clip))
        #expect(
            summary(SuppressionGrouper.grouped(records)) == [
                "motion z1 enabledEventTriggers 1.0-1.9 x10",
                "dogBark z- enabledEventTriggers 1.35-1.35 x1",
                "dogBark z- enabledEventTriggers 1.45-1.45 x1",
                "motion z2 zones.privacy 1.9-1.9 x1",
                "motion z1 enabledEventTriggers 5.0-5.1 x2",
                "motion z1 triggers.blindDuration 5.2-5.2 x1",
                "motion z1 triggers.blindDuration 5.3-5.3 x1",
                "motion z1 transport.motionTimeControl.blindDuration 5.4-5.4 x1",
                "motion z1 transport.motionTimeControl.blindDuration 5.5-5.5 x1",
            ])
    }

    @Test("an analysis plan with --explain groups, and the encoder writes end and count")
    func planAndEncoder() throws {
        let detections = (0..<30).map { Detection.point(.motion, zoneID: nil, at: Double($0) / 10) }
        let plan = AnalysisPlan(policy: EventPolicy(enabledTriggers: [.sound]), explain: true)
        let records = plan.records(file: "clip", detections: detections, endTime: 3)
        #expect(records.count == 1)
        let json = RecordEncoder.json(try #require(records.first))
        #expect(json["time"]?.doubleValue == 0 && json["end"]?.doubleValue == 2.9 && json["count"]?.doubleValue == 30, "\(json)")
        #expect(RecordEncoder.table(records).contains("0.000-2.900"))
    }
}
