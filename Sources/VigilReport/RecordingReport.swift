import Foundation
import VigilImaging

/// One event as drawn on a report.
public struct ReportEvent: Sendable, Hashable {
    /// Trigger wire name.
    public var trigger: String
    /// Onset (seconds).
    public var start: Double
    /// End (seconds).
    public var end: Double
    /// Confirmation time (seconds).
    public var detectedAt: Double
    /// Zone, for zone events.
    public var zone: Int?

    /// Creates an event.
    public init(trigger: String, start: Double, end: Double, detectedAt: Double, zone: Int? = nil) {
        self.trigger = trigger
        self.start = start
        self.end = end
        self.detectedAt = detectedAt
        self.zone = zone
    }
}

/// Draws a recording's report picture (report.png): a title, a legend, the spectrogram with a
/// frequency axis, the level trace, one lane per trigger with the events as coloured bars
/// (start and end edges, a white mark at detectedAt), and a time axis in seconds. Text uses the
/// 5x7 bitmap font at twice its size so it stays legible at the picture's native size. Pure.
public struct RecordingReport: Sendable {
    /// First line of the picture.
    public var title: String
    /// The reduced spectrogram and level trace.
    public var spectrogram: SpectrogramSummary
    /// Sample rate of the analyzed audio (for the frequency axis).
    public var sampleRate: Double
    /// Events to draw.
    public var events: [ReportEvent]
    /// Duration of the recording (seconds); the time axis spans it.
    public var duration: Double
    /// Width of the picture in pixels.
    public var width: Int
    /// Motion per zone over time (video recordings).
    public var zoneActivity: ZoneActivityTimeline?
    /// A frame with the zones drawn and privacy zones blacked out (video recordings).
    public var thumbnail: RasterImage?

