import Testing
import VigilImaging

@Suite("Drawing, colours, font and Y'CbCr")
struct DrawingTests {
    @Test("hex colours parse and print")
    func colours() {
        #expect(RGBColor(hex: "#FF8000") == RGBColor(red: 255, green: 128, blue: 0))
        #expect(RGBColor(hex: "#00ff0080") == RGBColor(red: 0, green: 255, blue: 0, alpha: 128))
        #expect(RGBColor(hex: "FF8000") == nil)
        #expect(RGBColor(hex: "#FF80") == nil)
        #expect(RGBColor(hex: "#GG0000") == nil)
        #expect(RGBColor(red: 1, green: 2, blue: 255).hexString == "#0102FF")
        #expect(RGBColor.white.luma == 255 && RGBColor.black.luma == 0)
    }

    @Test("lines hit both end points and stay inside the image")
    func lines() {
        var image = RasterImage(width: 20, height: 10, format: .rgb)
        let red = RGBColor(red: 255, green: 0, blue: 0)
        image.drawLine(from: (2, 3), to: (17, 8), color: red)
        #expect(image.color(x: 2, y: 3) == red)
        #expect(image.color(x: 17, y: 8) == red)
        image.drawLine(from: (-50, -50), to: (100, 100), color: red, thickness: 3)
        #expect(image.color(x: 5, y: 5) == red)
        let polygonImage: RasterImage = {
            var i = RasterImage(width: 10, height: 10, format: .gray)
            i.drawPolygon([(1, 1), (8, 1), (8, 8), (1, 8)], color: .white, thickness: 1)
            return i
        }()
        #expect(polygonImage.pixels[1 * 10 + 1] == 255)
        #expect(polygonImage.pixels[8 * 10 + 4] == 255)
        #expect(polygonImage.pixels[4 * 10 + 4] == 0)
        let lit = polygonImage.pixels.filter { $0 == 255 }.count
        #expect(lit == 28)
    }

    @Test("black-out masks zero colour channels and keep alpha opaque")
    func blackOut() {
        var image = RasterImage(width: 3, height: 1, format: .rgba, fill: 200)
        image.blackOut(mask: [0, 1, 0])
        #expect(image.color(x: 1, y: 0) == RGBColor(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(image.color(x: 0, y: 0).red == 200)
    }

    @Test("text draws glyph pixels; unknown characters fall back to ?")
    func text() {
        #expect(BitmapFont.hasGlyph("a") && BitmapFont.hasGlyph("7") && !BitmapFont.hasGlyph("~"))
        #expect(BitmapFont.rows(for: "~") == BitmapFont.rows(for: "?"))
        #expect(BitmapFont.width(of: "AB", scale: 2) == 22)
        var image = RasterImage(width: 12, height: 8, format: .gray)
        image.drawText("I", x: 0, y: 0, color: .white)
        // "I": top row .###.
        #expect(Array(image.pixels[0..<5]) == [0, 255, 255, 255, 0])
        #expect(image.pixels[3 * 12 + 2] == 255 && image.pixels[3 * 12 + 1] == 0)
    }

    @Test("lower-case letters have their own glyphs, so smokeAlarm is not drawn as SMOKEALARM")
    func lowerCase() {
        for (lower, upper) in zip("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
            #expect(BitmapFont.rows(for: lower) != BitmapFont.rows(for: upper), "\(lower) is drawn as \(upper)")
            #expect(BitmapFont.rows(for: lower) != BitmapFont.rows(for: "?"), "\(lower) has no glyph")
            #expect(BitmapFont.rows(for: lower).allSatisfy { $0 < 32 })
        }
        var mixed = RasterImage(width: 70, height: 8, format: .gray)
        var upper = RasterImage(width: 70, height: 8, format: .gray)
        mixed.drawText("smokeAlarm", x: 0, y: 0, color: .white)
        upper.drawText("SMOKEALARM", x: 0, y: 0, color: .white)
        #expect(mixed.pixels != upper.pixels)
    }

    @Test("Y'CbCr converts neutral chroma to gray and saturated chroma to colour")
    func ycbcr() {
        let gray = YCbCrImage(width: 2, height: 2, subsampling: .yuv420, luma: [0, 100, 200, 255], cb: [128], cr: [128])
        let rgb = gray.rgbImage()
        #expect(rgb.pixels == [0, 0, 0, 100, 100, 100, 200, 200, 200, 255, 255, 255])
        let red = YCbCrImage(width: 1, height: 1, subsampling: .yuv444, luma: [76], cb: [85], cr: [255]).rgbImage()
        #expect(red.pixels[0] > 240 && red.pixels[1] < 10 && red.pixels[2] < 10)
        #expect(YCbCrImage.Subsampling.yuv420.chromaSize(width: 5, height: 3) == (3, 2))
        #expect(gray.grayImage.pixels == [0, 100, 200, 255])
    }
}
