import VigilCore
import VigilDSP

/// Detects a temporal alarm pattern (smoke alarm T3, CO alarm T4) on the shared STFT.
///
/// **Tone lines.** Every frame, the band ``lowestFrequency``...``highestFrequency`` (400-4500 Hz,
/// clipped below Nyquist) is scanned for spectral peaks that stand out from their neighbourhood
/// (bins ±3...±5 around the peak) by the *prominence* threshold. Each new peak opens a *line* that
/// is then followed frame by frame (with slow drift of ±1 bin while a beep sounds). Piezo tones
/// (2.5-4 kHz), every odd harmonic of a 520 Hz square wave and every line of a comb-like unit get
/// their own line; lines that confirm the same pattern at the same time are merged into one event.
/// Measuring prominence against the neighbouring bins of the same frame, not against a level,
/// makes the segmentation indifferent to broadband backgrounds (vacuum, kitchen, street) and to
/// the level of the alarm.
///
/// **Whole-group matching.** For tones too weak to segment beep by beep, an ``AlarmGroupMatcher``
/// matches each bin's power against the whole group's on/off template at once (about 1.2 s of tone
/// against 2 s of silence for T3); its groups are measured beep by beep and judged by the same
/// group rules, and join the same chains.
///
/// **Pooled groups.** When a line's group closes incomplete, the beeps of every line of the same
/// source (neighbouring bins, and for T3 the odd harmonics of a square wave) are
/// pooled, and a group of exactly ``AlarmPattern/pulses`` beeps one period apart is judged like a
/// group of one line.
///
/// **Harmonic-family lines.** When a valid group closes on a line and another line sounded an odd
/// harmonic of the same 380-720 Hz square-wave fundamental during it, a family line follows all odd
/// harmonics of that fundamental as one line (its value: the best prominence among them, saturated
/// 10 dB above the onset threshold), so beeps that a background masks one harmonic after another
/// stay whole. Its groups continue and confirm chains started by plain lines.
///
/// **Beeps.** A line is *on* while its power stays within 6 dB of the beep's peak and its prominence
/// stays above a hysteresis threshold; it turns on again when the power rises 6 dB above the valley
/// since the last beep. The relative thresholds keep beeps apart under reverberation, where tails fill
/// the gaps. Onsets and offsets are refined to a fraction of a frame by interpolating where the
/// line's amplitude crosses half its plateau.
///
/// **Pattern.** Beeps whose onsets are one period apart (±tolerance) form a group; a group is
/// valid only with exactly ``AlarmPattern/pulses`` beeps, each of a plausible duration. Valid groups
/// whose first onsets are one cycle apart (±tolerance) form a chain; the pattern is confirmed when
/// the chain has ``confirmationCycles`` groups. Beeps between groups (a voice combo alarm's speech)
/// that do not form a valid group are ignored.
///
/// **Events.** `start` is the onset of the first beep of the confirmed chain, `detectedAt` the
/// media time at which the last confirming group was known complete, `end` the offset of the last
/// beep of the last group. The detection is appended once the pattern has stopped (no valid group
/// within a cycle) or at ``finish(at:)``. A pattern that stops and restarts gives two events.
public final class AlarmPatternDetector: SpectralDetector {
    /// The trigger of ``pattern``.
    public let trigger: EventTriggerType
    /// The pattern this detector confirms.
    public let pattern: AlarmPattern
    /// Relative timing tolerance (0.10 = ±10 %).
    public let tolerance: Double
    /// Groups, one cycle apart, needed to confirm the pattern.
    public let confirmationCycles: Int
    /// Prominence (dB above the neighbouring bins) needed to start a beep; follows sensitivity:
    /// 14 dB at sensitivity 1, 6 dB at the maximum (about 10.4 dB at 5 of 10).
    public let prominenceThresholdDB: Double
    /// Lowest tone frequency followed (Hz).
    public let lowestFrequency: Double = 400
    /// Highest tone frequency followed (Hz), clipped below Nyquist.
    public let highestFrequency: Double

    // Configuration derived once.
    private let hop: Double
    private let binWidth: Double
    private let lowBin: Int
    private let highBin: Int
    /// Onset and hysteresis prominence (linear) of the lines.
    private let prominenceOn: Float
    private let prominenceOff: Float
    /// Prominence at which a harmonic-family line saturates (10 dB above ``prominenceOn``).
    private let familyCap: Float
    private let dropRatio: Float = 0.1  // 10 dB below the beep's peak ends it
    private let meanDropRatio: Float = 0.2  // so does a fall 7 dB below the beep's mean power
    private let riseRatio: Float = 4  // 6 dB above the valley starts a beep
    private let absoluteFloor: Float = 1e-10  // -100 dB in a bin
    private let strayRatio: Float = 1 / 40  // beeps 16 dB below the pattern's beeps are strays
    private let intervalMin: Double
    private let intervalMax: Double
    private let intervalLooseMin: Double
    private let intervalLooseMax: Double
    private let onMin: Double
    private let onMax: Double
    private let blipMax: Double
    /// A beep starting this soon after the previous member's offset continues it (masking dip).
    private let fragmentGap: Double
    /// Whether the last beep of a group may be longer than `onMax` (weak group; long beeps only).
    private let allowsLongLastBeep: Bool
    private let cycleMin: Double
    private let cycleMax: Double
    private let groupCloseAfter: Double
    private let emitAfter: Double
    private let mergeGap: Double
    /// Whether a shallow dip followed by a rise splits a beep (short-beep patterns under reverberation).
    private let splitsShallowDips: Bool

