/// Frame-level activity of a fixed grid of zones (2 x 2 by default): a zone is active in a frame
/// when at least `activeFraction` of its scored pixels (CDnet rules: ground truth 0, 50 or 255,
/// inside the ROI) are motion, in the ground truth and in the detector's mask alike. Zones with
/// no scored pixel in a frame are not counted. F1 over (frame, zone) pairs.
package struct ZoneActivityCounts: Sendable, Hashable {
    /// Zones across.
    package var columns: Int
    /// Zones down.
    package var rows: Int
    /// Share of a zone's scored pixels that makes it active (0.005 = 0.5 %).
    package var activeFraction: Double
    /// Zone-frames active in both.
    package var truePositives = 0
    /// Zone-frames active in the detector only.
    package var falsePositives = 0
    /// Zone-frames active in the ground truth only.
    package var falseNegatives = 0
    /// Zone-frames active in neither.
    package var trueNegatives = 0

    /// Zero counts for a `columns` x `rows` grid.
    package init(columns: Int = 2, rows: Int = 2, activeFraction: Double = 0.005) {
        self.columns = columns
        self.rows = rows
        self.activeFraction = activeFraction
    }

    /// Adds one `width` x `height` frame. Zone (c, r) holds the pixels with `x * columns / width == c`
    /// and `y * rows / height == r`.
    package mutating func add(detected: [UInt8], groundTruth: [UInt8], roi: [UInt8]?, width: Int, height: Int) {
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
    package var f1: Double? {
        let denominator = 2 * truePositives + falsePositives + falseNegatives
        return denominator > 0 ? Double(2 * truePositives) / Double(denominator) : nil
    }
}
