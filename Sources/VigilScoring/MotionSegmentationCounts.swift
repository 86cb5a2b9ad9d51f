/// Per-pixel counts of a motion mask against a ground-truth mask, under the CDnet 2014 rules:
/// ground truth 255 is motion (positive), 0 (static) and 50 (shadow) are negatives, 85 (outside
/// the region of interest) and 170 (unknown) are not scored, nor are pixels outside the ROI mask.
/// A detector pixel is positive when it is 255. Counts add up over a sequence's scored frames;
/// the measures are computed from the sums (not averaged per frame).
public struct MotionSegmentationCounts: Sendable, Hashable {
    /// Ground-truth label of a motion pixel.
    public static let motionLabel: UInt8 = 255
    /// Ground-truth labels that count as negatives (static, shadow).
    public static let negativeLabels: Set<UInt8> = [0, 50]

    /// True positives: detector 255, ground truth 255.
    public var truePositives = 0
    /// False positives: detector 255, ground truth 0 or 50.
    public var falsePositives = 0
    /// True negatives: detector not 255, ground truth 0 or 50.
    public var trueNegatives = 0
    /// False negatives: detector not 255, ground truth 255.
    public var falseNegatives = 0

    /// Zero counts.
    public init() {}

    /// Counts given directly.
    public init(truePositives: Int, falsePositives: Int, trueNegatives: Int, falseNegatives: Int) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.trueNegatives = trueNegatives
        self.falseNegatives = falseNegatives
    }

    /// Adds one frame: `detected`, `groundTruth` and `roi` (optional; non-zero = scored) are
    /// same-sized planes of one byte per pixel.
    public mutating func add(detected: [UInt8], groundTruth: [UInt8], roi: [UInt8]?) {
        precondition(detected.count == groundTruth.count && (roi == nil || roi!.count == groundTruth.count), "mask sizes differ")
        var tp = 0, fp = 0, tn = 0, fn = 0
        for i in groundTruth.indices {
            if let roi, roi[i] == 0 { continue }
            let truth = groundTruth[i]
            let positive = detected[i] == 255
            if truth == Self.motionLabel {
                if positive { tp += 1 } else { fn += 1 }
            } else if truth == 0 || truth == 50 {
                if positive { fp += 1 } else { tn += 1 }
            }
        }
        truePositives += tp
        falsePositives += fp
        trueNegatives += tn
        falseNegatives += fn
    }

    /// Sums two counts.
    public static func + (a: Self, b: Self) -> Self {
        Self(
            truePositives: a.truePositives + b.truePositives, falsePositives: a.falsePositives + b.falsePositives,
            trueNegatives: a.trueNegatives + b.trueNegatives, falseNegatives: a.falseNegatives + b.falseNegatives)
    }

    private static func ratio(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }

    /// TP / (TP + FN); `nil` without ground-truth positives.
    public var recall: Double? { Self.ratio(truePositives, truePositives + falseNegatives) }
    /// TN / (TN + FP).
    public var specificity: Double? { Self.ratio(trueNegatives, trueNegatives + falsePositives) }
    /// FP / (FP + TN).
    public var falsePositiveRate: Double? { Self.ratio(falsePositives, falsePositives + trueNegatives) }
    /// FN / (TP + FN).
    public var falseNegativeRate: Double? { Self.ratio(falseNegatives, truePositives + falseNegatives) }
    /// Percentage of wrong classifications: 100 (FN + FP) / (TP + FN + FP + TN).
    public var percentageWrongClassifications: Double? {
        Self.ratio(falseNegatives + falsePositives, truePositives + falseNegatives + falsePositives + trueNegatives).map { $0 * 100 }
    }
    /// TP / (TP + FP); `nil` when the detector found nothing.
    public var precision: Double? { Self.ratio(truePositives, truePositives + falsePositives) }
    /// 2 precision recall / (precision + recall), computed as 2 TP / (2 TP + FP + FN): the same
    /// value wherever precision and recall are defined, and 0 (not undefined) when the detector
    /// found nothing in a sequence with motion. `nil` only when nothing is positive at all.
    public var fMeasure: Double? { Self.ratio(2 * truePositives, 2 * truePositives + falsePositives + falseNegatives) }
}

/// Frame-level activity of a fixed grid of zones (2 x 2 by default): a zone is active in a frame
/// when at least `activeFraction` of its scored pixels (CDnet rules: ground truth 0, 50 or 255,
/// inside the ROI) are motion, in the ground truth and in the detector's mask alike. Zones with
/// no scored pixel in a frame are not counted. F1 over (frame, zone) pairs.
public struct ZoneActivityCounts: Sendable, Hashable {
    /// Zones across.
    public var columns: Int
    /// Zones down.
    public var rows: Int
    /// Share of a zone's scored pixels that makes it active (0.005 = 0.5 %).
    public var activeFraction: Double
    /// Zone-frames active in both.
    public var truePositives = 0
    /// Zone-frames active in the detector only.
    public var falsePositives = 0
    /// Zone-frames active in the ground truth only.
    public var falseNegatives = 0
    /// Zone-frames active in neither.
    public var trueNegatives = 0

    /// Zero counts for a `columns` x `rows` grid.
    public init(columns: Int = 2, rows: Int = 2, activeFraction: Double = 0.005) {
        self.columns = columns
        self.rows = rows
        self.activeFraction = activeFraction
    }

    /// Adds one `width` x `height` frame. Zone (c, r) holds the pixels with `x * columns / width == c`
    /// and `y * rows / height == r`.
    public mutating func add(detected: [UInt8], groundTruth: [UInt8], roi: [UInt8]?, width: Int, height: Int) {
        precondition(detected.count == width * height && groundTruth.count == width * height, "mask sizes differ")
        let zones = columns * rows
        var scored = [Int](repeating: 0, count: zones), truth = scored, found = scored
        for y in 0..<height {
            let zoneRow = y * rows / height * columns
            for x in 0..<width {
                let i = y * width + x
                if let roi, roi[i] == 0 { continue }
                let label = groundTruth[i]
                guard label == 255 || label == 0 || label == 50 else { continue }
                let zone = zoneRow + x * columns / width
                scored[zone] += 1
                if label == 255 { truth[zone] += 1 }
                if detected[i] == 255 { found[zone] += 1 }
            }
        }
        for zone in 0..<zones where scored[zone] > 0 {
            let limit = activeFraction * Double(scored[zone])
            let reference = Double(truth[zone]) >= limit && truth[zone] > 0
            let system = Double(found[zone]) >= limit && found[zone] > 0
            switch (reference, system) {
            case (true, true): truePositives += 1
            case (false, true): falsePositives += 1
            case (true, false): falseNegatives += 1
            case (false, false): trueNegatives += 1
            }
        }
    }

    /// 2 TP / (2 TP + FP + FN); `nil` when no zone was active in either.
    public var f1: Double? {
        let denominator = 2 * truePositives + falsePositives + falseNegatives
        return denominator > 0 ? Double(2 * truePositives) / Double(denominator) : nil
    }
}
