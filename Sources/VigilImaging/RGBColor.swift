/// An 8-bit sRGB colour with alpha (255 = opaque).
public struct RGBColor: Sendable, Hashable {
    /// Red.
    public var red: UInt8
    /// Green.
    public var green: UInt8
    /// Blue.
    public var blue: UInt8
    /// Alpha: 0 transparent ... 255 opaque.
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses "#RRGGBB" or "#RRGGBBAA" (the zone colour format); `nil` for anything else.
    public init?(hex text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7 || bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return nil }
        var values: [UInt8] = []
        var index = 1
        while index < bytes.count {
            guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else { return nil }
            values.append(high << 4 | low)
            index += 2
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    /// "#RRGGBB" (upper case), or "#RRGGBBAA" when not opaque.
    public var hexString: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for value in alpha == 255 ? [red, green, blue] : [red, green, blue, alpha] {
            text.append(digits[Int(value >> 4)])
            text.append(digits[Int(value & 15)])
        }
        return text
    }

    /// BT.601 luma of the colour, rounded: (77 R + 150 G + 29 B + 128) / 256.
    public var luma: UInt8 { Self.luma(red: red, green: green, blue: blue) }

    /// BT.601 luma of 8-bit red, green, blue: (77 R + 150 G + 29 B + 128) / 256.
    @inline(__always)
    public static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let r: Int = 77 &* Int(red)
        let g: Int = 150 &* Int(green)
        let b: Int = 29 &* Int(blue)
        return UInt8(truncatingIfNeeded: (r &+ g &+ b &+ 128) >> 8)
    }

    /// Black.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
