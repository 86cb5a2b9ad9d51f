extension RasterImage {
    /// Blends `color` into the pixel at (x, y) by its alpha; points outside the image are ignored.
    @inline(__always)
    public mutating func plot(x: Int, y: Int, color: RGBColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        if color.alpha == 255 {
            setColor(color, x: x, y: y)
            return
        }
        let old = self.color(x: x, y: y)
        let a = Int(color.alpha)
        func mix(_ new: UInt8, _ base: UInt8) -> UInt8 { UInt8((Int(new) * a + Int(base) * (255 - a) + 127) / 255) }
        setColor(
            RGBColor(red: mix(color.red, old.red), green: mix(color.green, old.green), blue: mix(color.blue, old.blue), alpha: old.alpha),
            x: x, y: y)
    }

    /// Fills the rectangle `x..<x+w`, `y..<y+h` (clipped to the image) with `color`.
    public mutating func fillRectangle(x: Int, y: Int, width w: Int, height h: Int, color: RGBColor) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 { plot(x: column, y: row, color: color) }
        }
    }

    /// Draws a straight line between two points (pixel centres, rounded) with a square pen
    /// `thickness` pixels wide (Bresenham), clipped to the image.
    public mutating func drawLine(from start: (x: Double, y: Double), to end: (x: Double, y: Double), color: RGBColor, thickness: Int = 1) {
        var x0 = Int(start.x.rounded()), y0 = Int(start.y.rounded())
        let x1 = Int(end.x.rounded()), y1 = Int(end.y.rounded())
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        let pen = max(1, thickness)
        let offset = (pen - 1) / 2
        // Skip lines entirely outside the image quickly.
        if max(x0, x1) + pen < 0 || max(y0, y1) + pen < 0 || min(x0, x1) - pen >= width || min(y0, y1) - pen >= height { return }
        while true {
            if pen == 1 {
                plot(x: x0, y: y0, color: color)
            } else if color.alpha == 255 {
                fillRectangle(x: x0 - offset, y: y0 - offset, width: pen, height: pen, color: color)
            } else {
                // Translucent pens would blend repeatedly along the line; draw them opaque-thin instead.
                plot(x: x0, y: y0, color: color)
            }
            if x0 == x1 && y0 == y1 { break }
            let twice = 2 * error
            if twice >= dy {
                error += dy
                x0 += sx
            }
            if twice <= dx {
                error += dx
                y0 += sy
            }
        }
    }

    /// Draws the outline of a closed polygon (the last point joins the first).
    public mutating func drawPolygon(_ points: [(x: Double, y: Double)], color: RGBColor, thickness: Int = 2) {
        guard points.count >= 2 else { return }
        for index in points.indices {
            drawLine(from: points[index], to: points[(index + 1) % points.count], color: color, thickness: thickness)
        }
    }

    /// Sets every pixel whose `mask` byte is non-zero to black (opaque). The mask has one byte
    /// per pixel, row-major.
    /// - Precondition: `mask.count == width * height`.
    public mutating func blackOut(mask: [UInt8]) {
        precondition(mask.count == width * height, "mask size does not match the image")
        let channels = format.channels
        let colourChannels = format == .rgba ? 3 : channels
        pixels.withUnsafeMutableBufferPointer { out in
            mask.withUnsafeBufferPointer { m in
                for i in 0..<m.count where m[i] != 0 {
                    let base = i * channels
                    for c in 0..<colourChannels { out[base + c] = 0 }
                    if format == .rgba { out[base + 3] = 255 }
                }
            }
        }
    }

    /// Draws `text` with ``BitmapFont`` at `scale`, its top-left corner at (x, y), on a
    /// `background` box (if given) one font pixel larger on each side.
    public mutating func drawText(_ text: String, x: Int, y: Int, color: RGBColor, scale: Int = 1, background: RGBColor? = nil) {
        let s = max(1, scale)
        if let background {
            fillRectangle(
                x: x - s, y: y - s, width: BitmapFont.width(of: text, scale: s) + 2 * s,
                height: BitmapFont.glyphHeight * s + 2 * s, color: background)
        }
        var penX = x
        for character in text {
            let rows = BitmapFont.rows(for: character)
            for (row, bits) in rows.enumerated() {
                for column in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - column)) != 0 {
                    fillRectangle(x: penX + column * s, y: y + row * s, width: s, height: s, color: color)
                }
            }
            penX += BitmapFont.advance * s
        }
    }
}
