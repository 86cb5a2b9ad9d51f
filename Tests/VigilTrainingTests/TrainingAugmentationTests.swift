import Foundation
import Testing
import VigilCore
import VigilTraining

/// Room, background, microphone and gain augmentation of training recordings, on synthesized signals.
@Suite("TrainingAugmentation")
struct TrainingAugmentationTests {
    static let rate = 16_000.0

    /// A 0.2 s noise burst at 1 s in 3 s of silence.
    static func burst() -> [Float] {
        var rng = SplitMix64(seed: 7)
        var x = [Float](repeating: 0, count: Int(rate * 3))
        for i in Int(rate)..<Int(rate * 1.2) { x[i] = Float(rng.nextGaussian() * 0.1) }
        return x
    }

    static func energy(_ x: ArraySlice<Float>) -> Double { x.reduce(0.0) { $0 + Double($1) * Double($1) } }

    @Test("a room's tail decays by 60 dB over the reverberation time and has the asked direct-to-reverberant ratio")
    func room() {
        let taps = TrainingAugmentation.roomResponse(rate: Self.rate, reverberationSeconds: 0.5, directToReverberantDB: 3, seed: 1)
        #expect(taps[0].0 == 0 && taps[0].1 == 1)
        let tail = taps.dropFirst()
        let tailEnergy = tail.reduce(0.0) { $0 + Double($1.1) * Double($1.1) }
        #expect(abs(10 * log10(1 / tailEnergy) - 3) < 0.01)
        // Energy in the first and the last 0.1 s of the tail: about 48 dB apart (60 dB per 0.5 s, 0.4 s between).
        let first = tail.filter { $0.0 < Int(Self.rate * 0.103) }.reduce(0.0) { $0 + Double($1.1 * $1.1) }
        let last = tail.filter { $0.0 >= Int(Self.rate * 0.403) }.reduce(0.0) { $0 + Double($1.1 * $1.1) }
        #expect((40...56).contains(10 * log10(first / last)))
        // A burst rings on after its end in the room.
        let x = Self.burst()
        let y = TrainingAugmentation.reverberated(x, rate: Self.rate, reverberationSeconds: 0.5, directToReverberantDB: 3, seed: 1)
        let after = Int(Self.rate * 1.25)..<Int(Self.rate * 1.35)
        #expect(Self.energy(x[after]) == 0 && Self.energy(y[after]) > 1e-3)
    }

    @Test("the background is mixed at the asked level under the sound, and the same seed gives the same copy")
    func mixing() {
        let x = Self.burst()
        var rng = SplitMix64(seed: 3)
        let background = (0..<Int(Self.rate)).map { _ in Float(rng.nextGaussian() * 0.01) }
        for snr in TrainingAugmentation.snrLevels {
            let variant = AugmentationVariant(
                reverberationSeconds: nil, directToReverberantDB: 0, snrDB: snr, backgroundPosition: 0.1, bandRate: nil, gainDB: 0,
                roomSeed: 0)
            let y = TrainingAugmentation.apply(x, rate: Self.rate, background: background, variant: variant)
            // Before the burst only the background: its RMS is the burst's level less `snr`.
            let quiet = y[0..<Int(Self.rate * 0.9)]
            let floor = (Self.energy(quiet) / Double(quiet.count)).squareRoot()
            let level = TrainingAugmentation.soundLevel(x, rate: Self.rate)
            #expect(abs(20 * log10(level / floor) - snr) < 0.3)
        }
        var a = SplitMix64(seed: 11), b = SplitMix64(seed: 11)
        let va = TrainingAugmentation.draw(snrDB: -6, rng: &a)
        let vb = TrainingAugmentation.draw(snrDB: -6, rng: &b)
        #expect(va == vb)
        #expect(
            TrainingAugmentation.apply(x, rate: Self.rate, background: background, variant: va)
                == TrainingAugmentation.apply(x, rate: Self.rate, background: background, variant: vb))
        // Four copies of a recording go through the four levels.
        var rng4 = SplitMix64(seed: 5)
        let levels = TrainingAugmentation.variants(count: 4, rng: &rng4).map(\.snrDB)
        #expect(Set(levels) == Set(TrainingAugmentation.snrLevels))
        // A copy as an 8 kHz camera records it: at 8 kHz, as long; a recording at or below 8 kHz is left as it is.
        let white = (0..<Int(Self.rate)).map { _ in Float(rng.nextGaussian() * 0.1) }
        let camera = AugmentationVariant(
            reverberationSeconds: nil, directToReverberantDB: 0, snrDB: 100, backgroundPosition: 0, bandRate: 8_000, gainDB: 0, roomSeed: 0)
        let y = TrainingAugmentation.recorded(white, rate: Self.rate, variant: camera)
        #expect(y.rate == 8_000 && y.samples.count == white.count / 2)
        #expect(TrainingAugmentation.recorded(y.samples, rate: 8_000, variant: camera).samples == y.samples)
    }

    @Test("copies: named ITEM#aK, from backgrounds of the pool only, at the item's rate or a camera's")
    func copies() {
        var rng = SplitMix64(seed: 9)
        let noise44 = (0..<44_100).map { _ in Float(rng.nextGaussian() * 0.01) }
        let audio: [String: (samples: [Float], rate: Double)] = [
            "bark": (Self.burst(), Self.rate), "bg1": (noise44, 44_100), "bg2": (noise44, 44_100), "other": (noise44, 44_100),
        ]
        let result = TrainingAugmentation.copies(of: ["bark", "missing"], copies: 3, seed: 1, audio: audio) { _ in ["bg1", "bg2"] }
        #expect(result.recordings.map(\.name) == ["bark#a1", "bark#a2", "bark#a3"])
        #expect(result.recordings.allSatisfy { [Self.rate, 8_000].contains($0.sampleRate) && abs($0.duration - 3) < 1e-3 })
        #expect(Set(result.backgroundOf.values).isSubset(of: ["bg1", "bg2"]))
        let again = TrainingAugmentation.copies(of: ["bark"], copies: 3, seed: 1, audio: audio) { _ in ["bg1", "bg2"] }
        #expect(again.recordings.map(\.matrix) == result.recordings.map(\.matrix))
    }
}
