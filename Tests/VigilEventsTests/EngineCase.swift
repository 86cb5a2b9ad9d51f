import Testing
import VigilCore
import VigilEvents

/// One table row: a policy, detections at media times, and the exact expected records
/// (rendered with ``RecordRendering``) in `EventEngine.run` order.
struct EngineCase: Sendable, CustomTestStringConvertible {
    var name: String
    var policy: EventPolicy
    var detections: [Detection]
    var endTime: Double
    /// The end of the video when it ends before `endTime` (``EventEngine/endVision(at:)``).
    var visionEnd: Double?
    var expected: [String]

    init(
        _ name: String, _ policy: EventPolicy, _ detections: [Detection], end endTime: Double = 100, videoEnd visionEnd: Double? = nil,
        _ expected: [String]
    ) {
        self.name = name
        self.policy = policy
        self.detections = detections
        self.endTime = endTime
        self.visionEnd = visionEnd
        self.expected = expected
    }

    var testDescription: String { name }
}

/// Builders for the tables.
enum Fixture {
    /// A motion point detection.
    static func motion(_ time: Double, zone: UInt16? = nil, confidence: Double = 1) -> Detection {
        .point(.motion, zoneID: zone, at: time, confidence: confidence)
    }

    /// A vision point detection of any trigger.
    static func vision(_ trigger: EventTriggerType, _ time: Double, zone: UInt16? = nil) -> Detection {
        .point(trigger, zoneID: zone, at: time)
    }

    /// A sound detection confirmed at `time`, spanning time - 0.5 ... time + 0.5.
    static func sound(
        _ time: Double, _ trigger: EventTriggerType = .glassBreak, confidence: Double = 1, zone: UInt16? = nil,
        evidence: [String: EvidenceValue] = [:]
    ) -> Detection {
        Detection(
            trigger: trigger, zoneID: zone, start: time - 0.5, end: time + 0.5, detectedAt: time,
            confidence: confidence, evidence: evidence)
    }

    static func timing(_ initial: Double, _ augmentation: Double, _ max: Double, _ blind: Double) -> LifecycleTiming {
        LifecycleTiming(initialDuration: initial, augmentationDuration: augmentation, maxDuration: max, blindDuration: blind)
    }

    /// A policy without media (mode disabled) and one zone trigger on zone 1.
    static func zonePolicy(_ timing: LifecycleTiming) -> EventPolicy {
        EventPolicy(recordingMode: .disabled, zoneTriggers: [1: timing])
    }

    /// A policy in `mode` (maxDuration `modeMax`), no zones.
    static func modePolicy(
        _ mode: RecordingModeType, max modeMax: Double = 60, motionTimeControl: LifecycleTiming = .motionTimeControlDefault,
        motionZones: [UInt16?]? = nil
    ) -> EventPolicy {
        EventPolicy(
            recordingMode: mode, recordingModeMaxDuration: modeMax, motionTimeControl: motionTimeControl,
            motionZones: motionZones)
    }
}
