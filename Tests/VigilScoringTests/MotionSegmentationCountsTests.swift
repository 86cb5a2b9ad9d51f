import Testing
import VigilScoring

@Suite("CDnet 2014 motion-mask counts and the 2 x 2 zone activity F1")
struct MotionSegmentationCountsTests {
    // A 4 x 3 frame with every ground-truth label: 255 motion, 0 static, 50 shadow (negative),
    // 85 outside the ROI and 170 unknown (not scored); the ROI leaves out the last pixel.
    let groundTruth: [UInt8] = [
        255, 255, 0, 50,
        85, 170, 255, 0,
        50, 0, 255, 255,
    ]
    let detected: [UInt8] = [
        255, 0, 255, 255,
        255, 255, 0, 0,
        0, 255, 255, 255,
    ]
    let roi: [UInt8] = [
        255, 255, 255, 255,
        255, 255, 255, 255,
        255, 255, 255, 0,
    ]

    @Test("counts and measures of a hand-made frame, by hand: TP 2, FN 2, FP 3 (one on a shadow), TN 2")
    func handMadeFrame() throws {
        var counts = MotionSegmentationCounts()
        counts.add(detected: detected, groundTruth: groundTruth, roi: roi)
        #expect(counts == MotionSegmentationCounts(truePositives: 2, falsePositives: 3, trueNegatives: 2, falseNegatives: 2))
        #expect(counts.recall == 0.5)
        #expect(counts.specificity == 0.4)
        #expect(counts.falsePositiveRate == 0.6)
        #expect(counts.falseNegativeRate == 0.5)
        #expect(abs(try #require(counts.percentageWrongClassifications) - 500.0 / 9) < 1e-12)
        #expect(counts.precision == 0.4)
        #expect(abs(try #require(counts.fMeasure) - 4.0 / 9) < 1e-12)  // 2 * 0.4 * 0.5 / 0.9
        // Without the ROI the last pixel (motion, detected) counts; a second frame adds up.
        var unmasked = MotionSegmentationCounts()
        unmasked.add(detected: detected, groundTruth: groundTruth, roi: nil)
        #expect(unmasked == MotionSegmentationCounts(truePositives: 3, falsePositives: 3, trueNegatives: 2, falseNegatives: 2))
        #expect(counts + unmasked == MotionSegmentationCounts(truePositives: 5, falsePositives: 6, trueNegatives: 4, falseNegatives: 4))
    }

    @Test("only 255 is a detector positive; a detector that finds nothing scores F 0 and no precision")
    func emptyDetector() {
        var counts = MotionSegmentationCounts()
        counts.add(detected: [UInt8](repeating: 254, count: 12), groundTruth: groundTruth, roi: roi)
        #expect(counts == MotionSegmentationCounts(truePositives: 0, falsePositives: 0, trueNegatives: 5, falseNegatives: 4))
        #expect(counts.precision == nil)
        #expect(counts.fMeasure == 0)
        #expect(counts.recall == 0)
    }

    @Test("zone activity: a 4 x 4 frame in 2 x 2 zones, active at a share of scored pixels; unscored zones skipped")
    func zoneActivity() {
        // Zone 0 (top left): truth 2 of 4, detector 2. Zone 1 (top right): truth 1, detector 2.
        // Zone 2 (bottom left): truth 2, detector 1. Zone 3: only 85 and 170, never scored.
        let truth: [UInt8] = [
            255, 255, 255, 0,
            0, 0, 50, 0,
            255, 0, 85, 170,
            255, 0, 170, 85,
        ]
        let found: [UInt8] = [
            255, 255, 255, 255,
            0, 0, 0, 0,
            255, 0, 255, 255,
            0, 0, 255, 255,
        ]
        var strict = ZoneActivityCounts(activeFraction: 0.3)  // at least 2 of a zone's 4 scored pixels
        strict.add(detected: found, groundTruth: truth, roi: nil, width: 4, height: 4)
        #expect(strict.truePositives == 1 && strict.falsePositives == 1 && strict.falseNegatives == 1 && strict.trueNegatives == 0)
        #expect(strict.f1 == 0.5)
        var standard = ZoneActivityCounts()  // 0.5 %: one pixel makes a zone active
        standard.add(detected: found, groundTruth: truth, roi: nil, width: 4, height: 4)
        #expect(standard.truePositives == 3 && standard.falsePositives == 0 && standard.falseNegatives == 0)
        #expect(standard.f1 == 1)
        // An ROI that leaves out zone 0 entirely: only zones 1 and 2 count.
        let roi: [UInt8] = [0, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255]
        var masked = ZoneActivityCounts(activeFraction: 0.3)
        masked.add(detected: found, groundTruth: truth, roi: roi, width: 4, height: 4)
        #expect(masked.truePositives == 0 && masked.falsePositives == 1 && masked.falseNegatives == 1)
    }
}