    /// The size the thumbnail is drawn at (at most 480 x 270, keeping its aspect): draw labels on a
    /// picture of this size, so that scaling does not blur them.
    public static func thumbnailSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let w = max(1, min(480, width * 270 / max(height, 1)))
        return (w, max(1, height * w / max(width, 1)))
    }

    /// Creates a report. Without audio, pass a spectrogram that saw no frames: the spectrogram
    /// and level panels are then left out.
    public init(
        title: String, spectrogram: SpectrogramSummary, sampleRate: Double, events: [ReportEvent], duration: Double,
        width: Int = 1400, zoneActivity: ZoneActivityTimeline? = nil, thumbnail: RasterImage? = nil
    ) {
        self.title = title
        self.spectrogram = spectrogram
        self.sampleRate = sampleRate
        self.events = events
        self.duration = duration
        self.width = max(width, 600)
        self.zoneActivity = zoneActivity
        self.thumbnail = thumbnail
    }

    static let background = RGBColor(red: 255, green: 255, blue: 255)
    static let ink = RGBColor(red: 20, green: 20, blue: 20)
    static let grid = RGBColor(red: 200, green: 200, blue: 200)
    static let text = 2  // font scale
    static let left = 150
    static let right = 24

    /// The picture.
    public func render() -> RasterImage {
        let triggers = TriggerPalette.sorted(events.map(\.trigger))
        let laneHeight = 30
        let hasAudio = spectrogram.columnCount > 0
        let spectrogramTop = 100
        let spectrogramHeight = hasAudio ? 240 : 0
        let levelTop = spectrogramTop + spectrogramHeight + (hasAudio ? 16 : 0)
        let levelHeight = hasAudio ? 90 : 0
        let zonesTop = levelTop + levelHeight + (hasAudio ? 16 : 0)
        let zoneLanes = zoneActivity?.lanes.count ?? 0
        let zonesHeight = zoneLanes * 24 + (zoneLanes > 0 ? 16 : 0)
        let lanesTop = zonesTop + zonesHeight
        let lanesHeight = max(1, triggers.count) * laneHeight
        let axisTop = lanesTop + lanesHeight + 6
        let thumbnailTop = axisTop + 60
        let thumbnailHeight = thumbnail.map { min(270, $0.height * 480 / max($0.width, 1)) + 30 } ?? 0
        let height = axisTop + 56 + thumbnailHeight
        var image = RasterImage(width: width, height: height, format: .rgb, fill: 255)
        let plotWidth = width - Self.left - Self.right
        let span = max(duration, spectrogram.duration, 1e-3)
        func x(_ t: Double) -> Int { Self.left + Int((t / span * Double(plotWidth)).rounded()) }

        // Title and legend.
        image.drawText(title, x: 12, y: 10, color: Self.ink, scale: Self.text)
        var penX = 12
        let legendY = 40
        for trigger in triggers.isEmpty ? ["sound"] : triggers {
            image.fillRectangle(x: penX, y: legendY, width: 22, height: 14, color: TriggerPalette.color(for: trigger))
            image.drawText(trigger, x: penX + 28, y: legendY, color: Self.ink, scale: Self.text)
            penX += 28 + BitmapFont.width(of: trigger, scale: Self.text) + 24
        }
        let markY = legendY + 26
        image.fillRectangle(x: 12, y: markY, width: 3, height: 14, color: Self.ink)
        image.drawText("start/end edges", x: 20, y: markY, color: Self.ink, scale: Self.text)
        let detectedX = 20 + BitmapFont.width(of: "start/end edges", scale: Self.text) + 30
        image.fillRectangle(x: detectedX, y: markY, width: 22, height: 14, color: TriggerPalette.color(for: "sound"))
        image.fillRectangle(x: detectedX + 9, y: markY, width: 4, height: 14, color: .white)
        image.drawText("detected at", x: detectedX + 28, y: markY, color: Self.ink, scale: Self.text)
        if triggers.isEmpty {
            image.drawText(
                "no events", x: detectedX + 28 + BitmapFont.width(of: "detected at", scale: Self.text) + 30, y: markY, color: Self.ink,
                scale: Self.text)
        }

        if hasAudio {
            drawSpectrogram(into: &image, top: spectrogramTop, height: spectrogramHeight, plotWidth: plotWidth, span: span)
            drawLevel(into: &image, top: levelTop, height: levelHeight, plotWidth: plotWidth, span: span)
        }
        if let zoneActivity, zoneLanes > 0 {
            drawZoneActivity(zoneActivity, into: &image, top: zonesTop, plotWidth: plotWidth, span: span)
        }
        if let thumbnail {
            let (w, h) = Self.thumbnailSize(width: thumbnail.width, height: thumbnail.height)
            image.drawText("zones", x: 12, y: thumbnailTop, color: Self.ink, scale: Self.text)
            let small = thumbnail.converted(to: .rgb).scaled(width: w, height: h)
            for y in 0..<h { for x in 0..<w { image.setColor(small.color(x: x, y: y), x: Self.left + x, y: thumbnailTop + y) } }
        }

        // Event lanes.
        for (lane, trigger) in triggers.enumerated() {
            let top = lanesTop + lane * laneHeight
            let color = TriggerPalette.color(for: trigger)
            image.fillRectangle(
                x: Self.left, y: top, width: plotWidth, height: laneHeight - 4, color: RGBColor(red: 245, green: 245, blue: 245))
            image.drawText(
                trigger, x: Self.left - 8 - BitmapFont.width(of: trigger, scale: Self.text), y: top + 6, color: Self.ink, scale: Self.text)
            for e in events where e.trigger == trigger {
                let a = x(max(0, e.start))
                let b = max(a + 3, x(min(span, e.end)))
                image.fillRectangle(x: a, y: top + 2, width: b - a, height: laneHeight - 8, color: color)
                let dark = RGBColor(red: color.red / 2, green: color.green / 2, blue: color.blue / 2)
                image.fillRectangle(x: a, y: top + 2, width: 2, height: laneHeight - 8, color: dark)
                image.fillRectangle(x: b - 2, y: top + 2, width: 2, height: laneHeight - 8, color: dark)
                let d = x(min(span, max(0, e.detectedAt)))
                image.fillRectangle(x: d - 1, y: top, width: 4, height: laneHeight - 4, color: .white)
                image.fillRectangle(x: d, y: top, width: 2, height: laneHeight - 4, color: Self.ink)
            }
        }
        if triggers.isEmpty {
            image.fillRectangle(
                x: Self.left, y: lanesTop, width: plotWidth, height: laneHeight - 4, color: RGBColor(red: 245, green: 245, blue: 245))
        }

        // Time axis.
        image.fillRectangle(x: Self.left, y: axisTop, width: plotWidth, height: 2, color: Self.ink)
        let step = Self.niceStep(span / 10)
        var t = 0.0
        while t <= span + 1e-9 {
            let px = x(t)
            image.fillRectangle(x: px, y: axisTop, width: 2, height: 8, color: Self.ink)
            if axisTop > spectrogramTop {
                image.fillRectangle(
                    x: px, y: spectrogramTop, width: 1, height: axisTop - spectrogramTop,
                    color: RGBColor(red: 90, green: 90, blue: 90, alpha: 255))
            }
            let label = Self.format(t, step: step)
            image.drawText(
                label, x: px - BitmapFont.width(of: label, scale: Self.text) / 2, y: axisTop + 12, color: Self.ink, scale: Self.text)
            t += step
        }
        image.drawText(
            "time (s)", x: Self.left + plotWidth - BitmapFont.width(of: "time (s)", scale: Self.text), y: axisTop + 34, color: Self.ink,
            scale: Self.text)
        return image
    }

    private func drawSpectrogram(into image: inout RasterImage, top: Int, height: Int, plotWidth: Int, span: Double) {
        let bands = spectrogram.bandCount
        let columns = max(spectrogram.columnCount, 1)
        let covered = min(1, Double(columns) * spectrogram.secondsPerColumn / span)
        for px in 0..<plotWidth {
            let t = Double(px) / Double(plotWidth) * span
            let column = Int(t / spectrogram.secondsPerColumn)
            guard column < spectrogram.columnCount, Double(px) / Double(plotWidth) <= covered + 1e-9 else { continue }
            for py in 0..<height {
                let band = min(bands - 1, (height - 1 - py) * bands / height)
                let p = spectrogram.power(column: column, band: band)
                let db = p > 1e-12 ? 10 * log10(Double(p)) : -120
                image.setColor(Self.colormap((db + 100) / 100), x: Self.left + px, y: top + py)
            }
        }
        // Frequency axis.
        image.drawText("Hz", x: 12, y: top, color: Self.ink, scale: Self.text)
        let topHz = spectrogram.topFrequency(sampleRate: sampleRate)
        for f in [100.0, 300, 1000, 3000, 10_000] where f < topHz && f > spectrogram.minimumFrequency {
            let fraction = log(f / spectrogram.minimumFrequency) / log(topHz / spectrogram.minimumFrequency)
            let py = top + height - 1 - Int(fraction * Double(height - 1))
            image.fillRectangle(x: Self.left - 8, y: py, width: 8, height: 2, color: Self.ink)
            let label = f >= 1000 ? "\(Int(f / 1000))k" : "\(Int(f))"
            image.drawText(
                label, x: Self.left - 14 - BitmapFont.width(of: label, scale: Self.text), y: py - 7, color: Self.ink, scale: Self.text)
        }
    }

    private func drawZoneActivity(_ timeline: ZoneActivityTimeline, into image: inout RasterImage, top: Int, plotWidth: Int, span: Double) {
        for (l, lane) in timeline.lanes.enumerated() {
            let y0 = top + l * 24
            image.fillRectangle(x: Self.left, y: y0, width: plotWidth, height: 20, color: RGBColor(red: 245, green: 245, blue: 245))
            let label = lane.name.count > 11 ? String(lane.name.prefix(10)) + "." : lane.name
            image.drawText(
                label, x: Self.left - 8 - BitmapFont.width(of: label, scale: Self.text), y: y0 + 3, color: lane.color, scale: Self.text)
            for px in 0..<plotWidth {
                let column = Int(Double(px) / Double(plotWidth) * span / timeline.secondsPerColumn)
                guard column < timeline.columnCount else { continue }
                let v = Double(timeline.value(column: column, lane: l))
                guard v > 0 else { continue }
                // 10 % of the zone moving (or more) draws the full zone colour.
                let a = min(1, 0.25 + v * 7.5)
                func mix(_ c: UInt8) -> UInt8 { UInt8(245 - (245 - Double(c)) * a) }
                image.fillRectangle(
                    x: Self.left + px, y: y0, width: 1, height: 20,
                    color: RGBColor(red: mix(lane.color.red), green: mix(lane.color.green), blue: mix(lane.color.blue)))
            }
        }
    }

    private func drawLevel(into image: inout RasterImage, top: Int, height: Int, plotWidth: Int, span: Double) {
        image.fillRectangle(x: Self.left, y: top, width: plotWidth, height: height, color: RGBColor(red: 248, green: 248, blue: 248))
        let floorDB = -90.0
        func y(_ db: Double) -> Int { top + Int((1 - (max(floorDB, min(0, db)) - floorDB) / -floorDB) * Double(height - 1)) }
        for db in [-80.0, -60, -40, -20, 0] {
            image.fillRectangle(x: Self.left, y: y(db), width: plotWidth, height: 1, color: Self.grid)
            let label = "\(Int(db))"
            image.drawText(
                label, x: Self.left - 14 - BitmapFont.width(of: label, scale: Self.text), y: y(db) - 7, color: Self.ink, scale: Self.text)
        }
        image.drawText("dBFS", x: 12, y: top, color: Self.ink, scale: Self.text)
        var previous: (Double, Double)?
        for px in 0..<plotWidth {
            let t = Double(px) / Double(plotWidth) * span
            let column = Int(t / spectrogram.secondsPerColumn)
            guard column < spectrogram.columnCount, let level = spectrogram.maximumLevel(column: column) else {
                previous = nil
                continue
            }
            let point = (Double(Self.left + px), Double(y(Double(level))))
            if let previous {
                image.drawLine(
                    from: (x: previous.0, y: previous.1), to: (x: point.0, y: point.1), color: RGBColor(red: 30, green: 60, blue: 160),
                    thickness: 2)
            }
            previous = point
        }
    }

    /// A dark-to-bright colour map (black, purple, red, orange, pale yellow) for 0...1.
    static func colormap(_ value: Double) -> RGBColor {
        let stops: [(Double, Double, Double)] = [(0, 0, 4), (80, 18, 123), (183, 55, 121), (251, 136, 97), (252, 253, 191)]
        let v = min(max(value, 0), 1) * Double(stops.count - 1)
        let i = min(Int(v), stops.count - 2)
        let f = v - Double(i)
        let a = stops[i]
        let b = stops[i + 1]
        return RGBColor(
            red: UInt8(a.0 + (b.0 - a.0) * f), green: UInt8(a.1 + (b.1 - a.1) * f), blue: UInt8(a.2 + (b.2 - a.2) * f))
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        for m in [1.0, 2, 5, 10] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }

    static func format(_ t: Double, step: Double) -> String {
        step >= 1 ? String(Int(t.rounded())) : String(format: "%.1f", t)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