    /// Line slots.
    private static let capacity = 32
    private static let familyCapacity = 4
    private static let chainCapacity = 8
    // Raw storage: no copy-on-write or exclusivity checks in the per-frame path.
    private let tracks: UnsafeMutablePointer<AlarmToneTrack>
    /// The band of the previous frame (for onset refinement of new lines).
    private let previousBand: UnsafeMutablePointer<Float>
    private let binCount: Int
    /// Media time of the newest frame (or of `finish(at:)`): confirmations are reported at it.
    private var frameTime = 0.0
    /// Bit i set when `tracks[i]` is active.
    private var activeMask: UInt64 = 0
    /// Harmonic-family lines: each follows the odd harmonics of one square-wave fundamental as a
    /// single line (see ``spawnFamilies(for:count:frequency:time:)``); bit i of `familyMask` set when in use.
    private let families: UnsafeMutablePointer<AlarmToneTrack>
    private var familyMask: UInt32 = 0
    private var chains: [AlarmChain] = []
    /// Recent beep-length segments of all plain lines (see ``assemblePooledGroup(frequency:around:time:)``).
    private var pooledBeeps: [AlarmPooledBeep] = []
    private var scratchBeeps: [AlarmPooledBeep] = []
    private static let poolCapacity = 128
    /// Whether groups are also assembled from pooled beeps (always; `false` only to measure).
    private let pools: Bool
    /// Pooled beeps join a tone within this fraction + 1 bin: 3 % for long beeps (T3), 1 bin for
    /// short ones (T4), whose 0.1 s blips in kitchen noise pooled from lines 3 % apart gave false
    /// CO alarms on the dev negatives.
    private let poolTolerance: Double
    /// Whether pooled beeps may also be other odd harmonics of a square wave's fundamental, and
    /// pooled groups weak (some beeps shortened): long beeps only; for T4 either reported a T3
    /// scene as a CO alarm, so a pooled T4 group must be strong.
    private let poolsHarmonics: Bool
    private let sameGroupWindow: Double
    /// Whole-group matching for tones too weak to segment beep by beep (see ``AlarmGroupMatcher``).
    private let matcher: AlarmGroupMatcher?
    private var matches: [AlarmGroupMatcher.Match] = []
    /// Diagnostics (`vigil-dev alarm-trace`): called for every beep (onset, offset, Hz,
    /// prominence). Nil in normal use.
    package var diagnosticBeep: ((Double, Double, Double, Float) -> Void)?
    /// Diagnostics: called for every closed group (first onset, beep count, valid). Nil in normal use.
    package var diagnosticGroup: ((Double, Int, Bool) -> Void)?

    /// Creates a detector for `pattern` on frames of `configuration`.
    /// - Parameters:
    ///   - tolerance: relative timing tolerance of on durations, periods and cycles.
    ///   - confirmationCycles: groups (cycles) needed before the alarm is confirmed, at least 1.
    ///   - sensitivity: maps to ``prominenceThresholdDB``.
    public init(
        pattern: AlarmPattern, configuration: STFTConfiguration, tolerance: Double = 0.10,
        confirmationCycles: Int = 2, sensitivity: Sensitivity = .medium
    ) {
        self.pattern = pattern
        trigger = pattern.trigger
        self.tolerance = max(0, min(tolerance, 0.4))
        self.confirmationCycles = max(1, confirmationCycles)
        prominenceThresholdDB = 14 - 8 * sensitivity.fraction
        hop = configuration.hopDuration
        binWidth = configuration.binWidth
        let nyquist = configuration.sampleRate / 2
        highestFrequency = min(4500, nyquist)
        lowBin = max(6, configuration.bin(forFrequency: lowestFrequency))
        highBin = max(lowBin, min(configuration.bin(forFrequency: highestFrequency), configuration.binCount - 7))
        prominenceOn = Float(pow(10, prominenceThresholdDB / 10))
        prominenceOff = max(2, prominenceOn / 4)
        familyCap = prominenceOn * 10

        let tol = self.tolerance
        let resolution = hop
        let period = pattern.period
        intervalMin = period * (1 - tol) - resolution
        intervalMax = period * (1 + tol) + resolution
        // Single intervals may deviate twice as much (onsets measured in noise); their mean may not.
        intervalLooseMin = period * (1 - 2 * tol) - resolution
        intervalLooseMax = period * (1 + 2 * tol) + resolution
        onMin = pattern.onDuration * (1 - tol) - 2 * resolution
        // Reverberation lengthens measured beeps; never beyond the shortest period.
        onMax = min(pattern.onDuration * (1 + tol) + max(0.05, 0.25 * pattern.onDuration) + resolution, intervalMin)
        blipMax = 0.5 * pattern.onDuration
        fragmentGap = 0.3 * pattern.offDuration
        allowsLongLastBeep = pattern.onDuration >= 0.3
        pools = true
        poolTolerance = pattern.onDuration >= 0.3 ? 0.03 : 0
        poolsHarmonics = pattern.onDuration >= 0.3
        cycleMin = pattern.cycle * (1 - tol) - resolution
        cycleMax = pattern.cycle * (1 + tol) + resolution
        groupCloseAfter = intervalLooseMax + resolution
        // Dips shorter than this inside a beep (real piezo units flutter) do not split it.
        mergeGap = max(1.5 * resolution, 0.2 * pattern.offDuration)
        splitsShallowDips = pattern.offDuration < 0.3
        sameGroupWindow = min(0.1, 0.4 * pattern.period)
        emitAfter = 2 * cycleMax + Double(pattern.pulses - 1) * intervalLooseMax + groupCloseAfter + 2 * resolution

        tracks = .allocate(capacity: Self.capacity)
        tracks.initialize(repeating: AlarmToneTrack(), count: Self.capacity)
        families = .allocate(capacity: Self.familyCapacity)
        families.initialize(repeating: AlarmToneTrack(), count: Self.familyCapacity)
        binCount = configuration.binCount
        previousBand = .allocate(capacity: configuration.binCount)
        previousBand.initialize(repeating: 0, count: configuration.binCount)
        // The matcher's thresholds follow the sensitivity like the lines' prominence (half as steeply).
        matcher = AlarmGroupMatcher(
            pattern: pattern, configuration: configuration, lowBin: lowBin, highBin: highBin,
            tolerance: self.tolerance, thresholdShiftDB: 0.5 * (prominenceThresholdDB - 10.4))
        matches.reserveCapacity(8)
        chains.reserveCapacity(Self.chainCapacity)
        pooledBeeps.reserveCapacity(Self.poolCapacity)
        scratchBeeps.reserveCapacity(Self.poolCapacity)
    }

    deinit {
        tracks.deinitialize(count: Self.capacity)
        tracks.deallocate()
        families.deinitialize(count: Self.familyCapacity)
        families.deallocate()
        previousBand.deallocate()
    }

    /// A smoke alarm (T3) detector with the tolerance, confirmation cycles and sensitivity of `settings`.
    public static func smokeAlarm(configuration: STFTConfiguration, settings: DetectorSettings) -> AlarmPatternDetector {
        AlarmPatternDetector(
            pattern: .temporalThree, configuration: configuration, tolerance: settings.alarmTimingTolerance,
            confirmationCycles: settings.alarmConfirmationCycles, sensitivity: settings.sensitivity(for: .smokeAlarm))
    }

