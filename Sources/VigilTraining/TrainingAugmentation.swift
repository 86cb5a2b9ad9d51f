import Foundation
import VigilCore
import VigilDSP
import VigilInference

/// How one augmented copy of a training recording is made: the room, the background, the microphone
/// and the gain (``TrainingAugmentation/apply(_:rate:background:variant:)``).
package struct AugmentationVariant: Sendable, Hashable {
    /// Room reverberation time (seconds), or nil for none.
    package var reverberationSeconds: Double?
    /// Direct-to-reverberant ratio of the room (dB).
    package var directToReverberantDB: Double
    /// Level of the sound over the background (dB; see ``TrainingAugmentation/soundLevel(_:rate:)``).
    package var snrDB: Double
    /// Where in the background (looped) the copy starts, as a share of the background's length (0..<1).
    package var backgroundPosition: Double
    /// The sample rate of the camera the copy imitates: a recording above it is resampled to it (its band then
    /// ends at 90 % of half of it, and the features are those a detector computes at that rate), or nil for the
    /// recording's own rate.
    package var bandRate: Double?
    /// Gain applied last (dB); the result is clipped to [-1, 1].
    package var gainDB: Double
    /// Seed of the room's impulse response.
    package var roomSeed: UInt64

    /// Creates a variant.
    package init(
        reverberationSeconds: Double?, directToReverberantDB: Double, snrDB: Double, backgroundPosition: Double, bandRate: Double?,
        gainDB: Double, roomSeed: UInt64
    ) {
        self.reverberationSeconds = reverberationSeconds
        self.directToReverberantDB = directToReverberantDB
        self.snrDB = snrDB
        self.backgroundPosition = backgroundPosition
        self.bandRate = bandRate
        self.gainDB = gainDB
        self.roomSeed = roomSeed
    }
}

