/// Per-pixel counts of a motion mask against a ground-truth mask, under the CDnet 2014 rules:
/// ground truth 255 is motion (positive), 0 (static) and 50 (shadow) are negatives, 85 (outside
/// the region of interest) and 170 (unknown) are not scored, nor are pixels outside the ROI mask.
/// A detector pixel is positive when it is 255. Counts add up over a sequence's scored frames;
/// the measures are computed from the sums (not averaged per frame).
package struct MotionSegmentationCounts: Sendable, Hashable {
    /// Ground-truth label of a motion pixel.
    package static let motionLabel: UInt8 = 255
    /// Ground-truth labels that count as negatives (static, shadow).
    package static let negativeLabels: Set<UInt8> = [0, 50]

    /// True positives: detector 255, ground truth 255.
    package var truePositives = 0
    /// False positives: detector 255, ground truth 0 or 50.
    package var falsePositives = 0
    /// True negatives: detector not 255, ground truth 0 or 50.
    package var trueNegatives = 0
    /// False negatives: detector not 255, ground truth 255.
    package var falseNegatives = 0

    /// Zero counts.
    package init() {}

    /// Counts given directly.
    package init(truePositives: Int, falsePositives: Int, trueNegatives: Int, falseNegatives: Int) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.trueNegatives = trueNegatives
        self.falseNegatives = falseNegatives
    }

    /// Adds one frame: `detected`, `groundTruth` and `roi` (optional; non-zero = scored) are
    /// same-sized planes of one byte per pixel.
    package mutating func add(detected: [UInt8], groundTruth: [UInt8], roi: [UInt8]?) {
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
    package static func + (a: Self, b: Self) -> Self {
        Self(
            truePositives: a.truePositives + b.truePositives, falsePositives: a.falsePositives + b.falsePositives,
            trueNegatives: a.trueNegatives + b.trueNegatives, falseNegatives: a.falseNegatives + b.falseNegatives)
    }

    private static func ratio(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }

    /// TP / (TP + FN); `nil` without ground-truth positives.
    package var recall: Double? { Self.ratio(truePositives, truePositives + falseNegatives) }
    /// TN / (TN + FP).
    package var specificity: Double? { Self.ratio(trueNegatives, trueNegatives + falsePositives) }
    /// FP / (FP + TN).
    package var falsePositiveRate: Double? { Self.ratio(falsePositives, falsePositives + trueNegatives) }
    /// FN / (TP + FN).
    package var falseNegativeRate: Double? { Self.ratio(falseNegatives, truePositives + falseNegatives) }
    /// Percentage of wrong classifications: 100 (FN + FP) / (TP + FN + FP + TN).
    package var percentageWrongClassifications: Double? {
        Self.ratio(falseNegatives + falsePositives, truePositives + falseNegatives + falsePositives + trueNegatives).map { $0 * 100 }
    }
    /// TP / (TP + FP); `nil` when the detector found nothing.
    package var precision: Double? { Self.ratio(truePositives, truePositives + falsePositives) }
    /// 2 precision recall / (precision + recall), computed as 2 TP / (2 TP + FP + FN): the same
    /// value wherever precision and recall are defined, and 0 (not undefined) when the detector
    /// found nothing in a sequence with motion. `nil` only when nothing is positive at all.
    package var fMeasure: Double? { Self.ratio(2 * truePositives, 2 * truePositives + falsePositives + falseNegatives) }
}