    /// A CO alarm (T4) detector with the tolerance, confirmation cycles and sensitivity of `settings`.
    public static func coAlarm(configuration: STFTConfiguration, settings: DetectorSettings) -> AlarmPatternDetector {
        AlarmPatternDetector(
            pattern: .temporalFour, configuration: configuration, tolerance: settings.alarmTimingTolerance,
            confirmationCycles: settings.alarmConfirmationCycles, sensitivity: settings.sensitivity(for: .coAlarm))
    }

    public func process(_ frame: SpectralFrame, into detections: inout [Detection]) {
        guard frame.power.count == binCount, let rawBase = frame.power.baseAddress else { return }
        frameTime = frame.centerTime
        let raw = UnsafeBufferPointer(start: rawBase, count: binCount)
        let t = frame.centerTime

        // 1. Follow the open lines.
        var pending = activeMask
        while pending != 0 {
            let i = pending.trailingZeroBitCount
            pending &= pending - 1
            update(&tracks[i], power: raw, time: t, on: prominenceOn, off: prominenceOff, detections: &detections)
            if !tracks[i].active { activeMask &= ~(1 << UInt64(i)) }
        }
        var pendingFamilies = familyMask
        while pendingFamilies != 0 {
            let i = pendingFamilies.trailingZeroBitCount
            pendingFamilies &= pendingFamilies - 1
            update(&families[i], power: raw, time: t, on: prominenceOn, off: prominenceOff, detections: &detections)
            if !families[i].active { familyMask &= ~(1 << UInt32(i)) }
        }

        // Two lines that converged on one tone: keep the one with more pattern.
        if activeMask.nonzeroBitCount > 1 {
            var outer = activeMask
            while outer != 0 {
                let i = outer.trailingZeroBitCount
                outer &= outer - 1
                guard activeMask & (1 << UInt64(i)) != 0 else { continue }
                var inner = outer & activeMask
                while inner != 0 {
                    let j = inner.trailingZeroBitCount
                    inner &= inner - 1
                    guard abs(tracks[i].bin - tracks[j].bin) <= 1 else { continue }
                    // More beeps collected wins; then the louder line.
                    let si = tracks[i].groupCount
                    let sj = tracks[j].groupCount
                    let loser = si != sj ? (si > sj ? j : i) : (tracks[i].previousPower >= tracks[j].previousPower ? j : i)
                    tracks[loser].active = false
                    activeMask &= ~(1 << UInt64(loser))
                    if loser == i { break }
                }
            }
        }

        // 2. Open lines for new prominent peaks; 3. remember the band for onset refinement of new lines.
        scan(rawBase, time: t)
        (previousBand + lowBin - 1).update(from: rawBase + lowBin - 1, count: highBin - lowBin + 3)

        // 4. Whole groups matched in single bins.
        if let matcher {
            matcher.process(rawBase, time: t, into: &matches)
            if !matches.isEmpty { reportMatches() }
        }

        // 5. Emit the events whose pattern has stopped.
        if !chains.isEmpty { expireChains(at: t, into: &detections) }
    }

    public func finish(at endTime: Double, into detections: inout [Detection]) {
        frameTime = max(frameTime, endTime)
        for i in 0..<Self.capacity where activeMask & (1 << UInt64(i)) != 0 {
            if tracks[i].isOn || tracks[i].pending {
                let offset = tracks[i].isOn ? endTime : tracks[i].pendingOffset
                tracks[i].isOn = false
                tracks[i].pending = false
                endBeep(&tracks[i], onset: tracks[i].onset, offset: offset, time: endTime, detections: &detections)
            }
            if tracks[i].groupCount > 0 { closeGroup(&tracks[i], time: endTime, detections: &detections) }
            tracks[i] = AlarmToneTrack()
        }
        activeMask = 0
        for i in 0..<Self.familyCapacity where familyMask & (1 << UInt32(i)) != 0 {
            if families[i].isOn || families[i].pending {
                let offset = families[i].isOn ? endTime : families[i].pendingOffset
                families[i].isOn = false
                families[i].pending = false
                endBeep(&families[i], onset: families[i].onset, offset: offset, time: endTime, detections: &detections)
            }
            if families[i].groupCount > 0 { closeGroup(&families[i], time: endTime, detections: &detections) }
            families[i] = AlarmToneTrack()
        }
        familyMask = 0
        if let matcher {
            matcher.finish(into: &matches)
            if !matches.isEmpty { reportMatches() }
        }
        for i in chains.indices { chains[i].finished = true }
        emitFinishedChains(into: &detections)
        chains.removeAll(keepingCapacity: true)
        pooledBeeps.removeAll(keepingCapacity: true)
    }

    // MARK: - Lines

    /// Opens a line for each local peak of `base` in the band whose power exceeds the prominence
    /// threshold times the mean of its neighbouring bins and that no line follows (8 bins at a time).
    private func scan(_ base: UnsafePointer<Float>, time t: Double) {
        let onRatio = prominenceOn
        let floorValue = absoluteFloor
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Float>.stride
        @inline(__always) func load(_ k: Int) -> SIMD8<Float> {
            raw.loadUnaligned(fromByteOffset: k * stride, as: SIMD8<Float>.self)
        }
        let floorVector = SIMD8<Float>(repeating: floorValue)
        let ratioVector = SIMD8<Float>(repeating: onRatio / 6)
        var k = lowBin
        while k + 8 <= highBin + 1 {
            let v = load(k)
            var neighbours: SIMD8<Float> = load(k - 5) + load(k - 4)
            neighbours += load(k - 3) + load(k + 3)
            neighbours += load(k + 4) + load(k + 5)
            let left: SIMD8<Float> = load(k - 1)
            let right: SIMD8<Float> = load(k + 1)
            let threshold: SIMD8<Float> = neighbours * ratioVector
            var mask: SIMDMask<SIMD8<Int32>> = v .> floorVector
            mask = mask .& (v .>= left)
            mask = mask .& (v .> right)
            mask = mask .& (v .> threshold)
            if any(mask) {
                for lane in 0..<8 where mask[lane] && !isFollowed(bin: k + lane) {
                    openTrack(bin: k + lane, power: base, time: t)
                }
            }
            k += 8
        }
        while k <= highBin {
            let v = base[k]
            if v > floorValue && v >= base[k - 1] && v > base[k + 1] {
                let neighbours = (base[k - 5] + base[k - 4] + base[k - 3] + base[k + 3] + base[k + 4] + base[k + 5])
                if v * 6 > onRatio * neighbours && !isFollowed(bin: k) {
                    openTrack(bin: k, power: base, time: t)
                }
            }
            k += 1
        }
    }

