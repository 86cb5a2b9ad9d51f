import VigilImaging

/// A bar chart of scores per label (0...1), one group per label with one bar per series (for
/// example event F1 and segment F1), a legend, gridlines at every 10 %, and the value printed
/// above each bar. Pure: returns the picture.
public struct ScoreChart: Sendable {
    /// One bar series.
    public struct Series: Sendable {
        /// Legend text.
        public var name: String
        /// Value per label (0...1); nil draws no bar ("-").
        public var values: [String: Double]
        /// Bar colour; nil uses each label's trigger colour.
        public var color: RGBColor?

        /// Creates a series.
        public init(name: String, values: [String: Double], color: RGBColor? = nil) {
            self.name = name
            self.values = values
            self.color = color
        }
    }

    /// First line of the chart.
    public var title: String
    /// Group labels, in order.
    public var labels: [String]
    /// Series drawn side by side in each group.
    public var series: [Series]

    /// Creates a chart.
    public init(title: String, labels: [String], series: [Series]) {
        self.title = title
        self.labels = labels
        self.series = series
    }

    /// The picture.
    public func render() -> RasterImage {
        let scale = 2
        let ink = RGBColor(red: 20, green: 20, blue: 20)
        let left = 90
        let top = 80
        let plotHeight = 320
        // Wide enough that a bar's value ("100" is the widest) clears its neighbour's by 10 px.
        let barWidth = BitmapFont.width(of: "100", scale: scale) + 14
        let groupGap = 40
        let groupWidth = max(1, series.count) * barWidth
        let labelWidth = labels.map { BitmapFont.width(of: $0, scale: scale) }.max() ?? 0
        let groupStride = max(groupWidth + groupGap, labelWidth + 16)
        let width = max(left + labels.count * groupStride + 40, 620)
        let height = top + plotHeight + 70
        var image = RasterImage(width: width, height: height, format: .rgb, fill: 255)
        image.drawText(title, x: 12, y: 10, color: ink, scale: scale)
        var penX = 12
        for (i, s) in series.enumerated() {
            // Bars take their label's colour, each series a lighter shade: the legend shows the shade on grey.
            let c = s.color ?? Self.shade(RGBColor(red: 90, green: 90, blue: 90), i)
            image.fillRectangle(x: penX, y: 40, width: 22, height: 14, color: c)
            image.drawText(s.name, x: penX + 28, y: 40, color: ink, scale: scale)
            penX += 28 + BitmapFont.width(of: s.name, scale: scale) + 24
        }
        func y(_ v: Double) -> Int { top + plotHeight - Int((min(max(v, 0), 1) * Double(plotHeight)).rounded()) }
        for tick in stride(from: 0, through: 100, by: 10) {
            let py = y(Double(tick) / 100)
            image.fillRectangle(
                x: left, y: py, width: width - left - 20, height: tick % 50 == 0 ? 2 : 1, color: RGBColor(red: 210, green: 210, blue: 210))
            if tick % 20 == 0 {
                let text = "\(tick)%"
                image.drawText(text, x: left - 10 - BitmapFont.width(of: text, scale: scale), y: py - 7, color: ink, scale: scale)
            }
        }
        for (g, label) in labels.enumerated() {
            let groupX = left + 20 + g * groupStride
            for (i, s) in series.enumerated() {
                let bx = groupX + i * barWidth
                guard let value = s.values[label], value.isFinite else {
                    image.drawText("-", x: bx + barWidth / 2 - 5, y: y(0) - 20, color: ink, scale: scale)
                    continue
                }
                let base = s.color ?? TriggerPalette.color(for: label)
                let color = s.color == nil ? Self.shade(base, i) : base
                image.fillRectangle(x: bx, y: y(value), width: barWidth - 4, height: y(0) - y(value), color: color)
                let text = "\(Int((value * 100).rounded()))"
                image.drawText(
                    text, x: bx + (barWidth - 4 - BitmapFont.width(of: text, scale: scale)) / 2, y: y(value) - 20, color: ink, scale: scale)
            }
            image.drawText(
                label, x: groupX + (groupWidth - BitmapFont.width(of: label, scale: scale)) / 2, y: top + plotHeight + 14, color: ink,
                scale: scale)
        }
        return image
    }

    /// Series `i` of a group: the base colour, then lighter shades.
    static func shade(_ c: RGBColor, _ i: Int) -> RGBColor {
        let f = min(0.6, 0.3 * Double(i))
        func mix(_ v: UInt8) -> UInt8 { UInt8(Double(v) + (255 - Double(v)) * f) }
        return RGBColor(red: mix(c.red), green: mix(c.green), blue: mix(c.blue))
    }
}
