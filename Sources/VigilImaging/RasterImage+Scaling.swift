extension RasterImage {
    /// The image resampled to `newWidth` x `newHeight` (box average when shrinking, nearest
    /// pixel when growing), in the same pixel format.
    public func scaled(width newWidth: Int, height newHeight: Int) -> RasterImage {
        let w = max(newWidth, 1)
        let h = max(newHeight, 1)
        let channels = format.channels
        var out = RasterImage(width: w, height: h, format: format)
        guard width > 0, height > 0 else { return out }
        for y in 0..<h {
            let y0 = y * height / h
            let y1 = max(y0 + 1, (y + 1) * height / h)
            for x in 0..<w {
                let x0 = x * width / w
                let x1 = max(x0 + 1, (x + 1) * width / w)
                for c in 0..<channels {
                    var sum = 0
                    for sy in y0..<min(y1, height) {
                        let row = sy * stride
                        for sx in x0..<min(x1, width) { sum += Int(pixels[row + sx * channels + c]) }
                    }
                    let count = (min(y1, height) - y0) * (min(x1, width) - x0)
                    out.pixels[(y * w + x) * channels + c] = UInt8(sum / max(count, 1))
                }
            }
        }
        return out
    }
}