    private func isFollowed(bin: Int) -> Bool {
        var pending = activeMask
        while pending != 0 {
            let i = pending.trailingZeroBitCount
            pending &= pending - 1
            if abs(tracks[i].bin - bin) <= 1 { return true }
        }
        return false
    }

    private func openTrack(bin: Int, power: UnsafePointer<Float>, time: Double) {
        var slot = -1
        let free = ~activeMask & (1 << UInt64(Self.capacity) - 1)
        if free != 0 {
            slot = free.trailingZeroBitCount
        }
        if slot < 0 {
            // Replace the weakest line that collects no group (a quiet one first), if weaker than this peak.
            var weakest = power[bin]
            for i in 0..<Self.capacity where tracks[i].groupCount == 0 && !tracks[i].pending {
                let strength: Float = tracks[i].isOn ? tracks[i].peakPower : 0
                if strength < weakest {
                    weakest = strength
                    slot = i
                }
            }
            if slot < 0 { return }
        }
        tracks[slot].reset(bin: bin)
        activeMask |= 1 << UInt64(slot)
        diagnosticGroup?(time, 1000 + bin, false)
        let e = power[bin]
        let previous = previousBand[bin]
        tracks[slot].valleyPower = previous
        startBeep(&tracks[slot], power: power, bin: bin, e: e, previous: previous, time: time)
        tracks[slot].previousPower = e
    }

    @inline(__always)
    private func neighbourMean(_ p: UnsafePointer<Float>, _ m: Int) -> Float {
        (p[m - 5] + p[m - 4] + p[m - 3] + p[m + 3] + p[m + 4] + p[m + 5]) * (1 / 6)
    }

    private func update(
        _ tr: inout AlarmToneTrack, power: UnsafeBufferPointer<Float>, time t: Double, on prominenceOn: Float,
        off prominenceOff: Float, detections: inout [Detection]
    ) {
        let p = power.baseAddress!
        let c = tr.bin
        var m = c
        var e: Float
        let neighbours: Float
        if tr.harmonicCount > 0 {
            // A harmonic-family line: its value is the best prominence among the harmonics, so a
            // beep stays whole while the background masks one harmonic after another.
            e = harmonicProminence(tr, p)
            neighbours = 1
        } else {
            e = p[c]
            if p[c - 1] > e { m = c - 1; e = p[c - 1] }
            if p[c + 1] > e { m = c + 1; e = p[c + 1] }
            neighbours = neighbourMean(p, m)
        }

        if tr.isOn {
            if tr.onsetPending {
                let a = e.squareRoot()
                let plateau = max(tr.onsetAmplitude, a)
                let half = 0.5 * plateau
                if tr.onsetAmplitude >= half {
                    let d = tr.onsetAmplitude - tr.onsetAmplitudeBefore
                    let f = d > 0 ? min(max((half - tr.onsetAmplitudeBefore) / d, 0), 1) : 1
                    tr.onset = tr.onsetFrameTime - hop + Double(f) * hop
                } else {
                    let d = a - tr.onsetAmplitude
                    let f = d > 0 ? min(max((half - tr.onsetAmplitude) / d, 0), 1) : 0
                    tr.onset = tr.onsetFrameTime + Double(f) * hop
                }
                tr.onsetPending = false
            }
            let mean = tr.beepPowerSum / max(tr.beepFrames, 1)
            if tr.beepFrames >= 2 && e > mean * 10 && e > prominenceOn * neighbours {
                // A beep rising out of a weak tone in the same line: a new onset.
                if Double(tr.beepFrames) * hop >= blipMax {
                    tr.isOn = false
                    endBeep(&tr, onset: tr.onset, offset: t - hop, time: t, detections: &detections)
                }
                startBeep(&tr, power: p, bin: m, e: e, previous: tr.previousPower, time: t)
                tr.previousPower = e
                return
            }
            if splitsShallowDips && tr.beepFrames >= 3 && tr.dipPower < tr.peakPower * 0.4 && e > tr.dipPower * 3.2
                && e > tr.peakPower * 0.3
                && e > prominenceOn * neighbours
            {
                // Reverberation filled the gap between two short beeps: a dip of 4 dB and a rise of 5 dB.
                tr.isOn = false
                endBeep(&tr, onset: tr.onset, offset: max(tr.onset, tr.dipTime - 0.5 * hop), time: t, detections: &detections)
                startBeep(&tr, power: p, bin: m, e: e, previous: tr.previousPower, time: t)
                tr.previousPower = e
                return
            }
            if e < tr.dipPower {
                tr.dipPower = e
                tr.dipTime = t
            }
            if e > tr.peakPower {
                tr.peakPower = e
                tr.dipPower = e
                if tr.harmonicCount == 0 {
                    if m >= lowBin && m <= highBin && abs(m - tr.anchorBin) <= 1
                        && (tr.referencePower == 0 || e > tr.referencePower * strayRatio)
                    {
                        tr.bin = m
                    }
                    tr.beepFrequency = interpolatedFrequency(p, tr.bin)
                }
                tr.beepProminence = max(tr.beepProminence, e / max(neighbours, 1e-30))
            }
            tr.beepPowerSum += e
            tr.beepFrames += 1
            if !(e > tr.peakPower * dropRatio && e > mean * meanDropRatio && e > prominenceOff * neighbours) {
                // Offset: where the amplitude crossed half the peak amplitude.
                let aPrev = tr.previousPower.squareRoot()
                let a = e.squareRoot()
                let half = 0.5 * mean.squareRoot()
                var offset = t - hop
                if aPrev > half && aPrev > a {
                    offset += Double(min(max((aPrev - half) / (aPrev - a), 0), 1)) * hop
                }
                tr.isOn = false
                tr.valleyPower = e
                tr.pending = true
                tr.pendingOffset = max(offset, tr.onset)
            }
        } else {
            if e < tr.valleyPower { tr.valleyPower = e }
            if e > absoluteFloor && e > prominenceOn * neighbours && e > tr.valleyPower * riseRatio {
                if tr.pending && t - tr.pendingOffset <= mergeGap + hop && e > tr.peakPower * dropRatio
                    && e < tr.peakPower * 10 && tr.pendingOffset - tr.onset >= 0.3 * pattern.onDuration
                {
                    tr.isOn = true  // a dip inside the beep: resume it
                    tr.pending = false
                } else {
                    if tr.pending {
                        tr.pending = false
                        endBeep(&tr, onset: tr.onset, offset: tr.pendingOffset, time: t, detections: &detections)
                    }
                    startBeep(&tr, power: p, bin: m, e: e, previous: tr.previousPower, time: t)
                }
            } else if tr.pending && t - tr.pendingOffset > mergeGap + hop {
                tr.pending = false
                endBeep(&tr, onset: tr.onset, offset: tr.pendingOffset, time: t, detections: &detections)
            }
        }
        tr.previousPower = e

        // Time-outs: group complete, chain broken, line unused.
        if tr.groupCount > 0 {
            let last = tr.groupOnsets[tr.groupCount - 1]
            let joining = (tr.isOn || tr.pending) && tr.onset - last <= intervalLooseMax
            if !joining && t - last > groupCloseAfter { closeGroup(&tr, time: t, detections: &detections) }
        }
        if tr.isIdle && (tr.harmonicCount == 0 || t > tr.keepUntil) {
            tr.active = false
            diagnosticGroup?(t, -tr.bin, false)
        }
    }

