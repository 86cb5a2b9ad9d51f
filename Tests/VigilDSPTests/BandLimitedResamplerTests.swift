import Foundation
import Testing
import VigilDSP

/// Band-limited resampling on synthesized tones: what is below the target's Nyquist frequency passes
/// with its amplitude and frequency, what is above it is removed instead of aliasing.
@Suite("BandLimitedResampler")
struct BandLimitedResamplerTests {
    static func tone(_ frequency: Double, rate: Double, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(rate * seconds)).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    /// RMS of the middle half (away from the edges, where the kernel runs off the signal).
    static func middleRMS(_ x: [Float]) -> Double {
        let part = x[(x.count / 4)..<(3 * x.count / 4)]
        return (part.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(part.count)).squareRoot()
    }

    /// Correlation of `x` with a tone of `frequency` at `rate` (amplitude of that component).
    static func amplitude(of frequency: Double, in x: [Float], rate: Double) -> Double {
        var c = 0.0, s = 0.0
        let range = (x.count / 4)..<(3 * x.count / 4)
        for i in range {
            let phase = 2 * Double.pi * frequency * Double(i) / rate
            c += Double(x[i]) * cos(phase)
            s += Double(x[i]) * sin(phase)
        }
        return 2 * (c * c + s * s).squareRoot() / Double(range.count)
    }

    @Test("44.1 kHz to 16 kHz keeps a 1 kHz tone and removes a 12 kHz one")
    func downsampling() {
        let rate = 44_100.0
        let low = Self.tone(1_000, rate: rate, seconds: 1)
        let high = Self.tone(12_000, rate: rate, seconds: 1)
        let y = BandLimitedResampler.resample(zip(low, high).map { $0 + $1 }, from: rate, to: 16_000)
        #expect(y.count == 16_000)
        // The 1 kHz tone at its amplitude; the 12 kHz tone (above 8 kHz) neither kept nor folded to 4 kHz.
        #expect(abs(Self.amplitude(of: 1_000, in: y, rate: 16_000) - 0.5) < 0.01)
        #expect(Self.amplitude(of: 4_000, in: y, rate: 16_000) < 0.005)
        #expect(abs(Self.middleRMS(y) - 0.5 / 2.0.squareRoot()) < 0.01)
    }

    @Test("rates without a large common factor (22,050 to 16,000) and upsampling keep a tone")
    func otherRates() {
        let x = Self.tone(440, rate: 22_050, seconds: 0.5)
        let y = BandLimitedResampler.resample(x, from: 22_050, to: 16_000)
        #expect(y.count == 8_000)
        #expect(abs(Self.amplitude(of: 440, in: y, rate: 16_000) - 0.5) < 0.01)
        let up = BandLimitedResampler.resample(Self.tone(440, rate: 8_000, seconds: 0.5), from: 8_000, to: 44_100)
        #expect(up.count == 22_050)
        #expect(abs(Self.amplitude(of: 440, in: up, rate: 44_100) - 0.5) < 0.01)
        #expect(BandLimitedResampler.resample(x, from: 22_050, to: 22_050) == x)
    }

    @Test("band limiting as an 8 kHz microphone: 3 kHz passes, 6 kHz is removed, the length is kept")
    func bandLimit() {
        let rate = 44_100.0
        let x = zip(Self.tone(3_000, rate: rate, seconds: 0.5), Self.tone(6_000, rate: rate, seconds: 0.5)).map { $0 + $1 }
        let y = BandLimitedResampler.bandLimited(x, rate: rate, bandRate: 8_000)
        #expect(y.count == x.count)
        #expect(abs(Self.amplitude(of: 3_000, in: y, rate: rate) - 0.5) < 0.02)
        #expect(Self.amplitude(of: 6_000, in: y, rate: rate) < 0.005)
    }
}
