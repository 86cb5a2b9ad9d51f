import VigilDevice
import VigilGeometry
import VigilImaging

/// Draws a device's zones over a frame: privacy zones blacked out, other zones outlined in
/// their colours and labelled. Used for snapshots and `vigil zones draw`. Pure.
public struct ZoneOverlay: Sendable {
    /// One zone to draw.
    public struct Item: Sendable, Hashable {
        /// Zone ID.
        public var id: UInt16
        /// Display name.
        public var name: String
        /// Polygon in grid coordinates.
        public var polygon: GridPolygon
        /// Outline colour.
        public var color: RGBColor
        /// Privacy zones are filled black instead of outlined.
        public var isPrivacy: Bool

        /// Creates an item.
        public init(id: UInt16, name: String, polygon: GridPolygon, color: RGBColor, isPrivacy: Bool) {
            self.id = id
            self.name = name
            self.polygon = polygon
            self.color = color
            self.isPrivacy = isPrivacy
        }
    }

    /// Colours for zones without one, by position.
    public static let palette: [RGBColor] = [
        RGBColor(red: 0, green: 200, blue: 255), RGBColor(red: 255, green: 200, blue: 0), RGBColor(red: 0, green: 230, blue: 90),
        RGBColor(red: 255, green: 80, blue: 200), RGBColor(red: 255, green: 120, blue: 40), RGBColor(red: 160, green: 120, blue: 255),
    ]

    /// The zones.
    public var items: [Item]
    /// The grid, rotation and flips (only these fields of the configuration are used).
    public var configuration: MotionConfiguration

    /// The overlay of every zone of `device` (motion, privacy and any other use).
    public init(device: Device) {
        configuration = MotionConfiguration(device: device)
        items = device.zoneManagement.zones.enumerated().map { index, information in
            let zone = information.zone
            return Item(
                id: information.zoneID, name: zone.name, polygon: GridPolygon(zone.vertices.map(\.gridPoint)),
                color: zone.color.flatMap(RGBColor.init(hex:)) ?? Self.palette[index % Self.palette.count],
                isPrivacy: zone.isPrivacyZone)
        }
    }

    /// The overlay of a motion configuration's zones and privacy zones.
    public init(configuration: MotionConfiguration) {
        self.configuration = configuration
        var items: [Item] = []
        for (index, zone) in configuration.zones.enumerated() where zone.id != nil {
            items.append(
                Item(
                    id: zone.id!, name: zone.name, polygon: zone.polygon,
                    color: zone.color.flatMap(RGBColor.init(hex:)) ?? Self.palette[index % Self.palette.count], isPrivacy: false))
        }
        for zone in configuration.privacyZones where zone.id != nil {
            items.append(Item(id: zone.id!, name: zone.name, polygon: zone.polygon, color: .black, isPrivacy: true))
        }
        self.items = items
    }

    /// The full-resolution privacy mask (1 = private) for a `width` x `height` frame.
    public func privacyMask(width: Int, height: Int) -> [UInt8] {
        let mapping = configuration.mapping(frameWidth: width, frameHeight: height)
        var mask = [UInt8](repeating: 0, count: width * height)
        for item in items where item.isPrivacy {
            let zoneMask = ZoneRasterizer.mask(of: PreparedPolygon(item.polygon), mapping: mapping)
            for i in zoneMask.indices where zoneMask[i] != 0 { mask[i] = 1 }
        }
        return mask
    }

    /// A thumbnail of `frame` at `width` x `height`: privacy pixels blacked out at full size,
    /// then the picture scaled and the zones outlined and labelled on the small picture, with
    /// labels at font scale 2. Labels drawn before scaling would blur away, so the labels of a
    /// thumbnail do not depend on the frame's resolution.
    public func thumbnail(of frame: RasterImage, width: Int, height: Int) -> RasterImage {
        var rgb = frame.format == .rgb ? frame : frame.converted(to: .rgb)
        rgb.blackOut(mask: privacyMask(width: rgb.width, height: rgb.height))
        // The small picture's own privacy mask is applied again around the labels and outlines.
        return render(rgb.scaled(width: width, height: height), labelScale: 2)
    }

    /// `image` as RGB with every privacy pixel black and the other zones outlined in their
    /// colours (line width scaled to the frame, at least 2) and labelled with their ID and name.
    /// - Parameters:
    ///   - privacyMask: a precomputed ``privacyMask(width:height:)`` for this size.
    ///   - labelScale: the labels' font scale; default: one font pixel per 360 image pixels of the shorter side.
    public func render(_ image: RasterImage, privacyMask: [UInt8]? = nil, labels: Bool = true, labelScale: Int? = nil) -> RasterImage {
        var out = image.format == .rgb ? image : image.converted(to: .rgb)
        let mask = privacyMask ?? self.privacyMask(width: image.width, height: image.height)
        if mask.count == image.width * image.height { out.blackOut(mask: mask) }
        let mapping = configuration.mapping(frameWidth: image.width, frameHeight: image.height)
        let thickness = max(2, min(image.width, image.height) / 240)
        let scale = max(1, labelScale ?? min(image.width, image.height) / 360)
        for item in items where !item.isPrivacy {
            let points = item.polygon.vertices.map { mapping.framePoint(gridX: Double($0.x), gridY: Double($0.y)) }
            out.drawPolygon(points, color: item.color, thickness: thickness)
            if labels, let top = points.min(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
                let text = item.name.isEmpty ? "\(item.id)" : "\(item.id) \(item.name)"
                let x = min(
                    max(Int(top.x) + thickness + scale, scale), max(scale, image.width - BitmapFont.width(of: text, scale: scale) - scale))
                let y = min(max(Int(top.y) + thickness + scale, scale), max(scale, image.height - 8 * scale))
                out.drawText(text, x: x, y: y, color: item.color, scale: scale, background: RGBColor(red: 0, green: 0, blue: 0, alpha: 160))
            }
        }
        // Labels or outlines must not reveal privacy pixels: black them out again last.
        if mask.count == image.width * image.height { out.blackOut(mask: mask) }
        return out
    }
}
