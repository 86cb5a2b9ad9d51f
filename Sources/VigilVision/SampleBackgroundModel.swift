import VigilCore

/// A sample-based background model of a byte plane, after ViBe (Barnich and Van Droogenbroeck,
/// 2011): every pixel keeps ``sampleCount`` past values of itself and its neighbours, and a pixel
/// belongs to the background when at least ``minimumMatches`` of them lie within a radius of
/// its value.
///
/// - The *match distance* of a pixel is the ``minimumMatches``-th smallest absolute difference
///   between its value and its samples: a pixel is background at radius R exactly when that
///   distance is at most R, so one distance plane serves every sensitivity's radius.
/// - Bootstrapping: one frame fills the whole model, two samples from the pixel itself and the
///   others from random pixels of the 3 x 3 neighbourhood, so detection starts on the second frame.
/// - Update (conservative, random, subsampled): on average one pixel in `subsampling` is
///   visited per frame; a background pixel there replaces one of its own samples, chosen at
///   random, with its value, and one sample of a random 8-neighbour (spatial propagation, which
///   dissolves ghosts left by objects that were in the first frame). Moving pixels are updated
///   with a further probability (``update(frame:moving:subsampling:movingUpdateChance:)``),
///   so that an object that stops is absorbed after a while.
///
/// Samples are stored as ``sampleCount`` planes of bytes, so the distance kernel runs over 16
/// pixels at a time. Random choices come from a seeded ``SplitMix64``: results are
/// reproducible. Not thread-safe; memory is allocated once per plane size.
final class SampleBackgroundModel {
    /// Samples per pixel.
    static let sampleCount = 8
    /// Samples that must lie within the radius for a pixel to be background.
    static let minimumMatches = 2

    let width: Int
    let height: Int
    let count: Int
    /// ``sampleCount`` planes of `count` bytes.
    let samples: UnsafeMutableBufferPointer<UInt8>
    private var random: SplitMix64

    init(width: Int, height: Int, seed: UInt64 = 0x5649_4249) {
        self.width = width
        self.height = height
        count = width * height
        samples = .allocate(capacity: max(count, 1) * Self.sampleCount)
        samples.initialize(repeating: 0)
        random = SplitMix64(seed: seed)
    }

    deinit { samples.deallocate() }

    /// Fills the model from `frame` (`count` bytes, rows of `width`): the first
    /// ``minimumMatches`` samples of a pixel with its own value (so an unchanged picture matches
    /// itself even where the texture changes from pixel to pixel), the others with the value of a
    /// random pixel of its 3 x 3 neighbourhood (tolerance to small shifts).
    func initialise(from frame: UnsafePointer<UInt8>) {
        let w = width, h = height, s = samples.baseAddress!
        for y in 0..<h {
            for x in 0..<w {
                var bits = random.next()
                let own = frame[y * w + x]
                for k in 0..<Self.minimumMatches { s[k * count + y * w + x] = own }
                for k in Self.minimumMatches..<Self.sampleCount {
                    let direction = Int(bits & 0xF) % 9
                    bits >>= 4
                    let nx = min(max(x + direction % 3 - 1, 0), w - 1)
                    let ny = min(max(y + direction / 3 - 1, 0), h - 1)
                    s[k * count + y * w + x] = frame[ny * w + nx]
                }
            }
        }
    }

    /// Writes each pixel's match distance (the ``minimumMatches``-th smallest absolute
    /// difference between `frame` and its samples) into `distance`.
    func matchDistances(frame: UnsafePointer<UInt8>, into distance: UnsafeMutablePointer<UInt8>) {
        typealias V = SIMD16<UInt8>
        @inline(__always) func smaller(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }
        @inline(__always) func larger(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .> a) }
        let s = samples.baseAddress!, n = count
        var i = 0
        while i + 16 <= n {
            let value = UnsafeRawPointer(frame + i).loadUnaligned(as: V.self)
            var first = V(repeating: 255), second = V(repeating: 255)
            for k in 0..<Self.sampleCount {
                let sample = UnsafeRawPointer(s + k * n + i).loadUnaligned(as: V.self)
                let d = larger(value, sample) &- smaller(value, sample)
                second = smaller(second, larger(first, d))
                first = smaller(first, d)
            }
            UnsafeMutableRawPointer(distance + i).storeBytes(of: second, as: V.self)
            i += 16
        }
        while i < n {
            distance[i] = Self.matchDistance(frame[i], samples: s + i, planeSize: n)
            i += 1
        }
    }

    /// The match distance of `value` against the samples of pixel `index`.
    func matchDistance(_ value: UInt8, at index: Int) -> UInt8 {
        Self.matchDistance(value, samples: samples.baseAddress! + index, planeSize: count)
    }

    /// The match distance of `value` against the samples at `samples`, `samples + planeSize`, ...
    @inline(__always)
    static func matchDistance(_ value: UInt8, samples: UnsafePointer<UInt8>, planeSize: Int) -> UInt8 {
        var first: UInt8 = 255, second: UInt8 = 255
        for k in 0..<sampleCount {
            let sample = samples[k * planeSize]
            let d = value > sample ? value - sample : sample - value
            second = min(second, max(first, d))
            first = min(first, d)
        }
        return second
    }

    /// The random update. `moving` marks the pixels found moving in this frame (non-zero);
    /// on average one pixel in `subsampling` is visited; a visited moving pixel is updated only
    /// with probability `movingUpdateChance`.
    func update(frame: UnsafePointer<UInt8>, moving: UnsafePointer<UInt8>, subsampling: Int, movingUpdateChance: Double) {
        let phi = max(subsampling, 1)
        let w = width, h = height, n = count, s = samples.baseAddress!
        let movingLimit = UInt64(max(0, min(movingUpdateChance, 1)) * 65_536)
        let span = UInt64(2 * phi - 1)
        var i = Int(random.next() % UInt64(phi))
        while i < n {
            let bits = random.next()
            // Bits 0-15: moving-pixel draw; 16-18: own sample; 19-21: neighbour's sample;
            // 22-29: neighbour direction; 32-63: step to the next visited pixel.
            if moving[i] == 0 || bits & 0xFFFF < movingLimit {
                let value = frame[i]
                s[Int((bits >> 16) & 7) * n + i] = value
                let direction = Int((bits >> 22) & 0xFF) % 8
                let offset = direction < 4 ? direction : direction + 1  // 3 x 3 without the centre
                let x = i % w, y = i / w
                let nx = x + offset % 3 - 1, ny = y + offset / 3 - 1
                if nx >= 0 && nx < w && ny >= 0 && ny < h { s[Int((bits >> 19) & 7) * n + ny * w + nx] = value }
            }
            i += 1 + Int((bits >> 32) % span)
        }
    }
}