    private func startBeep(
        _ tr: inout AlarmToneTrack, power p: UnsafePointer<Float>, bin m: Int, e: Float, previous: Float, time t: Double
    ) {
        tr.isOn = true
        tr.onsetPending = true
        tr.onsetAmplitudeBefore = previous.squareRoot()
        tr.onsetAmplitude = e.squareRoot()
        tr.onsetFrameTime = t
        tr.onset = t - 0.5 * hop
        tr.peakPower = e
        tr.dipPower = e
        tr.dipTime = t
        tr.beepPowerSum = e
        tr.beepFrames = 1
        tr.anchorBin = tr.bin
        if tr.harmonicCount > 0 {
            tr.beepFrequency = tr.fundamental
            tr.beepProminence = e
            tr.keepUntil = t + emitAfter
            return
        }
        if m >= lowBin && m <= highBin && (tr.referencePower == 0 || e > tr.referencePower * strayRatio) { tr.bin = m }
        tr.beepFrequency = interpolatedFrequency(p, tr.bin)
        tr.beepProminence = e / max(neighbourMean(p, tr.bin), 1e-30)
    }

    // MARK: - Harmonic-family lines

    /// Best prominence (linear, power over the mean of the neighbouring bins) among the odd
    /// harmonics of a harmonic-family line, each taken at its bin ±1.
    @inline(__always)
    private func harmonicProminence(_ tr: AlarmToneTrack, _ p: UnsafePointer<Float>) -> Float {
        var best: Float = 0
        for j in 0..<tr.harmonicCount {
            let b = Int(tr.harmonicBins[j])
            let e = max(p[b], max(p[b - 1], p[b + 1]))
            if e > absoluteFloor { best = max(best, e / max(neighbourMean(p, b), 1e-30)) }
        }
        return min(best, familyCap)
    }

    /// Opens a harmonic-family line for each square-wave fundamental (380-720 Hz) of which the line
    /// at `frequency`, which showed the valid `count`-beep group of `group`, and another line whose
    /// latest segment (at least half a beep) overlapped one of its beeps are both odd harmonics (1st-11th), so the next groups are found
    /// even when the background masks each harmonic for part of every beep. A lone tone (a piezo)
    /// opens none.
    private func spawnFamilies(for group: AlarmToneTrack, count: Int, frequency: Double, time t: Double) {
        var k = 1.0
        while k <= 11 {
            let f0 = frequency / k
            k += 2
            guard f0 >= 380 && f0 <= 720 else { continue }
            // Every slot: a partner line may have gone idle just before this group closed.
            var partnered = false
            for j in 0..<Self.capacity where !partnered {
                // The partner's latest segment must be at least half a beep long and overlap one of
                // the group's beeps (random lines in room noise are short and unrelated).
                let g = tracks[j].segmentFrequency
                let a = tracks[j].segmentOnset
                let b = tracks[j].segmentOffset
                guard b - a >= blipMax, abs(g - frequency) > 0.03 * frequency + binWidth else { continue }
                var overlaps = false
                for i in 0..<count where a < group.groupOffsets[i] && b > group.groupOnsets[i] { overlaps = true }
                guard overlaps else { continue }
                let h = (g / f0).rounded()
                partnered = h >= 1 && h <= 11 && Int(h) % 2 == 1 && abs(g - h * f0) <= 0.005 * g + 0.5 * binWidth
            }
            guard partnered else { continue }
            var known = false
            var free = -1
            var oldest = -1
            for i in 0..<Self.familyCapacity {
                if familyMask & (1 << UInt32(i)) == 0 {
                    if free < 0 { free = i }
                } else if abs(families[i].fundamental - f0) <= 0.005 * f0 + 0.5 * binWidth / 3 {
                    families[i].keepUntil = max(families[i].keepUntil, t + emitAfter)
                    known = true
                } else if families[i].isIdle && (oldest < 0 || families[i].keepUntil < families[oldest].keepUntil) {
                    oldest = i
                }
            }
            if known { continue }
            let slot = free >= 0 ? free : oldest
            guard slot >= 0 else { return }
            var line = AlarmToneTrack()
            line.active = true
            line.fundamental = f0
            var h = 1.0
            while line.harmonicCount < 8 && h * f0 <= highestFrequency {
                let b = Int((h * f0 / binWidth).rounded())
                if b >= lowBin && b <= highBin {
                    line.harmonicBins[line.harmonicCount] = Int32(b)
                    line.harmonicCount += 1
                }
                h += 2
            }
            guard line.harmonicCount >= 2 else { continue }
            line.bin = Int(line.harmonicBins[0])
            line.keepUntil = t + emitAfter
            line.valleyPower = .greatestFiniteMagnitude
            families[slot] = line
            familyMask |= 1 << UInt32(slot)
        }
    }

    /// Peak frequency by parabolic interpolation of the log power around `k`.
    private func interpolatedFrequency(_ p: UnsafePointer<Float>, _ k: Int) -> Double {
        let a = Double(max(p[k - 1], 1e-30))
        let b = Double(max(p[k], 1e-30))
        let c = Double(max(p[k + 1], 1e-30))
        let la = log(a)
        let lb = log(b)
        let lc = log(c)
        let denominator = la - 2 * lb + lc
        var delta = denominator < 0 ? 0.5 * (la - lc) / denominator : 0
        delta = min(max(delta, -0.5), 0.5)
        return (Double(k) + delta) * binWidth
    }

