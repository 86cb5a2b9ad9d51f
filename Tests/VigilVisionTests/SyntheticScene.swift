import VigilImaging

/// A deterministic synthetic camera scene with exact ground truth: a textured static
/// background, moving rectangles, and optional sensor noise, flicker, lighting steps, exposure
/// jumps, shake and picture rotation/flips. Coordinates of objects are in *sensor* pixels; the
/// frame is the sensor picture after rotation (0 or 180) and flips.
struct SyntheticScene {
    struct MovingObject {
        var width: Int
        var height: Int
        var level: UInt8
        /// Top-left corner in sensor pixels at frame index i (nil: not present).
        var position: (Int) -> (x: Int, y: Int)?
    }

    var width: Int
    var height: Int
    var objects: [MovingObject] = []
    /// Gaussian sensor noise standard deviation (gray levels).
    var noiseSigma: Double = 0
    /// Multiplicative gain per frame index (flicker, light switches, exposure).
    var gain: (Int) -> Double = { _ in 1 }
    /// Additive offset per frame index.
    var offset: (Int) -> Double = { _ in 0 }
    /// Whole-picture shift in pixels per frame index (camera shake).
    var shift: (Int) -> (dx: Int, dy: Int) = { _ in (0, 0) }
    /// Picture rotation (0 or 180) and flips applied to the sensor picture.
    var rotation = 0
    var flipHorizontal = false
    var flipVertical = false

    private var background: [UInt8] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        var rng = SplitMix(seed: 7)
        var bg = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Smooth gradient plus blocky texture, levels 40...170.
                let block = Int(rng.next() % 16)
                let gradient = 40 + (x * 60 / max(width, 1)) + (y * 40 / max(height, 1))
                bg[y * width + x] = UInt8(gradient + block + ((x / 8 + y / 8) % 2) * 12)
            }
        }
        background = bg
    }

    /// The sensor picture at frame `index` (before rotation/flips).
    func sensorPicture(_ index: Int) -> [UInt8] {
        var picture = [UInt8](repeating: 0, count: width * height)
        let s = shift(index)
        for y in 0..<height {
            let sy = min(max(y - s.dy, 0), height - 1)
            for x in 0..<width {
                let sx = min(max(x - s.dx, 0), width - 1)
                picture[y * width + x] = background[sy * width + sx]
            }
        }
        for object in objects {
            guard let p = object.position(index) else { continue }
            let x0 = max(p.x, 0), x1 = min(p.x + object.width, width)
            let y0 = max(p.y, 0), y1 = min(p.y + object.height, height)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 {
                for x in x0..<x1 { picture[y * width + x] = object.level }
            }
        }
        return picture
    }

    /// The frame at `index`: lighting, noise, then rotation/flips.
    func frame(_ index: Int) -> RasterImage {
        let sensor = sensorPicture(index)
        var rng = SplitMix(seed: UInt64(index) &* 7919 &+ 13)
        let g = gain(index), o = offset(index)
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var v = Double(sensor[y * width + x]) * g + o
                if noiseSigma > 0 { v += rng.gaussian() * noiseSigma }
                // Picture pixel (px, py) shows sensor pixel after rotation then flips.
                var px = x, py = y
                if rotation == 180 {
                    px = width - 1 - px
                    py = height - 1 - py
                }
                if flipHorizontal { px = width - 1 - px }
                if flipVertical { py = height - 1 - py }
                out[py * width + px] = UInt8(clamping: Int(v.rounded()))
            }
        }
        return RasterImage(width: width, height: height, format: .gray, pixels: out)
    }
}

/// A small deterministic PRNG (SplitMix64) with a Gaussian helper.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
