import Foundation
import Testing
import VigilCore
import VigilDetectors

/// Scores the smoke and CO alarm detectors on the real development set in ../shared/data/dev.
@Suite("Alarm detectors on the development recordings", .serialized)
struct AlarmRealDataTests {
    struct Score {
        var references = 0
        var hits = 0
        var confirmable = 0
        var confirmableHits = 0
        var latencies: [Double] = []
        var misses: [String] = []
    }

    @Test(
        "dev set: recall, latency, zero false alarms on negatives",
        .enabled(if: AlarmTestSupport.hasDevData, "needs ../shared/data"))
    func devSet() throws {
        let refs = try AlarmTestSupport.loadReferences().filter { $0.label == "smokeAlarm" || $0.label == "coAlarm" }
        let files = try AlarmTestSupport.devFiles()
        let alarmFiles = Set(refs.map(\.file))
        var byLabel: [String: Score] = [:]
        var byBucket: [String: Score] = [:]
        var negativeFalseAlarms: [String] = []
        var unmatchedOnAlarmFiles: [String] = []
        var negativeSeconds = 0.0

        for file in files {
            let path = AlarmTestSupport.devDirectory.appendingPathComponent("audio/\(file)").path
            let detections = try AlarmTestSupport.runFile(path)
            // Detections come in nondecreasing detectedAt order per detector.
            for trigger in [EventTriggerType.smokeAlarm, .coAlarm] {
                let times = detections.filter { $0.trigger == trigger }.map(\.detectedAt)
                #expect(times == times.sorted(), "\(file): \(trigger) detections out of order")
            }
            if !alarmFiles.contains(file) {
                let info = try AlarmTestSupport.duration(of: path)
                negativeSeconds += info
                for d in detections {
                    negativeFalseAlarms.append(
                        "\(file) \(d.trigger.rawValue) \(fmt(d.start))-\(fmt(d.end)) \(d.evidence["toneHz"].map { "\($0)" } ?? "")")
                }
                continue
            }
            var used = Set<Int>()
            for ref in refs where ref.file == file {
                let trigger: EventTriggerType = ref.label == "smokeAlarm" ? .smokeAlarm : .coAlarm
                let match = detections.indices.first { i in
                    !used.contains(i) && detections[i].trigger == trigger
                        && detections[i].start >= ref.onset - 0.5 && detections[i].start <= ref.offset
                }
                let cycle = trigger == .smokeAlarm ? 4.0 : 5.8
                let pulses = trigger == .smokeAlarm ? 3.0 : 4.0
                let period = trigger == .smokeAlarm ? 1.0 : 0.2
                let confirmable = ref.offset - ref.onset >= 0.9 * (cycle + (pulses - 1) * period)
                let bucket = ref.eventToBackgroundDB.map { "\(Int($0)) dB" } ?? "isolated"
                for key in [ref.label] {
                    update(&byLabel[key, default: Score()], ref: ref, match: match.map { detections[$0] }, confirmable: confirmable)
                }
                update(
                    &byBucket["\(ref.label) \(bucket)", default: Score()], ref: ref, match: match.map { detections[$0] },
                    confirmable: confirmable)
                let coarse = (ref.eventToBackgroundDB ?? 99) >= -6 ? "[>= -6 dB]" : "[<= -12 dB]"
                update(
                    &byBucket["\(ref.label) \(coarse)", default: Score()], ref: ref, match: match.map { detections[$0] },
                    confirmable: confirmable)
                if let m = match { used.insert(m) }
            }
            for (i, d) in detections.enumerated() where !used.contains(i) {
                unmatchedOnAlarmFiles.append("\(file) \(d.trigger.rawValue) \(fmt(d.start))-\(fmt(d.end))")
            }
        }

        print("== Alarm detectors on dev (\(files.count) files; match: detection start in [onset-0.5 s, offset]) ==")
        print("label        refs hits recall | confirmable refs hits recall | median latency s")
        for (label, s) in byLabel.sorted(by: { $0.key < $1.key }) {
            print(row(label, s))
        }
        print("-- by event-to-background ratio --")
        for (label, s) in byBucket.sorted(by: { $0.key < $1.key }) { print(row(label, s)) }
        for (label, s) in byLabel.sorted(by: { $0.key < $1.key }) where !s.misses.isEmpty {
            print("misses \(label): \(s.misses.joined(separator: ", "))")
        }
        print(
            "false alarms on \(files.count - alarmFiles.count) alarm-free files (\(fmt(negativeSeconds / 60)) min): \(negativeFalseAlarms.count)"
        )
        for f in negativeFalseAlarms { print("  FA \(f)") }
        print("unmatched detections on alarm files: \(unmatchedOnAlarmFiles.count)")
        for f in unmatchedOnAlarmFiles { print("  extra \(f)") }

        #expect(negativeFalseAlarms.isEmpty, "false alarms on alarm-free files: \(negativeFalseAlarms)")
        // Every detection on an alarm file matches a reference of its own label: T3 is never
        // reported as T4 nor T4 as T3, and nothing is reported outside the alarms.
        #expect(unmatchedOnAlarmFiles.isEmpty, "\(unmatchedOnAlarmFiles)")

        // Issue targets, asserted on the references that the default 2 confirmation cycles can
        // confirm (see docs/alarms.md). Recall over every reference (the evaluation.md denominator,
        // which includes the two single-group `t3cycle_*` clips) is printed next to it.
        func check(_ name: String, _ s: Score, target: Double, floor: Double) {
            let r = s.confirmable > 0 ? Double(s.confirmableHits) / Double(s.confirmable) : 1
            let all = s.references > 0 ? Double(s.hits) / Double(s.references) : 1
            print(
                "target \(name): recall \(fmt(r)) (\(s.confirmableHits)/\(s.confirmable) confirmable refs) vs \(fmt(target)): "
                    + "\(r >= target ? "met" : "NOT MET"); over all refs \(fmt(all)) (\(s.hits)/\(s.references))")
            #expect(r >= floor, "\(name) recall \(r) below the asserted floor \(floor)")
        }
        for (label, s) in byLabel.sorted(by: { $0.key < $1.key }) {
            #expect(s.references > 0)
            // Single-cycle references (clips of one T3 group) cannot be confirmed over 2 cycles.
            check("\(label) all confirmable refs", s, target: 0.98, floor: 0.98)
            let limit = label == "smokeAlarm" ? 2 * 4.0 + 0.5 : 2 * 5.8 + 0.5
            print("target \(label) median latency: \(fmt(median(s.latencies))) s vs \(fmt(limit)) s")
            #expect(median(s.latencies) <= limit, "\(label) median latency")
        }
        for (key, s) in byBucket.sorted(by: { $0.key < $1.key }) where key.hasSuffix("[>= -6 dB]") {
            check(key, s, target: 0.98, floor: 0.98)
        }
        for (key, s) in byBucket.sorted(by: { $0.key < $1.key }) where key.hasSuffix("[<= -12 dB]") {
            check(key, s, target: 0.9, floor: 0.9)
        }
    }

