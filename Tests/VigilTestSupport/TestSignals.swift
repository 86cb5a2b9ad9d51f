import Foundation

/// Signals the tests synthesize, shared by the test targets.
public enum TestSignals {
    /// y4m bytes: 160 x 120 mono at 10 fps over `seconds`, a textured background and a bright
    /// square sweeping rows 90...109 (the front-door porch zone) from 2 to 4 s.
    public static func movingSquareY4M(seconds: Double) -> Data {
        let (width, height) = (160, 120)
        var state: UInt32 = 99
        var background = [UInt8](repeating: 0, count: width * height)
        for i in background.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            background[i] = UInt8(40 + (i % width) * 50 / width + Int(state >> 28) + (((i % width) / 8 + (i / width) / 8) % 2) * 10)
        }
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F10:1 Ip A1:1 Cmono\n".utf8)
        for frame in 0..<Int(seconds * 10) {
            let time = Double(frame) / 10
            var picture = background
            if time >= 2 && time <= 4 {
                let left = 30 + (frame * 3) % 70
                for y in 90..<110 { for x in left..<(left + 24) { picture[y * width + x] = 235 } }
            }
            bytes += Array("FRAME\n".utf8) + picture
        }
        return Data(bytes)
    }
}
