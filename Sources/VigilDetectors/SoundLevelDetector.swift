import VigilCore
import VigilDSP

/// The `sound` trigger: any sound clearly above the room's adaptive noise floor.
///
/// The frame level (RMS, dBFS) is compared with a noise floor that follows quiet passages
/// quickly and rises slowly (so a new steady noise, a fan or a vacuum, becomes the floor within
/// seconds instead of being one endless event). A sound starts when the level exceeds
/// floor + threshold, is confirmed after ``minimumDuration`` above it (or at once by a
/// transient at least ``impulseMarginDB`` above the start level, such as a knock), and ends
/// after ``hangover`` below floor + threshold − ``hysteresis``, so that a burst of knocks or
/// beeps less than the hangover apart is one sound. The threshold follows sensitivity:
/// 30 dB above the floor at sensitivity 1, 8 dB at the maximum (about 20 dB at 5 of 10).
/// The floor never drops below ``floorMinimumDBFS``, so digital silence does not make
/// dither or a faint hum count as sound.
public final class SoundLevelDetector: SpectralDetector {
    /// Always `.sound`.
    public let trigger: EventTriggerType = .sound
    /// dB above the noise floor needed to start a sound.
    public let thresholdDB: Float
    /// Time above the threshold needed to confirm a sound (seconds).
    public let minimumDuration: Double = 0.10
    /// Time below the release level needed to end a sound (seconds).
    public let hangover: Double = 0.80
    /// A frame this many dB above the start level confirms a sound at once (impulsive sounds).
    public let impulseMarginDB: Float = 12
    /// Release level below the start threshold (dB).
    public let hysteresis: Float = 6
    /// Lowest value of the noise floor (dBFS).
    public let floorMinimumDBFS: Float = -85
    /// How fast the floor may rise outside a sound (dB per second).
    public let floorRiseOutside: Float = 2.0
    /// How fast the floor may rise during a sound (dB per second).
    public let floorRiseInside: Float = 0.5
    /// Time constant of the floor's fall towards quieter levels (seconds).
    public let floorFallTimeConstant: Float = 0.15

    private let hop: Float
    private var floor: Float?
    private var onsetTime: Double?
    private var confirmedAt: Double?
    private var startReported = false
    private var lastAboveTime: Double = 0
    private var timeAbove: Double = 0
    private var peak: Float = -120
    private var floorAtOnset: Float = -120
    private var levelSum: Double = 0
    private var levelCount = 0

    /// Creates a detector for the STFT `configuration` at `sensitivity`.
    public init(configuration: STFTConfiguration, sensitivity: Sensitivity) {
        hop = Float(configuration.hopDuration)
        thresholdDB = Float(30 - 22 * sensitivity.fraction)
    }

    /// The current noise floor estimate in dBFS (nil before the first frame).
    public var noiseFloorDBFS: Float? { floor }

    public func process(_ frame: SpectralFrame, into detections: inout [Detection]) {
        let level = frame.levelDBFS
        let time = frame.centerTime
        var f = floor ?? max(level, floorMinimumDBFS)
        let startLevel = f + thresholdDB
        let releaseLevel = startLevel - hysteresis

        if let onset = onsetTime {
            if level > releaseLevel {
                lastAboveTime = time
                timeAbove += Double(hop)
                peak = max(peak, level)
                levelSum += Double(level)
                levelCount += 1
                if confirmedAt == nil && level > startLevel
                    && (timeAbove >= minimumDuration || level >= startLevel + impulseMarginDB)
                {
                    confirmedAt = time
                }
            } else if time - lastAboveTime >= hangover {
                close(onset: onset, into: &detections)
            }
        } else if level > startLevel {
            onsetTime = frame.startTime
            confirmedAt = level >= startLevel + impulseMarginDB ? time : nil
            lastAboveTime = time
            timeAbove = Double(hop)
            peak = level
            floorAtOnset = f
            levelSum = Double(level)
            levelCount = 1
        }

        // Floor tracking: fall quickly towards quiet levels, rise slowly.
        if level < f {
            f += (level - f) * min(1, hop / floorFallTimeConstant)
        } else {
            let rate = onsetTime == nil ? floorRiseOutside : floorRiseInside
            f += min(level - f, rate * hop)
        }
        floor = max(f, floorMinimumDBFS)
    }

    public func finish(at endTime: Double, into detections: inout [Detection]) {
        if let onset = onsetTime { close(onset: onset, into: &detections) }
    }

    /// Reports the open sound once it is confirmed (the frame that confirmed it), with the
    /// level so far; its complete detection follows after the hangover.
    public func reportStarts(into detections: inout [Detection]) {
        guard !startReported, let onset = onsetTime, let confirmed = confirmedAt else { return }
        startReported = true
        detections.append(detection(onset: onset, confirmed: confirmed, phase: .started))
    }

    private func close(onset: Double, into detections: inout [Detection]) {
        defer {
            onsetTime = nil
            confirmedAt = nil
            startReported = false
        }
        guard let confirmed = confirmedAt else { return }
        detections.append(detection(onset: onset, confirmed: confirmed, phase: .complete))
    }

    private func detection(onset: Double, confirmed: Double, phase: Detection.Phase) -> Detection {
        let margin = Double(peak - floorAtOnset - thresholdDB)
        let confidence = min(1, max(0.5, 1 / (1 + exp(-margin / 3))))
        return Detection(
            trigger: .sound, start: onset, end: max(lastAboveTime, confirmed), detectedAt: confirmed,
            confidence: confidence,
            evidence: [
                "peakDBFS": .number(Double(peak)),
                "meanDBFS": .number(levelCount > 0 ? levelSum / Double(levelCount) : Double(peak)),
                "noiseFloorDBFS": .number(Double(floorAtOnset)),
                "thresholdDB": .number(Double(thresholdDB)),
            ], phase: phase)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