    private func update(_ s: inout Score, ref: AlarmTestSupport.Reference, match: Detection?, confirmable: Bool) {
        s.references += 1
        if confirmable { s.confirmable += 1 }
        if let m = match {
            s.hits += 1
            if confirmable { s.confirmableHits += 1 }
            s.latencies.append(m.detectedAt - ref.onset)
        } else {
            s.misses.append(
                "\(ref.file)@\(fmt(ref.onset))\(ref.eventToBackgroundDB.map { " (\(Int($0)) dB)" } ?? "")\(confirmable ? "" : " [1 cycle]")"
            )
        }
    }

    private func row(_ label: String, _ s: Score) -> String {
        func pad(_ x: String, _ n: Int) -> String { x.count >= n ? x : x + String(repeating: " ", count: n - x.count) }
        let r = s.references > 0 ? Double(s.hits) / Double(s.references) : 0
        let rc = s.confirmable > 0 ? Double(s.confirmableHits) / Double(s.confirmable) : 0
        return
            "\(pad(label, 22)) \(s.references) \(s.hits) \(fmt(r)) | \(s.confirmable) \(s.confirmableHits) \(fmt(rc)) | \(fmt(median(s.latencies)))"
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}

func fmt(_ x: Double) -> String { String(format: "%.2f", x) }

/// Single-cycle clips are confirmed when one confirmation cycle is configured.
@Test(
    "single-cycle T3 clips with alarmConfirmationCycles = 1",
    .enabled(if: AlarmTestSupport.hasDevData, "needs ../shared/data"))
func singleCycleClips() throws {
    let refs = try AlarmTestSupport.loadReferences().filter { $0.file.hasPrefix("t3cycle_") && $0.label == "smokeAlarm" }
    #expect(!refs.isEmpty)
    for ref in refs {
        let path = AlarmTestSupport.devDirectory.appendingPathComponent("audio/\(ref.file)").path
        let detections = try AlarmTestSupport.runFile(path, settings: DetectorSettings(alarmConfirmationCycles: 1))
        let hit = detections.first { $0.trigger == .smokeAlarm && $0.start >= ref.onset - 0.5 && $0.start <= ref.offset }
        #expect(hit != nil, "\(ref.file): \(detections)")
        #expect(detections.allSatisfy { $0.trigger == .smokeAlarm })
    }
}