    // MARK: - Pattern

    private func endBeep(
        _ tr: inout AlarmToneTrack, onset: Double, offset: Double, time t: Double, detections: inout [Detection]
    ) {
        let duration = offset - onset
        diagnosticBeep?(onset, offset, tr.beepFrequency, tr.beepProminence)
        tr.segmentOnset = onset
        tr.segmentOffset = offset
        tr.segmentFrequency = tr.beepFrequency
        if tr.referencePower > 0 && tr.peakPower < tr.referencePower * strayRatio {
            tr.bin = tr.anchorBin  // a stray: keep the line where the pattern is
            return
        }
        if duration < blipMax { return }
        // Far longer than a beep: another sound on this line (a music note), not a member.
        if duration > 2 * onMax { return }
        if onset - tr.lastBeepOffset < 0.035 && tr.peakPower < tr.lastBeepPeak * 0.1 {
            return  // a reverberant tail right after a beep (the direct sound's end left a notch)
        }
        tr.lastBeepOffset = offset
        tr.lastBeepPeak = tr.peakPower
        if pools && tr.harmonicCount == 0 {
            pool(onset: onset, offset: offset, frequency: tr.beepFrequency, prominence: tr.beepProminence)
        }
        // Beeps shorter than `onMin` (but at least half a beep) are members too: a loud background
        // can mask the start or the end of a beep. So is a last beep longer than `onMax` (a sound
        // starting as it ends runs on in its line). Groups with such beeps are weak, and a long
        // beep anywhere but last invalidates its group (see closeGroup).
        let valid = duration <= onMax
        if tr.groupCount > 0 && tr.peakPower * strayRatio > tr.groupPeakPower {
            tr.groupCount = 0  // the group so far was stray tone under this much stronger beep
            tr.groupInvalid = false
        }
        if valid { tr.referencePower = max(tr.referencePower, tr.peakPower) }
        if tr.groupCount > 0 {
            let last = tr.groupCount - 1
            let interval = onset - tr.groupOnsets[last]
            if interval < intervalLooseMin && onset - tr.groupOffsets[last] <= fragmentGap
                && offset - tr.groupOnsets[last] <= onMax
            {
                // The rest of the previous beep after a short masking dip: one beep, not two.
                tr.groupOffsets[last] = offset
                return
            }
            if interval <= intervalLooseMax {
                if interval < intervalLooseMin { tr.groupInvalid = true }
                if tr.groupCount < 8 {
                    tr.groupOnsets[tr.groupCount] = onset
                    tr.groupOffsets[tr.groupCount] = offset
                    tr.groupCount += 1
                    tr.groupFrequencySum += tr.beepFrequency
                    tr.groupPeakPower = max(tr.groupPeakPower, tr.peakPower)
                    tr.groupProminence = max(tr.groupProminence, tr.beepProminence)
                } else {
                    tr.groupInvalid = true
                }
                return
            }
            closeGroup(&tr, time: t, detections: &detections)
        }
        tr.groupCount = 1
        tr.groupOnsets[0] = onset
        tr.groupOffsets[0] = offset
        tr.groupInvalid = false
        tr.groupFrequencySum = tr.beepFrequency
        tr.groupPeakPower = tr.peakPower
        tr.groupProminence = tr.beepProminence
    }

    /// Whether the `count` beeps of `group` form a valid group of the pattern, and whether it is
    /// strong (every beep of plausible duration).
    private func validity(of group: AlarmToneTrack, count: Int) -> (valid: Bool, strong: Bool) {
        guard !group.groupInvalid && count == pattern.pulses else { return (false, false) }
        let meanPeriod = (group.groupOnsets[count - 1] - group.groupOnsets[0]) / Double(count - 1)
        var valid = meanPeriod >= intervalMin && meanPeriod <= intervalMax
        var shortBeeps = 0
        for i in 0..<count {
            let d = group.groupOffsets[i] - group.groupOnsets[i]
            if d < onMin {
                shortBeeps += 1
            } else if d > onMax {
                // Long: only the last beep of a long-beep pattern (T3) may run on into a
                // following sound; short beeps (T4) already get a generous reverberation margin.
                if i < count - 1 || !allowsLongLastBeep { valid = false }
                shortBeeps += 1
            }
        }
        // At least one beep of full length: a group of short beeps is another rhythm.
        if shortBeeps == count { valid = false }
        return (valid, valid && shortBeeps == 0)
    }

    private func closeGroup(_ tr: inout AlarmToneTrack, time t: Double, detections: inout [Detection]) {
        let count = tr.groupCount
        let (valid, strong) = validity(of: tr, count: count)
        tr.groupCount = 0
        tr.groupInvalid = false
        tr.referencePower = 0
        diagnosticGroup?(tr.groupOnsets[0], count, valid)
        if pools && !valid && count >= 2 && tr.harmonicCount == 0 {
            // Part of a group: the other beeps may have sounded on lines of the same source.
            assemblePooledGroup(frequency: tr.groupFrequencySum / Double(count), around: tr.groupOnsets[0], time: t)
        }
        guard valid else { return }  // stray beeps between groups do not break a chain
        report(tr, count: count, strong: strong, time: t)
    }

    /// Judges the groups of ``matches`` by the group rules and joins the valid ones to chains.
    private func reportMatches() {
        for m in matches {
            var group = AlarmToneTrack()
            group.groupOnsets = m.onsets
            group.groupOffsets = m.offsets
            group.groupFrequencySum = m.frequency * Double(m.count)
            group.groupProminence = m.prominence
            let (valid, strong) = validity(of: group, count: m.count)
            diagnosticGroup?(m.onsets[0], 200 + m.count, valid)
            if valid { report(group, count: m.count, strong: strong, time: frameTime, pooled: true) }
        }
        matches.removeAll(keepingCapacity: true)
    }

    // MARK: - Pooled groups

    /// Records a beep-length segment of a plain line in the pool of recent beeps.
    private func pool(onset: Double, offset: Double, frequency: Double, prominence: Float) {
        if pooledBeeps.count >= Self.poolCapacity { pooledBeeps.removeFirst(Self.poolCapacity / 4) }
        pooledBeeps.append(AlarmPooledBeep(onset: onset, offset: offset, frequency: frequency, prominence: prominence))
    }

