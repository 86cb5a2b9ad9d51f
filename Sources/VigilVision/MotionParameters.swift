import VigilCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tunable constants of the motion pipeline (docs/video.md explains each).
/// The defaults are the documented ones; tests and experiments may change them.
public struct MotionParameters: Sendable, Hashable {
    /// Box-filter decimation of the luma plane (1, 2, 4 or 8); `nil` picks the smallest power of
    /// two that brings the width to at most ``targetWorkingWidth``.
    public var decimation: Int?
    /// Width the automatic decimation aims at (at most this many working columns).
    public var targetWorkingWidth: Int = 480
    /// Memory of the background model in seconds: each of a pixel's samples survives this long
    /// on average, so the model's random update visits one pixel in
    /// `timeConstant / (samples · frame interval)` per frame (ViBe's subsampling factor φ:
    /// 12.5 at 25 frames/s with 8 samples; clamped to 1...64).
    public var backgroundTimeConstant: Double = 4
    /// Pixels under motion are updated with this probability relative to still pixels (ViBe's
    /// update is conservative; a small rate lets an object that stops join the background,
    /// after roughly timeConstant / factor seconds).
    public var foregroundRateFactor: Double = 0.1
    /// The match radius of a sensitivity is its threshold, but at least this many times the
    /// picture's noise (the noise floor): the running mean absolute difference between frame and
    /// background on the pixels the gain fit explains, in the quieter coarse cells (about 1.1 σ
    /// for sensor noise σ), so that a high sensitivity does not ask for differences noise alone
    /// produces.
    public var noiseFactor: Float = 3
    /// Noise of a new model, in gray levels.
    public var initialNoise: Float = 2
    /// Upper bound of the noise (so that a scene in constant change cannot blind the detector).
    public var maximumNoise: Float = 12
    /// Time constant of the noise average in seconds.
    public var noiseTimeConstant: Double = 2
    /// Clean-up: a working pixel stays in motion when at least this many of its 3 x 3
    /// neighbourhood (itself included) exceed the threshold, a 3 x 3 majority (median) filter
    /// at 5: removes specks and fills one-pixel holes.
    public var cleanupMinimumNeighbours: Int = 5
    /// A frame whose moving fraction (of unmasked pixels) exceeds this is tested for a shift of
    /// the whole picture (shake), which makes it a whole-frame change.
    public var globalChangeFraction: Double = 0.4
    /// A frame with motion in more than this fraction of the 8 x 8 coarse cells is tested for a
    /// shift of the whole picture (shake) too.
    public var globalChangeCellFraction: Double = 0.65
    /// A cell counts as moving for ``globalChangeCellFraction`` when this fraction of it moves.
    public var cellMotionFraction: Double = 0.02
    /// A fitted global gain outside `1 ± this` is a whole-frame change (exposure jump, IR switch).
    public var globalGainTolerance: Float = 0.25
    /// A fitted global offset beyond this many gray levels is a whole-frame change.
    public var globalOffsetTolerance: Float = 25
    /// After a whole-frame change the model settles this long (seconds): the background model
    /// is filled again from the new picture and no motion is reported.
    public var settleDuration: Double = 0.5
    /// Pixel threshold at the least sensitive level (1) in gray levels: the background model's
    /// match radius (a pixel moves when fewer than 2 of its samples lie within it), but at least
    /// the noise floor.
    public var thresholdAtLowest: Float = 30
    /// Pixel threshold at the most sensitive level.
    public var thresholdAtHighest: Float = 4
    /// Smallest moving area, as a fraction of the frame, at the least sensitive level.
    public var minimumAreaAtLowest: Double = 0.006
    /// Smallest moving area, as a fraction of the frame, at the most sensitive level.
    public var minimumAreaAtHighest: Double = 0.0003

    /// The defaults.
    public init() {}

    /// The pixel threshold (match radius in gray levels, before the noise floor) for `sensitivity`: linear from
    /// ``thresholdAtLowest`` at level 1 to ``thresholdAtHighest`` at the maximum level.
    public func threshold(for sensitivity: Sensitivity) -> Float {
        thresholdAtLowest + (thresholdAtHighest - thresholdAtLowest) * Float(sensitivity.fraction)
    }

    /// The smallest moving area (fraction of the frame) for `sensitivity`: geometric from
    /// ``minimumAreaAtLowest`` at level 1 to ``minimumAreaAtHighest`` at the maximum level.
    public func minimumAreaFraction(for sensitivity: Sensitivity) -> Double {
        let ratio = minimumAreaAtHighest / minimumAreaAtLowest
        return minimumAreaAtLowest * exp(log(ratio) * sensitivity.fraction)
    }

    /// The decimation for a frame `width` pixels wide.
    public func decimation(forWidth width: Int, height: Int) -> Int {
        if let decimation { return [1, 2, 4, 8].contains(decimation) ? decimation : 1 }
        var factor = 1
        while factor < 8 && width / factor > targetWorkingWidth && height / (factor * 2) >= 8 { factor *= 2 }
        return factor
    }
}
