/// One tonal line followed by an ``AlarmPatternDetector``: its on/off envelope state and the beep
/// group being collected. A line lives while it sounds or collects a group; chains of groups are
/// kept by the detector (``AlarmChain``).
///
/// Fixed-size storage only (SIMD vectors as small arrays), so updating a track never allocates.
struct AlarmToneTrack {
    /// Whether the slot is in use.
    var active = false
    /// Spectrum bin the line sits in (follows slow drift while a beep sounds).
    var bin = 0

    // Envelope.
    var isOn = false
    /// Power in the line at the previous frame.
    var previousPower: Float = 0
    /// Lowest power since the last peak of the current beep, and when (reverberant gaps).
    var dipPower: Float = 0
    var dipTime: Double = 0
    /// Offset and frequency of the line's latest segment, accepted as a beep or not (harmonic
    /// partners of a group are looked up by them).
    var segmentOnset: Double = -1
    var segmentOffset: Double = -1
    var segmentFrequency: Double = 0
    /// Offset and peak power of the previous beep (to recognise reverberant tails).
    var lastBeepOffset: Double = -1
    var lastBeepPeak: Float = 0
    /// Sum and count of the line's power over the current beep.
    var beepPowerSum: Float = 0
    var beepFrames: Float = 0
    /// Peak power of the current beep, or the valley power since the last beep ended.
    var peakPower: Float = 0
    var valleyPower: Float = 0
    /// Onset of the current beep (seconds, sub-frame refined once the next frame is known).
    var onset: Double = 0
    /// Whether ``onset`` still waits for its refinement at the next frame.
    var onsetPending = false
    /// Amplitudes (sqrt power) of the frame before the onset frame and of the onset frame.
    var onsetAmplitudeBefore: Float = 0
    var onsetAmplitude: Float = 0
    var onsetFrameTime: Double = 0
    /// A beep has ended at ``pendingOffset`` but may still resume (a short dip inside a beep).
    var pending = false
    var pendingOffset: Double = 0
    /// Frequency (Hz) of the current beep, interpolated at its peak.
    var beepFrequency: Double = 0

    /// Peak power of the beeps accepted into the current group (0 when none):
    /// beeps far weaker than this are strays (room tone, speech) and are ignored.
    var referencePower: Float = 0
    /// The bin at the start of the current beep, restored when the beep is ignored.
    var anchorBin = 0

    // The group being collected.
    var groupCount = 0
    var groupInvalid = false
    var groupOnsets = SIMD8<Double>()
    var groupOffsets = SIMD8<Double>()
    var groupFrequencySum = 0.0
    var groupPeakPower: Float = 0

    /// Prominence (linear) of the current beep at its peak.
    var beepProminence: Float = 0
    /// Highest prominence (linear) of a beep in the group.
    var groupProminence: Float = 0

    // Harmonic-family lines (see ``AlarmPatternDetector``): the odd harmonics of a square-wave
    // fundamental followed as one line, whose value each frame is the best prominence among them.
    /// Fundamental (Hz) of a harmonic-family line; 0 for a plain line.
    var fundamental = 0.0
    /// Bins of the odd harmonics combined by a harmonic-family line, and how many are used.
    var harmonicBins = SIMD8<Int32>()
    var harmonicCount = 0
    /// Media time until which an idle harmonic-family line is kept (it waits for the next group).
    var keepUntil = 0.0

    /// Resets the slot to a new line at `bin`.
    mutating func reset(bin: Int) {
        self = AlarmToneTrack()
        active = true
        self.bin = bin
    }

    /// True when nothing is pending: the slot can be reused.
    var isIdle: Bool { !isOn && !pending && groupCount == 0 }
}
