import Foundation
import VigilCore

/// White, pink-like or brown-like noise from white Gaussian samples: Paul Kellet's economy pink filter
/// (three one-pole sections) and a leaky integrator for brown. Deterministic: the output depends only
/// on the inputs in order.
struct ColoredNoiseFilter {
    /// The noise colours, in the order the synthetic recordings draw them.
    enum Color: String, CaseIterable {
        case white, pink, brown
    }

    /// The colour produced.
    let color: Color
    private var b0 = 0.0
    private var b1 = 0.0
    private var b2 = 0.0
    private var brown = 0.0

    /// A filter for `color`, at rest.
    init(color: Color) { self.color = color }

    /// The next output sample for the white input `w`.
    mutating func filter(_ w: Double) -> Double {
        switch color {
        case .white:
            return w
        case .pink:
            b0 = 0.99765 * b0 + w * 0.0990460
            b1 = 0.96300 * b1 + w * 0.2965164
            b2 = 0.57000 * b2 + w * 1.0526913
            return (b0 + b1 + b2 + w * 0.1848) * 0.25
        case .brown:
            brown = 0.995 * brown + w * 0.1
            return brown
        }
    }
}

/// The synthetic negatives every label trains on.
extension SoundModelTrainer {
    /// Synthetic training negatives (20 s each): steady noises (white, pink-like, brown-like;
    /// three levels): steady broadband noise (fans, HVAC, rain) is never an event; and
    /// ``syntheticConfusers(sampleRate:seed:)``: abrupt noise bursts and steady tones.
    package static func syntheticNegatives(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        steadyNoises(sampleRate: sampleRate, seed: seed) + syntheticConfusers(sampleRate: sampleRate, seed: seed &+ 1)
    }

    /// Whether `label` trains on ``syntheticConfusers(sampleRate:seed:)`` (its recipe's ``SoundModelRecipe/syntheticConfusers``).
    package static func usesSyntheticConfusers(_ label: String) -> Bool { SoundModelRecipe.of(label: label).syntheticConfusers }

    /// Whether `name` is one of the recordings of ``syntheticConfusers(sampleRate:seed:)``.
    package static func isSyntheticConfuser(_ name: String) -> Bool {
        name.hasPrefix("synthetic-noise-bursts") || name.hasPrefix("synthetic-steady-tones")
    }

    /// Abrupt synthetic sounds that are none of the learned classes (20 s each): bursts of white,
    /// pink-like or brown-like noise (0.05-1 s, switched on within 1 ms, -45 to -6 dBFS) and steady
    /// sine or square tones (150-4000 Hz, 0.2-2 s, 6 files), over a quiet white floor. A burst of noise has
    /// glass's impact and high-frequency energy but none of its ringing fragments; a steady tone
    /// has voicing but no syllables or formant motion. Deterministic in `seed`.
    package static func syntheticConfusers(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        var rng = SplitMix64(seed: seed)
        var out: [(String, [Float])] = []
        let n = Int(20 * sampleRate)
        func quietFloor(_ level: Double) -> [Float] {
            (0..<n).map { _ in Float(rng.nextGaussian() * level) }
        }
        for k in 0..<4 {
            var x = quietFloor(pow(10, (-75 + 20 * rng.nextUnit()) / 20))
            var t = 0.3 + rng.nextUnit()
            while t < 19 {
                let duration = 0.05 + 0.95 * rng.nextUnit() * rng.nextUnit()
                let level = pow(10, (-45 + 39 * rng.nextUnit()) / 20)
                let color = rng.nextIndex(below: 3)
                let start = Int(t * sampleRate)
                let count = min(n - start, Int(duration * sampleRate))
                let ramp = max(1, Int(0.001 * sampleRate))
                var noise = ColoredNoiseFilter(color: ColoredNoiseFilter.Color.allCases[color])
                for j in 0..<max(0, count) {
                    let v = noise.filter(rng.nextGaussian())
                    let fade = Double(min(j, count - 1 - j, ramp)) / Double(ramp)
                    x[start + j] = Float(max(-1, min(1, Double(x[start + j]) + v * level * min(1, fade))))
                }
                t += duration + 0.4 + 2 * rng.nextUnit()
            }
            out.append(("synthetic-noise-bursts-\(k)", x))
        }
        for k in 0..<6 {
            var x = quietFloor(pow(10, (-75 + 20 * rng.nextUnit()) / 20))
            var t = 0.3 + rng.nextUnit()
            while t < 19 {
                let duration = 0.2 + 1.8 * rng.nextUnit()
                let amplitude = pow(10, (-40 + 30 * rng.nextUnit()) / 20) * 2.0.squareRoot()
                let frequency = 150 * pow(4000 / 150, rng.nextUnit())
                let square = rng.nextUnit() < 0.4
                let start = Int(t * sampleRate)
                let count = min(n - start, Int(duration * sampleRate))
                let ramp = max(1, Int(0.005 * sampleRate))
                var harmonics: [Double] = [1]
                if square {
                    var h = 3.0
                    while h * frequency < 0.45 * sampleRate {
                        harmonics.append(h)
                        h += 2
                    }
                }
                for j in 0..<max(0, count) {
                    let time = Double(j) / sampleRate
                    var v = 0.0
                    for h in harmonics { v += sin(2 * Double.pi * frequency * h * time) / h }
                    let fade = Double(min(j, count - 1 - j, ramp)) / Double(ramp)
                    x[start + j] = Float(max(-1, min(1, Double(x[start + j]) + amplitude * v * min(1, fade))))
                }
                t += duration + 0.4 + 2 * rng.nextUnit()
            }
            out.append(("synthetic-steady-tones-\(k)", x))
        }
        return out
    }

    /// Steady synthetic noises (white, pink-like, brown-like; 20 s each, three levels).
    static func steadyNoises(sampleRate: Double, seed: UInt64) -> [(name: String, samples: [Float])] {
        var rng = SplitMix64(seed: seed)
        var out: [(String, [Float])] = []
        let n = Int(20 * sampleRate)
        for color in ColoredNoiseFilter.Color.allCases {
            for (j, level) in [0.003, 0.03, 0.2].enumerated() {
                var x = [Float](repeating: 0, count: n)
                var noise = ColoredNoiseFilter(color: color)
                for i in 0..<n {
                    x[i] = Float(max(-1, min(1, noise.filter(rng.nextGaussian()) * level)))
                }
                out.append(("synthetic-\(color.rawValue)-noise-\(j)", x))
            }
        }
        return out
    }
}
