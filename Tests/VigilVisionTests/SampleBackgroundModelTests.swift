import Testing
import VigilCore

@testable import VigilVision

@Suite("Sample-based background model")
struct SampleBackgroundModelTests {
    /// A textured plane: blocks of 4 x 4 pixels with levels 40...200.
    func texture(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let blocks = (0..<((width / 4 + 1) * (height / 4 + 1))).map { _ in UInt8(40 + rng.nextIndex(below: 161)) }
        return (0..<(width * height)).map { i in blocks[(i / width / 4) * (width / 4 + 1) + (i % width) / 4] }
    }

    func distances(_ model: SampleBackgroundModel, _ frame: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: frame.count)
        frame.withUnsafeBufferPointer { f in
            out.withUnsafeMutableBufferPointer { model.matchDistances(frame: f.baseAddress!, into: $0.baseAddress!) }
        }
        return out
    }

    @Test("the SIMD match distance is the second-smallest difference to the samples, on every pixel")
    func matchDistanceIsSecondSmallest() {
        let width = 37, height = 11  // not a multiple of 16: the scalar tail runs too
        let model = SampleBackgroundModel(width: width, height: height)
        var rng = SplitMix64(seed: 3)
        for i in 0..<model.samples.count { model.samples[i] = UInt8(rng.nextIndex(below: 256)) }
        let frame = (0..<(width * height)).map { _ in UInt8(rng.nextIndex(below: 256)) }
        let got = distances(model, frame)
        for i in 0..<(width * height) {
            let sorted = (0..<SampleBackgroundModel.sampleCount).map { k in
                abs(Int(frame[i]) - Int(model.samples[k * width * height + i]))
            }.sorted()
            #expect(Int(got[i]) == sorted[SampleBackgroundModel.minimumMatches - 1], "pixel \(i)")
        }
    }

    @Test("one frame bootstraps the model: the same picture matches, a bright square does not")
    func bootstrapFromOneFrame() {
        let width = 64, height = 48
        let picture = texture(width: width, height: height, seed: 1)
        let model = SampleBackgroundModel(width: width, height: height)
        picture.withUnsafeBufferPointer { model.initialise(from: $0.baseAddress!) }
        // Two samples hold the pixel's own value: the same picture matches exactly.
        #expect(distances(model, picture).allSatisfy { $0 == 0 })
        var moved = picture
        for y in 10..<20 { for x in 10..<20 { moved[y * width + x] = 250 } }
        let found = distances(model, moved)
        for y in 10..<20 { for x in 10..<20 { #expect(found[y * width + x] >= 40, "(\(x), \(y))") } }
    }

    @Test("the update absorbs a new still background, and a moving area only at the slower rate")
    func updateRates() {
        let width = 64, height = 48, n = width * height
        let old = texture(width: width, height: height, seed: 1), new = texture(width: width, height: height, seed: 2)
        let model = SampleBackgroundModel(width: width, height: height)
        old.withUnsafeBufferPointer { model.initialise(from: $0.baseAddress!) }
        // The left half is marked moving, the right half still.
        let moving = (0..<n).map { i in UInt8(i % width < width / 2 ? 1 : 0) }
        func matchedShare(left: Bool) -> Double {
            let d = distances(model, new)
            let pixels = (0..<n).filter { ($0 % width < width / 2) == left }
            return Double(pixels.filter { d[$0] <= 10 }.count) / Double(pixels.count)
        }
        #expect(matchedShare(left: false) < 0.4)
        for _ in 0..<30 {
            new.withUnsafeBufferPointer { f in
                moving.withUnsafeBufferPointer { m in
                    model.update(frame: f.baseAddress!, moving: m.baseAddress!, subsampling: 4, movingUpdateChance: 0.1)
                }
            }
        }
        let still = matchedShare(left: false), slow = matchedShare(left: true)
        #expect(still > 0.95, "still half matched at \(still)")
        #expect(slow < still - 0.2, "moving half matched at \(slow), still half at \(still)")
    }

    @Test("the same seed and frames give the same model")
    func deterministic() {
        let width = 40, height = 30
        let picture = texture(width: width, height: height, seed: 5)
        let next = texture(width: width, height: height, seed: 6)
        let still = [UInt8](repeating: 0, count: width * height)
        func run() -> [UInt8] {
            let model = SampleBackgroundModel(width: width, height: height)
            picture.withUnsafeBufferPointer { model.initialise(from: $0.baseAddress!) }
            next.withUnsafeBufferPointer { f in
                still.withUnsafeBufferPointer { m in
                    for _ in 0..<5 { model.update(frame: f.baseAddress!, moving: m.baseAddress!, subsampling: 2, movingUpdateChance: 0) }
                }
            }
            return Array(model.samples)
        }
        #expect(run() == run())
    }
}
