import VigilSynth

/// A recording of repeated harmonic bursts over a steady noise, the kind of sound and background a bark
/// clip holds: cuts of one such recording share both spectra, cuts of another differ in both.
public enum BurstsOverNoise {
    /// `seconds` at `sampleRate`: pink noise (white when `pink` is false) at -40 dBFS and, every 0.8 s from
    /// 0.2 s, a 0.25 s burst of the first six harmonics of `pitch` Hz, each 2 dB under the one below.
    public static func recording(seconds: Double, sampleRate: Double, pink: Bool, pitch: Double, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        var s = SignalBuffer(sampleRate: sampleRate, duration: seconds)
        if pink { s.addPinkNoise(dBFS: -40, generator: &generator) } else { s.addNoise(dBFS: -40, generator: &generator) }
        var start = 0.2
        while start + 0.25 <= seconds {
            for h in 1...6 where pitch * Double(h) < sampleRate / 2 {
                s.addTone(frequency: pitch * Double(h), start: start, duration: 0.25, dBFS: -16 - 2 * Double(h))
            }
            start += 0.8
        }
        return s.samples
    }
}