    /// Assembles a group from the pooled beeps of every line of the source of a line whose own
    /// group was incomplete (`frequency`, first beep at `g0`): its tone's lines (within 3 % + 1 bin,
    /// beeps split between neighbouring bins) and the other odd
    /// harmonics of a 380-720 Hz square-wave fundamental. Overlapping beeps of different lines are
    /// one beep (the most complete plausible one is kept); a run of exactly ``AlarmPattern/pulses``
    /// beeps one period apart, with no beep one period before or after it, is judged and reported
    /// like a group of one line.
    private func assemblePooledGroup(frequency: Double, around g0: Double, time t: Double) {
        let span = Double(pattern.pulses + 1) * intervalLooseMax
        scratchBeeps.removeAll(keepingCapacity: true)
        for b in pooledBeeps where b.onset >= g0 - span && b.onset <= g0 + span {
            guard
                abs(b.frequency - frequency) <= poolTolerance * frequency + binWidth
                    || (poolsHarmonics && oddHarmonics(b.frequency, frequency))
            else { continue }
            scratchBeeps.append(b)
        }
        guard scratchBeeps.count >= pattern.pulses else { return }
        scratchBeeps.sort { $0.onset < $1.onset }
        // Merge overlapping beeps: keep the longest that is still a plausible beep.
        var merged = 0
        for i in scratchBeeps.indices {
            let b = scratchBeeps[i]
            if merged > 0 && b.onset < scratchBeeps[merged - 1].offset {
                let a = scratchBeeps[merged - 1]
                let da = a.offset - a.onset
                let db = b.offset - b.onset
                let better = (db <= onMax && (da > onMax || db > da)) || (da > onMax && db < da)
                if better { scratchBeeps[merged - 1] = b }
                scratchBeeps[merged - 1].prominence = max(a.prominence, b.prominence)
                continue
            }
            scratchBeeps[merged] = b
            merged += 1
        }
        guard merged >= pattern.pulses else { return }
        var group = AlarmToneTrack()
        var start = 0
        while start + pattern.pulses <= merged {
            // A run starts where no beep sounded one period before.
            if start > 0 && scratchBeeps[start].onset - scratchBeeps[start - 1].onset <= intervalLooseMax {
                start += 1
                continue
            }
            var end = start + 1
            var invalid = false
            while end < merged {
                let interval = scratchBeeps[end].onset - scratchBeeps[end - 1].onset
                if interval > intervalLooseMax { break }
                if interval < intervalLooseMin { invalid = true }
                end += 1
            }
            let count = end - start
            if count == pattern.pulses && !invalid {
                group.groupInvalid = false
                group.groupFrequencySum = 0
                group.groupProminence = 0
                for i in 0..<count {
                    let b = scratchBeeps[start + i]
                    group.groupOnsets[i] = b.onset
                    group.groupOffsets[i] = b.offset
                    group.groupFrequencySum += b.frequency
                    group.groupProminence = max(group.groupProminence, b.prominence)
                }
                let (valid, strong) = validity(of: group, count: count)
                diagnosticGroup?(group.groupOnsets[0], 100 + count, valid)
                if valid && (strong || poolsHarmonics) { report(group, count: count, strong: strong, time: t, pooled: true) }
            }
            start = end
        }
    }

    /// A valid group closed on line `tr` at media time `t`: join it to a chain.
    /// A *weak* group (`strong == false`, some beeps shortened by masking) can extend a chain but
    /// neither starts a confirmation on its own nor ends other chains: a chain is confirmed only
    /// when it holds at least one strong group.
    private func report(_ tr: AlarmToneTrack, count: Int, strong: Bool, time measured: Double, pooled: Bool = false) {
        let t = min(measured, frameTime)
        let first = tr.groupOnsets[0]
        let last = tr.groupOffsets[count - 1]
        let frequency = tr.groupFrequencySum / Double(count)
        let prominence = tr.groupProminence
        // A harmonic-family line extends and confirms chains but adds no line to the evidence and
        // ends no other chain (it combines many bins).
        let isFamily = tr.harmonicCount > 0
        if !isFamily { spawnFamilies(for: tr, count: count, frequency: frequency, time: t) }

        // The same group seen on another line of the same source.
        for i in chains.indices where !chains[i].finished && abs(chains[i].lastGroupOnset - first) < sameGroupWindow {
            chains[i].end = max(chains[i].end, last)
            if !isFamily { addLine(frequency, prominence: prominence, to: &chains[i]) }
            if strong && !chains[i].lastGroupStrong {
                chains[i].lastGroupStrong = true
                chains[i].strongGroups += 1
                if chains[i].confirmedAt == nil && chains[i].count >= confirmationCycles { chains[i].confirmedAt = t }
            }
            return
        }
        // The next group of a chain (one cycle later, or two when one group was masked).
        var best = -1
        for i in chains.indices where !chains[i].finished && isCompatible(frequency, chains[i]) {
            let d = first - chains[i].lastGroupOnset
            // Skipping a masked group needs strong groups on both sides: weak evidence and a
            // missing group together are too little.
            let fits =
                (d >= cycleMin && d <= cycleMax)
                || (strong && chains[i].lastGroupStrong && d >= 2 * cycleMin && d <= 2 * cycleMax)
            if fits && (best < 0 || chains[i].count > chains[best].count) { best = i }
        }
        // A valid group of the same tone at a time that fits no cycle ends the chains it contradicts
        // (groups every 3 s are not a T4 pattern, even if every other one is 6 s apart).
        for i in chains.indices
        where strong && !isFamily && !pooled && i != best && !chains[i].finished && isCompatible(frequency, chains[i]) {
            let d = first - chains[i].lastGroupOnset
            if d > sameGroupWindow && d < 2 * cycleMax && !(d >= cycleMin && d <= cycleMax) && !(d >= 2 * cycleMin) {
                chains[i].finished = true
            }
        }
        if best >= 0 {
            var chain = chains[best]
            if chain.cycles.count < 16 { chain.cycles.append(rounded(first - chain.lastGroupOnset)) }
            chain.count += 1
            chain.lastGroupOnset = first
            chain.lastGroupStrong = strong
            if strong { chain.strongGroups += 1 }
            chain.end = last
            record(tr, count: count, into: &chain)
            if !isFamily { addLine(frequency, prominence: prominence, to: &chain) }
            if chain.confirmedAt == nil && chain.count >= confirmationCycles && chain.strongGroups > 0 {
                chain.confirmedAt = t
            }
            chains[best] = chain
            return
        }
        // A harmonic-family line only continues chains that a plain line started.
        if isFamily { return }
        if chains.count >= Self.chainCapacity {
            // Drop the oldest unconfirmed chain to make room.
            guard
                let oldest = chains.indices.filter({ chains[$0].confirmedAt == nil })
                    .min(by: { chains[$0].lastGroupOnset < chains[$1].lastGroupOnset })
            else { return }
            chains.remove(at: oldest)
        }
        var chain = AlarmChain(
            start: first, lastGroupOnset: first, end: last, count: 1,
            confirmedAt: confirmationCycles == 1 && strong ? t : nil, toneHz: frequency, prominence: prominence,
            lines: [frequency], onDurations: [], offDurations: [], cycles: [], strongGroups: strong ? 1 : 0,
            lastGroupStrong: strong)
        chain.lines.reserveCapacity(16)
        chain.onDurations.reserveCapacity(16)
        chain.offDurations.reserveCapacity(16)
        record(tr, count: count, into: &chain)
        chains.append(chain)
    }

