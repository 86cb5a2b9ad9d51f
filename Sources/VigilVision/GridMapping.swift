/// Maps between frame pixels and the device's zone grid (sensor space).
///
/// The grid `0...maxX` x `0...maxY` spans the whole sensor picture on each axis: sensor pixel
/// (sx, sy) of a sensor picture `sensorWidth` x `sensorHeight` is grid point
/// (sx * maxX / (sensorWidth - 1), sy * maxY / (sensorHeight - 1)), so a 2048 x 2048 grid
/// covers a 16:9 picture with different scales per axis, and the corner pixels map exactly to
/// 0 and max.
///
/// The frame is the picture after the device's `imageRotation` (clockwise, a multiple of 90
/// degrees; other angles are rounded to the nearest one) and then its flips, so frame pixels are
/// mapped back through the flips and the rotation before the grid scale applies. Rotations by
/// 90 or 270 degrees swap the sensor's width and height relative to the frame.
public struct GridMapping: Sendable, Hashable {
    /// Frame width in pixels.
    public let frameWidth: Int
    /// Frame height in pixels.
    public let frameHeight: Int
    /// Largest grid x (twoDCartesianMax.x).
    public let maxX: Int
    /// Largest grid y (twoDCartesianMax.y).
    public let maxY: Int
    /// Clockwise rotation of the picture relative to the sensor: 0, 90, 180 or 270.
    public let rotation: Int
    /// Whether the picture is mirrored left-right (after rotation).
    public let flipHorizontal: Bool
    /// Whether the picture is mirrored top-bottom (after rotation).
    public let flipVertical: Bool

    /// Creates a mapping. `rotation` is reduced modulo 360 and rounded to a multiple of 90.
    public init(
        frameWidth: Int, frameHeight: Int, maxX: Int, maxY: Int, rotation: Int = 0, flipHorizontal: Bool = false,
        flipVertical: Bool = false
    ) {
        precondition(frameWidth > 0 && frameHeight > 0, "frame size must be positive")
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.maxX = max(1, maxX)
        self.maxY = max(1, maxY)
        self.rotation = Self.normalizedRotation(rotation)
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }

    /// `degrees` modulo 360, rounded to the nearest multiple of 90 (45 rounds up).
    public static func normalizedRotation(_ degrees: Int) -> Int {
        let positive = ((degrees % 360) + 360) % 360
        return ((positive + 45) / 90 % 4) * 90
    }

    /// Whether a frame row runs along a sensor column (rotation 90 or 270).
    public var isTransposed: Bool { rotation == 90 || rotation == 270 }

    /// Sensor picture width in pixels.
    public var sensorWidth: Int { isTransposed ? frameHeight : frameWidth }
    /// Sensor picture height in pixels.
    public var sensorHeight: Int { isTransposed ? frameWidth : frameHeight }

    /// The sensor pixel shown at frame pixel (px, py).
    @inline(__always)
    public func sensorPixel(px: Int, py: Int) -> (x: Int, y: Int) {
        // Undo the flips (applied last), then the rotation.
        let x = flipHorizontal ? frameWidth - 1 - px : px
        let y = flipVertical ? frameHeight - 1 - py : py
        switch rotation {
        case 90: return (y, frameWidth - 1 - x)
        case 180: return (frameWidth - 1 - x, frameHeight - 1 - y)
        case 270: return (frameHeight - 1 - y, x)
        default: return (x, y)
        }
    }

    /// The frame pixel that shows sensor pixel (sx, sy): the inverse of ``sensorPixel(px:py:)``.
    public func framePixel(sx: Int, sy: Int) -> (x: Int, y: Int) {
        var x: Int, y: Int
        switch rotation {
        case 90: (x, y) = (frameWidth - 1 - sy, sx)
        case 180: (x, y) = (frameWidth - 1 - sx, frameHeight - 1 - sy)
        case 270: (x, y) = (sy, frameHeight - 1 - sx)
        default: (x, y) = (sx, sy)
        }
        if flipHorizontal { x = frameWidth - 1 - x }
        if flipVertical { y = frameHeight - 1 - y }
        return (x, y)
    }

