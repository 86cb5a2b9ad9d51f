import Foundation
import VigilCore
import VigilEvents
import VigilFrameIO
import VigilImaging
import VigilVision

/// Images recording mode: keeps, per vision (trigger, zone) group, the frame with the most
/// motion of its current activation, and writes one PNG per event when the event is final,
/// with zones outlined and privacy zones black (only when given a directory; without one it
/// still finds each activation's peak time). It follows the activations by running a
/// streaming event engine over the same detections in the same order as the final batch run,
/// so snapshot indices agree. A sound event's snapshot shows the frame on screen at its time
/// (the latest frame at or before it); a sound event after the end of the video has none.
/// Memory: one frame per active group plus the current and the previous frame.
public final class SnapshotCollector {
    private var engine: EventEngine
    private let overlay: ZoneOverlay
    private let directory: String?
    private var privacyMask: [UInt8] = []
    private var maskSize = (0, 0)
    private struct Peak {
        var pixels: Int
        var time: Double
        var picture: FramePicture
    }
    private struct GroupKey: Hashable {
        var trigger: EventTriggerType
        var zone: UInt16?
    }
    private var peaks: [GroupKey: Peak] = [:]
    /// Peak time of each activation, keyed by its first detection (trigger, zone, detectedAt).
    public private(set) var peakTimes: [DetectionKey: Double] = [:]
    /// Write failures (reported once by the caller).
    public private(set) var failures: [String] = []
    /// Snapshots written.
    public private(set) var written = 0

    /// Identifies a detection by trigger, zone and time.
    public struct DetectionKey: Hashable {
        /// The trigger.
        public var trigger: EventTriggerType
        /// The zone, if any.
        public var zone: UInt16?
        /// The detection time.
        public var time: Double
    }

    /// A collector following `policy`, writing snapshots into `directory` (none without one).
    public init(policy: EventPolicy, overlay: ZoneOverlay, directory: String?) {
        self.engine = EventEngine(policy: policy)
        self.overlay = overlay
        self.directory = directory
    }

    /// Ingests the detections of one frame: `sounds` (detected up to the frame's time, after the
    /// previous frame's) and the frame's motion `detections` (nondecreasing times across calls).
    /// A sound detected before `time` is shown with `previous`, the frame on screen then.
    public func ingest(sounds: [Detection], detections: [Detection], frame: FramePicture, time: Double, previous: FramePicture?) {
        let early = sounds.filter { $0.detectedAt < time }
        ingest(early, frame: previous ?? frame)
        ingest(Array(sounds.dropFirst(early.count)) + detections, frame: frame)
    }

    /// Ends the video at `videoEnd` (the end of its last frame, `last`), ingests the sound
    /// detections left (`remaining`, in order), then closes the engine at `endTime` and writes
    /// the remaining snapshots. Sounds after `videoEnd` have no frame and get no snapshot.
    public func finish(videoEnd: Double, endTime: Double, remaining: [Detection], last: FramePicture?) {
        let during = remaining.prefix { $0.detectedAt <= videoEnd }
        if let last { ingest(Array(during), frame: last) }
        handle(engine.endVision(at: videoEnd), current: last)
        for detection in remaining.dropFirst(during.count) { handle(engine.ingest(detection), current: nil) }
        handle(engine.finish(at: endTime), current: last)
    }

    /// Ingests detections shown with `frame` (nondecreasing times across calls).
    private func ingest(_ detections: [Detection], frame: FramePicture) {
        for detection in detections {
            let records = engine.ingest(detection)
            handle(records, current: frame)
            let suppressed = records.contains { record in
                if case .suppressed(let s) = record, s.scope == .event, s.time == detection.detectedAt, s.zone == detection.zoneID,
                    s.trigger == detection.trigger
                {
                    return true
                }
                return false
            }
            guard detection.trigger.isVision, !suppressed else { continue }
            let key = GroupKey(trigger: detection.trigger, zone: detection.zoneID)
            var pixels = 0
            if case .int(let value)? = detection.evidence["motionPixels"] { pixels = value }
            if peaks[key] == nil || pixels > peaks[key]!.pixels {
                peaks[key] = Peak(pixels: pixels, time: detection.detectedAt, picture: frame)
            }
        }
    }

    private func handle(_ records: [EngineRecord], current: FramePicture?) {
        for record in records {
            guard case .event(let event) = record, case .snapshot(_, let index)? = event.media else { continue }
            var picture = current
            var time = event.detectedAt
            if event.trigger.isVision, let peak = peaks.removeValue(forKey: GroupKey(trigger: event.trigger, zone: event.zone)) {
                picture = peak.picture
                time = peak.time
                peakTimes[DetectionKey(trigger: event.trigger, zone: event.zone, time: event.detectedAt)] = time
            }
            if let picture { write(picture, index: index) }
        }
    }

    private func write(_ picture: FramePicture, index: Int) {
        guard let directory else { return }
        let rgb = picture.rgbImage()
        if maskSize != (rgb.width, rgb.height) {
            privacyMask = overlay.privacyMask(width: rgb.width, height: rgb.height)
            maskSize = (rgb.width, rgb.height)
        }
        let image = overlay.render(rgb, privacyMask: privacyMask)
        let path = (directory as NSString).appendingPathComponent("\(index).png")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let bytes = try PNGCodec.encode(image, destination: path)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            written += 1
        } catch {
            failures.append("\(path): cannot write snapshot: \(error)")
        }
    }
}
