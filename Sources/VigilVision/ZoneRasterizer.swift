import VigilGeometry

/// Rasterizes a grid polygon onto the pixels of a frame: pixel (px, py) is inside when its
/// membership point (``GridMapping/membershipPoint(px:py:)``: its grid point, with the grid's
/// maximum edge moved half a unit inward) is inside the polygon by the even-odd,
/// half-open crossing rule of ``PreparedPolygon``.
///
/// Scanline algorithm: the grid y is constant along a frame row (or, for rotations of 90 and
/// 270 degrees, along a frame column), so the edge crossings are computed once per line with
/// the very `Float` expression ``PreparedPolygon`` evaluates; each pixel then counts the
/// crossings right of its grid x. The mask therefore agrees bit for bit with
/// ``PreparedPolygon/contains(x:y:)`` and the SIMD batch test on every pixel.
public enum ZoneRasterizer {
    /// A `frameWidth * frameHeight` mask, row-major, 1 inside and 0 outside.
    public static func mask(of polygon: PreparedPolygon, mapping: GridMapping) -> [UInt8] {
        let width = mapping.frameWidth, height = mapping.frameHeight
        var mask = [UInt8](repeating: 0, count: width * height)
        guard polygon.edgeCount >= 3 else { return mask }
        // Along a line the grid y is fixed; the grid x varies with the other frame index.
        let lineCount = mapping.isTransposed ? width : height
        let pixelCount = mapping.isTransposed ? height : width
        var lineY = [Float](repeating: 0, count: lineCount)
        var pixelX = [Float](repeating: 0, count: pixelCount)
        for line in 0..<lineCount {
            let s = mapping.isTransposed ? mapping.sensorPixel(px: line, py: 0) : mapping.sensorPixel(px: 0, py: line)
            lineY[line] = mapping.membershipY(mapping.gridY(sensorY: s.y))
        }
        for pixel in 0..<pixelCount {
            let s = mapping.isTransposed ? mapping.sensorPixel(px: 0, py: pixel) : mapping.sensorPixel(px: pixel, py: 0)
            pixelX[pixel] = mapping.membershipX(mapping.gridX(sensorX: s.x))
        }
        let edgeX = polygon.edgeX, edgeY = polygon.edgeY, edgeEndY = polygon.edgeEndY, slope = polygon.inverseSlope
        var crossings = [Float](repeating: 0, count: polygon.edgeCount)
        mask.withUnsafeMutableBufferPointer { out in
            for line in 0..<lineCount {
                let y = lineY[line]
                var count = 0
                for edge in 0..<edgeX.count {
                    let y0 = edgeY[edge]
                    let y1 = edgeEndY[edge]
                    if (y0 > y) != (y1 > y) {
                        crossings[count] = edgeX[edge] + (y - y0) * slope[edge]
                        count += 1
                    }
                }
                if count == 0 { continue }
                for pixel in 0..<pixelCount {
                    let x = pixelX[pixel]
                    var inside = false
                    for c in 0..<count where x < crossings[c] { inside.toggle() }
                    if inside {
                        let index = mapping.isTransposed ? pixel * width + line : line * width + pixel
                        out[index] = 1
                    }
                }
            }
        }
        return mask
    }
}