    /// Grid x of sensor column `sx` (exact at 0 and sensorWidth - 1).
    @inline(__always)
    public func gridX(sensorX sx: Int) -> Float {
        sensorWidth == 1 ? 0 : Float(Double(sx * maxX) / Double(sensorWidth - 1))
    }

    /// Grid y of sensor row `sy` (exact at 0 and sensorHeight - 1).
    @inline(__always)
    public func gridY(sensorY sy: Int) -> Float {
        sensorHeight == 1 ? 0 : Float(Double(sy * maxY) / Double(sensorHeight - 1))
    }

    /// The point tested for zone membership at grid x `gx`: `gx` itself, except that the
    /// grid's maximum is moved half a unit inward. Zone polygons use the half-open crossing rule
    /// (``VigilGeometry/PreparedPolygon``), which leaves points on a zone's right or bottom edge
    /// outside; without this, a zone drawn to the grid's edge would miss the frame's last column
    /// or row. No vertex lies strictly between max - 0.5 and max, so nothing else changes.
    @inline(__always)
    public func membershipX(_ gx: Float) -> Float { gx >= Float(maxX) ? Float(maxX) - 0.5 : gx }

    /// See ``membershipX(_:)``.
    @inline(__always)
    public func membershipY(_ gy: Float) -> Float { gy >= Float(maxY) ? Float(maxY) - 0.5 : gy }

    /// The membership test point of frame pixel (px, py) (``gridPoint(px:py:)`` with the
    /// maximum edge moved inward, see ``membershipX(_:)``).
    public func membershipPoint(px: Int, py: Int) -> (x: Float, y: Float) {
        let g = gridPoint(px: px, py: py)
        return (membershipX(g.x), membershipY(g.y))
    }

    /// The grid point of frame pixel (px, py).
    public func gridPoint(px: Int, py: Int) -> (x: Float, y: Float) {
        let s = sensorPixel(px: px, py: py)
        return (gridX(sensorX: s.x), gridY(sensorY: s.y))
    }

    /// The grid point of a real-valued frame position (pixel centres at integers), for anchors
    /// such as a blob centroid. Agrees with ``gridPoint(px:py:)`` at integer positions up to rounding.
    public func gridPoint(x: Double, y: Double) -> (x: Float, y: Float) {
        let fx = flipHorizontal ? Double(frameWidth - 1) - x : x
        let fy = flipVertical ? Double(frameHeight - 1) - y : y
        let w = Double(frameWidth - 1), h = Double(frameHeight - 1)
        let sx: Double, sy: Double
        switch rotation {
        case 90: (sx, sy) = (fy, w - fx)
        case 180: (sx, sy) = (w - fx, h - fy)
        case 270: (sx, sy) = (h - fy, fx)
        default: (sx, sy) = (fx, fy)
        }
        let gx = sensorWidth == 1 ? 0 : sx * Double(maxX) / Double(sensorWidth - 1)
        let gy = sensorHeight == 1 ? 0 : sy * Double(maxY) / Double(sensorHeight - 1)
        return (Float(gx), Float(gy))
    }

    /// The real-valued frame position of grid point (gx, gy): the inverse of ``gridPoint(x:y:)``.
    public func framePoint(gridX gx: Double, gridY gy: Double) -> (x: Double, y: Double) {
        let sx = gx * Double(sensorWidth - 1) / Double(maxX)
        let sy = gy * Double(sensorHeight - 1) / Double(maxY)
        let w = Double(frameWidth - 1), h = Double(frameHeight - 1)
        var x: Double, y: Double
        switch rotation {
        case 90: (x, y) = (w - sy, sx)
        case 180: (x, y) = (w - sx, h - sy)
        case 270: (x, y) = (sy, h - sx)
        default: (x, y) = (sx, sy)
        }
        if flipHorizontal { x = w - x }
        if flipVertical { y = h - y }
        return (x, y)
    }
}
