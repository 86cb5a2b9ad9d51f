import Testing
import VigilCore
import VigilDevice
import VigilImaging

@testable import VigilVision

@Suite("Motion configuration from a device")
struct MotionConfigurationTests {
    /// Default device with motion zones 1 (trigger, sensitivity 9) and 2 (no trigger), privacy zone 3,
    /// and a focus-free person-only zone 4.
    func device(motionZones: [TransportZoneOptions]?, motionSensitivity: Int? = nil) throws -> Device {
        var device = Device.default
        var zones = device.zoneManagement
        func square(_ x: UInt16) -> [TwoDCartesianVertex] {
            [.init(x: x, y: 0), .init(x: x + 400, y: 0), .init(x: x + 400, y: 400), .init(x: x, y: 400)]
        }
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "A", use: [.motion], vertices: square(0), color: "#FF0000"))
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "B", use: [.motion], vertices: square(500)))
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "P", use: [.privacy], vertices: square(1000)))
        try zones.createTwoDCartesianZone(TwoDCartesianZone(name: "Q", use: [.person], vertices: square(1500)))
        try zones.createOrUpdateTrigger(ZoneTriggerControl(zoneID: 1, sensitivity: 9))
        device.zoneManagement = zones
        device.transport.triggerOptions.motionZones = motionZones
        device.transport.triggerOptions.motionSensitivity = motionSensitivity
        device.video.imageRotation = 180
        device.video.imageFlipHorizontal = true
        return device
    }

    @Test("zones, privacy zones, sensitivities and orientation come from the device")
    func fromDevice() throws {
        let config = MotionConfiguration(device: try device(motionZones: nil, motionSensitivity: 3))
        #expect(config.zones.map(\.id) == [1, 2])
        #expect(config.privacyZones.map(\.id) == [3])
        #expect(config.zones[0].sensitivity == Sensitivity(9))
        #expect(config.zones[1].sensitivity == Sensitivity(3))  // no trigger: transport motionSensitivity
        #expect(config.outsideSensitivity == Sensitivity(3))  // motionZones null: anywhere
        #expect(config.imageRotation == 180 && config.imageFlipHorizontal && !config.imageFlipVertical)
        #expect(config.zones[0].color == "#FF0000")
    }

    @Test("motionZones: empty means anywhere, a null entry reports outside motion, a list without it does not")
    func motionZones() throws {
        #expect(MotionConfiguration(device: try device(motionZones: [])).outsideSensitivity != nil)
        #expect(MotionConfiguration(device: try device(motionZones: [.init(zone: 1)])).outsideSensitivity == nil)
        let withNull = MotionConfiguration(device: try device(motionZones: [.init(zone: 1), .init(zone: nil, sensitivity: 2)]))
        #expect(withNull.outsideSensitivity == Sensitivity(2))
        let zoneEntry = MotionConfiguration(device: try device(motionZones: [.init(zone: 2, sensitivity: 7)]))
        #expect(zoneEntry.zones[1].sensitivity == Sensitivity(7))
        #expect(zoneEntry.zones[0].sensitivity == Sensitivity(9))  // the zone trigger wins
    }

    @Test("tiny frames and frame-size changes do not break the detector")
    func tinyFrames() {
        let detector = MotionDetector(configuration: MotionConfiguration(outsideSensitivity: .medium))
        for (i, (w, h)) in [(1, 1), (2, 3), (2, 3), (5, 1), (64, 48), (64, 48), (33, 17)].enumerated() {
            let image = RasterImage(width: w, height: h, format: .gray, fill: UInt8(i * 30))
            let result = detector.process(image, time: Double(i))
            #expect(result.zones.isEmpty)
            #expect(detector.layout?.mapping.frameWidth == w)
        }
    }

    @Test("overlay: privacy black, zones outlined in their colours, person-only zone drawn too")
    func overlay() throws {
        let overlay = ZoneOverlay(device: try device(motionZones: nil))
        #expect(overlay.items.map(\.id) == [1, 2, 3, 4])
        let image = RasterImage(width: 205, height: 205, format: .gray, fill: 128)
        let drawn = overlay.render(image, labels: false)
        // Rotation 180 + horizontal flip = vertical flip: grid (x, y) -> frame (x / 10, 204 - y / 10).
        #expect(drawn.color(x: 120, y: 184) == .black)  // privacy zone 1000...1400 x 0...400
        #expect(drawn.color(x: 20, y: 184) == RGBColor(red: 128, green: 128, blue: 128))
        let red = RGBColor(red: 255, green: 0, blue: 0)
        #expect((0..<205).contains { drawn.color(x: $0, y: 204) == red || drawn.color(x: $0, y: 203) == red })
    }

    @Test("thumbnail: labels are drawn on the small picture, so a 1080p frame and a 270p one give the same thumbnail")
    func thumbnailLabelsIndependentOfResolution() throws {
        let overlay = ZoneOverlay(device: try device(motionZones: nil))
        let large = overlay.thumbnail(of: RasterImage(width: 1920, height: 1080, format: .gray, fill: 128), width: 480, height: 270)
        let small = overlay.thumbnail(of: RasterImage(width: 480, height: 270, format: .gray, fill: 128), width: 480, height: 270)
        #expect(large.width == 480 && large.height == 270)
        let differing = zip(large.pixels, small.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) values differ: labels drawn at full size and scaled down blur away")
        // The label "1 A" is drawn in zone 1's colour at font scale 2 (14-pixel glyphs), readable.
        let red = RGBColor(red: 255, green: 0, blue: 0)
        let unlabelled = overlay.render(RasterImage(width: 480, height: 270, format: .gray, fill: 128), labels: false)
        let labelRows = Set(
            (0..<270).filter { y in (0..<480).contains { x in large.color(x: x, y: y) == red && unlabelled.color(x: x, y: y) != red } })
        #expect(labelRows.count >= 10, "label rows: \(labelRows.sorted())")
        // Privacy pixels stay black.
        #expect(large.color(x: 281, y: 250) == .black)
    }
}