    private func record(_ tr: AlarmToneTrack, count: Int, into chain: inout AlarmChain) {
        for i in 0..<count {
            if chain.onDurations.count < 16 { chain.onDurations.append(rounded(tr.groupOffsets[i] - tr.groupOnsets[i])) }
            if i + 1 < count && chain.offDurations.count < 16 {
                chain.offDurations.append(rounded(tr.groupOnsets[i + 1] - tr.groupOffsets[i]))
            }
        }
    }

    private func addLine(_ frequency: Double, prominence: Float, to chain: inout AlarmChain) {
        if prominence > chain.prominence {
            chain.prominence = prominence
            chain.toneHz = frequency
        }
        if chain.lines.count < 16 && !chain.lines.contains(where: { abs($0 - frequency) <= 0.03 * $0 + binWidth }) {
            chain.lines.append(frequency)
        }
    }

    /// Whether a group at `frequency` can continue `chain`: one of its lines, or an odd harmonic
    /// of the same square-wave fundamental as its tone or one of its lines (the 520 Hz square
    /// wave family: 1560 Hz and 2600 Hz are the 3rd and 5th harmonics of one tone, though
    /// neither is a multiple of the other).
    private func isCompatible(_ frequency: Double, _ chain: AlarmChain) -> Bool {
        for line in chain.lines where abs(frequency - line) <= 0.03 * line + binWidth { return true }
        if oddHarmonics(frequency, chain.toneHz) { return true }
        for line in chain.lines where oddHarmonics(frequency, line) { return true }
        return false
    }

    /// Whether `a` and `b` are odd harmonics (1st to 11th) of one square-wave fundamental of
    /// 380-720 Hz, within 0.5 % + half a bin (a square wave's harmonics are exact multiples; the
    /// interpolated line frequencies are accurate to a fraction of a bin).
    private func oddHarmonics(_ a: Double, _ b: Double) -> Bool {
        let low = min(a, b)
        let high = max(a, b)
        var m = 1.0
        while m <= 11 {
            let f0 = low / m
            if f0 < 380 { break }
            if f0 <= 720 {
                let k = (high / f0).rounded()
                if k <= 11 && Int(k) % 2 == 1 && abs(high - k * f0) <= 0.005 * high + 0.5 * binWidth { return true }
            }
            m += 2
        }
        return false
    }

    private func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// Marks chains that can no longer grow, drops unconfirmed ones, emits confirmed ones.
    private func expireChains(at t: Double, into detections: inout [Detection]) {
        var any = false
        for i in chains.indices {
            if !chains[i].finished && t > chains[i].lastGroupOnset + emitAfter { chains[i].finished = true }
            if chains[i].finished { any = true }
        }
        if any { emitFinishedChains(into: &detections) }
    }

    /// Emits finished confirmed chains in `detectedAt` order; a finished chain waits while a chain
    /// confirmed earlier is still open, so detections stay in nondecreasing `detectedAt` order.
    private func emitFinishedChains(into detections: inout [Detection]) {
        chains.removeAll { $0.finished && $0.confirmedAt == nil }
        while let next = chains.indices.filter({ chains[$0].confirmedAt != nil })
            .min(by: { chains[$0].confirmedAt! < chains[$1].confirmedAt! }), chains[next].finished
        {
            emit(chains[next], into: &detections)
            chains.remove(at: next)
        }
    }

    /// Reports every chain confirmed since the last call and still open as a started alarm (the
    /// evidence so far); its complete detection follows when the pattern stops.
    public func reportStarts(into detections: inout [Detection]) {
        for i in chains.indices where chains[i].confirmedAt != nil && !chains[i].finished && !chains[i].startReported {
            chains[i].startReported = true
            emit(chains[i], into: &detections)
            detections[detections.count - 1].phase = .started
        }
    }

    private func emit(_ chain: AlarmChain, into detections: inout [Detection]) {
        guard let confirmedAt = chain.confirmedAt else { return }
        let lines = chain.lines.sorted()
        let family: String
        if let base = lines.first, base >= 400, base < 700 {
            family = "square520"
        } else if lines.count >= 3 || chain.toneHz < 2400 {
            family = "comb"
        } else {
            family = "piezo"
        }
        let prominenceDB = 10 * log10(Double(max(chain.prominence, 1e-6)))
        let confidence = min(0.99, 0.55 + 0.1 * Double(chain.count) + 0.01 * max(0, prominenceDB))
        detections.append(
            Detection(
                trigger: trigger, start: chain.start, end: max(chain.end, confirmedAt), detectedAt: confirmedAt,
                confidence: confidence,
                evidence: [
                    "pattern": .string(pattern.name),
                    "toneHz": .number((chain.toneHz * 10).rounded() / 10),
                    "cycles": .int(chain.count),
                    "onDurations": .numbers(chain.onDurations),
                    "offDurations": .numbers(chain.offDurations),
                    "cycleDurations": .numbers(chain.cycles),
                    "harmonicFamily": .string(family),
                    "lineFrequencies": .numbers(lines.map { $0.rounded() }),
                    "prominenceDB": .number((prominenceDB * 10).rounded() / 10),
                ]))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