/// Augmentation of training recordings as cameras record them: the sound in a room (reverberation),
/// mixed into another recording's background, through a band-limited microphone, at another gain.
/// Deterministic: a variant is drawn from a ``SplitMix64`` and applied without other randomness.
package enum TrainingAugmentation {
    /// Levels of the sound over the background a copy is mixed at (dB).
    package static let snrLevels: [Double] = [6, 0, -6, -12]
    /// Microphone rates a copy imitates: 8 and 16 kHz cameras (and AAC's low-pass near 8 kHz), or the
    /// recording's own band (nil).
    package static let bandRates: [Double?] = [nil, 16_000, 8_000]
    /// Gains a copy is drawn from (dB).
    package static let gainRange: ClosedRange<Double> = -12...6
    /// Reverberation times a room is drawn from (seconds); half the copies get a room.
    package static let reverberationRange: ClosedRange<Double> = 0.2...0.8
    /// Direct-to-reverberant ratios a room is drawn from (dB).
    package static let directToReverberantRange: ClosedRange<Double> = -3...9

    /// The variants of `count` copies of one recording: the SNRs step through ``snrLevels`` from a drawn start
    /// (four copies get the four levels), the rest is drawn from `rng`.
    package static func variants(count: Int, rng: inout SplitMix64) -> [AugmentationVariant] {
        let shift = rng.nextIndex(below: snrLevels.count)
        return (0..<count).map { draw(snrDB: snrLevels[($0 + shift) % snrLevels.count], rng: &rng) }
    }

    /// A variant at `snrDB` with the room, microphone, gain and background position drawn from `rng`.
    package static func draw(snrDB snr: Double, rng: inout SplitMix64) -> AugmentationVariant {
        let room = rng.nextUnit() < 0.5
        let rt60 = reverberationRange.lowerBound + (reverberationRange.upperBound - reverberationRange.lowerBound) * rng.nextUnit()
        let drr =
            directToReverberantRange.lowerBound + (directToReverberantRange.upperBound - directToReverberantRange.lowerBound)
            * rng.nextUnit()
        let band = bandRates[rng.nextIndex(below: bandRates.count)]
        let gain = gainRange.lowerBound + (gainRange.upperBound - gainRange.lowerBound) * rng.nextUnit()
        let position = rng.nextUnit()
        return AugmentationVariant(
            reverberationSeconds: room ? rt60 : nil, directToReverberantDB: drr, snrDB: snr, backgroundPosition: position, bandRate: band,
            gainDB: gain, roomSeed: rng.next())
    }

    /// `samples` (at `rate`) made into `variant`: reverberated, `background` (at the same rate, looped)
    /// mixed in so that the sound's level is `snrDB` over the background's RMS, scaled. The output has the
    /// input's length and rate; ``recorded(_:rate:variant:)`` then resamples it to the variant's camera.
    package static func apply(_ samples: [Float], rate: Double, background: [Float], variant: AugmentationVariant) -> [Float] {
        var out = samples
        if let rt60 = variant.reverberationSeconds {
            out = reverberated(
                out, rate: rate, reverberationSeconds: rt60, directToReverberantDB: variant.directToReverberantDB, seed: variant.roomSeed)
        }
        let sound = soundLevel(out, rate: rate)
        let floor = rms(background)
        if sound > 1e-9, floor > 1e-9 {
            let g = Float(sound / floor * pow(10, -variant.snrDB / 20))
            background.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { o in
                    var j = min(b.count - 1, Int(variant.backgroundPosition * Double(b.count)))
                    for i in 0..<o.count {
                        o[i] += g * b[j]
                        j += 1
                        if j == b.count { j = 0 }
                    }
                }
            }
        }
        let gain = Float(pow(10, variant.gainDB / 20))
        for i in 0..<out.count { out[i] = min(1, max(-1, out[i] * gain)) }
        return out
    }

    /// `samples` at `rate` as the variant's camera records them: resampled to its rate when the recording is
    /// above it (whole-number rates), otherwise unchanged. Returns the samples and their rate.
    package static func recorded(_ samples: [Float], rate: Double, variant: AugmentationVariant) -> (samples: [Float], rate: Double) {
        guard let band = variant.bandRate, band < rate, rate == rate.rounded() else { return (samples, rate) }
        return (BandLimitedResampler.resample(samples, from: rate, to: band), band)
    }

    /// The level of the sound in a recording: the RMS over its loudest quarter of 20 ms blocks (a bark
    /// or a word fills a small part of its clip; the whole clip's RMS would count its pauses).
    package static func soundLevel(_ samples: [Float], rate: Double) -> Double {
        let block = max(1, Int(rate * 0.02))
        var energies: [Double] = []
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + block)
            var s = 0.0
            for i in start..<end { s += Double(samples[i]) * Double(samples[i]) }
            energies.append(s / Double(end - start))
            start = end
        }
        guard !energies.isEmpty else { return 0 }
        energies.sort(by: >)
        let top = energies.prefix(max(1, energies.count / 4))
        return (top.reduce(0, +) / Double(top.count)).squareRoot()
    }

    static func rms(_ x: [Float]) -> Double {
        var s = 0.0
        for v in x { s += Double(v) * Double(v) }
        return (s / Double(max(x.count, 1))).squareRoot()
    }

    /// A room's impulse response (at `rate`): the direct path (1 at 0) and a tail of exponentially
    /// decaying sparse noise (velvet noise: one impulse of random sign at a random place in every
    /// 1 ms, amplitude falling 60 dB in `reverberationSeconds`), starting after 3 ms and scaled so
    /// that the direct path's energy over the tail's is `directToReverberantDB`. As (position, gain) taps.
    package static func roomResponse(rate: Double, reverberationSeconds: Double, directToReverberantDB: Double, seed: UInt64) -> [(
        Int, Float
    )] {
        var rng = SplitMix64(seed: seed)
        let cell = max(1, Int(rate / 1000))
        let start = Int(rate * 0.003)
        let length = Int(rate * reverberationSeconds)
        var taps: [(Int, Double)] = []
        var energy = 0.0
        var p = start
        while p < start + length {
            let at = p + rng.nextIndex(below: cell)
            let t = Double(at - start) / rate
            let amplitude = (rng.nextUnit() < 0.5 ? -1.0 : 1.0) * pow(10, -3 * t / reverberationSeconds)
            taps.append((at, amplitude))
            energy += amplitude * amplitude
            p += cell
        }
        let scale = energy > 0 ? (pow(10, -directToReverberantDB / 10) / energy).squareRoot() : 0
        return [(0, 1)] + taps.map { ($0.0, Float($0.1 * scale)) }
    }

    /// `samples` convolved with ``roomResponse(rate:reverberationSeconds:directToReverberantDB:seed:)``
    /// (the tail past the input's end is cut: the output has the input's length).
    package static func reverberated(
        _ samples: [Float], rate: Double, reverberationSeconds: Double, directToReverberantDB: Double, seed: UInt64
    ) -> [Float] {
        let taps = roomResponse(
            rate: rate, reverberationSeconds: reverberationSeconds, directToReverberantDB: directToReverberantDB, seed: seed)
        var out = [Float](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { y in
                for (delay, gain) in taps where delay < x.count {
                    let n = x.count - delay
                    for i in 0..<n { y[i + delay] += gain * x[i] }
                }
            }
        }
        return out
    }

    /// Augmented copies of `items` (each with `audio`), `copies` each, named "ITEM#aK" (K from 1): copy K mixes
    /// the sound with a background drawn from `pool(item)` (items whose audio may go into that item's copies:
    /// of the same fold, with no event of the label), resampled to the item's rate. Each item's draws come from
    /// its own generator (the seed and its name), so adding or removing items changes no other copy.
    /// Returns the copies' features and, for each copy, the item mixed into it. Items without audio or
    /// without a background are skipped.
    package static func copies(
        of items: [String], copies: Int, seed: UInt64, audio: [String: (samples: [Float], rate: Double)], frames: FeatureFrames = .shared,
        pool: (String) -> [String]
    ) -> (recordings: [RecordingFeatures], backgroundOf: [String: String]) {
        var recordings: [RecordingFeatures] = []
        var backgroundOf: [String: String] = [:]
        var resampled: [String: [Float]] = [:]
        guard copies > 0 else { return ([], [:]) }
        for item in items {
            guard let source = audio[item] else { continue }
            let candidates = pool(item).filter { audio[$0] != nil && $0 != item }
            guard !candidates.isEmpty else { continue }
            var rng = SplitMix64(seed: seed ^ FNV1a64.hash("augment:" + item))
            let drawn = variants(count: copies, rng: &rng)
            for k in 1...copies {
                let name = candidates[rng.nextIndex(below: candidates.count)]
                let bg = audio[name]!
                let key = "\(name)@\(Int(source.rate))"
                let background: [Float]
                if bg.rate == source.rate {
                    background = bg.samples
                } else if let cached = resampled[key] {
                    background = cached
                } else {
                    background = BandLimitedResampler.resample(bg.samples, from: bg.rate, to: source.rate)
                    resampled[key] = background
                }
                let mixed = apply(source.samples, rate: source.rate, background: background, variant: drawn[k - 1])
                let camera = recorded(mixed, rate: source.rate, variant: drawn[k - 1])
                let copyName = "\(item)#a\(k)"
                recordings.append(
                    SoundModelTrainer.extractFeatures(name: copyName, samples: camera.samples, sampleRate: camera.rate, frames: frames))
                backgroundOf[copyName] = name
            }
        }
        return (recordings, backgroundOf)
    }
}
