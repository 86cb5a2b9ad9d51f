import VigilCore
import VigilDevice
import VigilGeometry

/// Everything the motion detector needs from a device: the grid, the picture orientation, the
/// motion zones with their sensitivities, the privacy zones, and whether motion outside every
/// zone is reportable.
public struct MotionConfiguration: Sendable, Hashable {
    /// Largest grid x.
    public var gridMaxX: Int
    /// Largest grid y.
    public var gridMaxY: Int
    /// Clockwise picture rotation in degrees (multiples of 90; others are rounded).
    public var imageRotation: Int
    /// Picture mirrored left-right.
    public var imageFlipHorizontal: Bool
    /// Picture mirrored top-bottom.
    public var imageFlipVertical: Bool
    /// Zones whose motion is reported, each with its own sensitivity.
    public var zones: [ActivityZone]
    /// Privacy zones: masked before motion analysis and blacked out in written images.
    public var privacyZones: [ActivityZone]
    /// Sensitivity for motion outside every zone; `nil` when such motion is not reported.
    public var outsideSensitivity: Sensitivity?
    /// How blobs are assigned to zones.
    public var anchor: BlobAnchor
    /// A zone reports motion only when at least this fraction of its area moves (0: any
    /// amount above the sensitivity's minimum area).
    public var minimumZoneFraction: Double
    /// Pipeline constants.
    public var parameters: MotionParameters
    /// Also say, per frame, which privacy zones had motion (``FrameMotion/privacyZonesWithMotion``),
    /// so that `--explain` can report it as withheld. Off by default: privacy pixels are then
    /// not looked at beyond the background model. Never gives a position or a size.
    public var reportsPrivacyMotion = false

    /// Creates a configuration.
    public init(
        gridMaxX: Int = 2048, gridMaxY: Int = 2048, imageRotation: Int = 0, imageFlipHorizontal: Bool = false,
        imageFlipVertical: Bool = false, zones: [ActivityZone] = [], privacyZones: [ActivityZone] = [],
        outsideSensitivity: Sensitivity? = .medium, anchor: BlobAnchor = .anyPixel, minimumZoneFraction: Double = 0,
        parameters: MotionParameters = MotionParameters()
    ) {
        self.gridMaxX = gridMaxX
        self.gridMaxY = gridMaxY
        self.imageRotation = imageRotation
        self.imageFlipHorizontal = imageFlipHorizontal
        self.imageFlipVertical = imageFlipVertical
        self.zones = zones
        self.privacyZones = privacyZones
        self.outsideSensitivity = outsideSensitivity
        self.anchor = anchor
        self.minimumZoneFraction = minimumZoneFraction
        self.parameters = parameters
    }

    /// The configuration of `device`:
    /// - motion zones: zones whose use includes motion (and not privacy), with
    ///   `Device.sensitivity(forZone:)`; a zone without a zone trigger takes its `motionZones`
    ///   entry's sensitivity when the transport lists one;
    /// - privacy zones: zones whose use includes privacy;
    /// - motion outside every zone is reported when `motionZones` is `nil`, empty, or lists the
    ///   `null` zone (with that entry's sensitivity, else `motionSensitivityOutsideZones`);
    /// - grid maximum, rotation and flips from the device.
    public init(
        device: Device, anchor: BlobAnchor = .anyPixel, minimumZoneFraction: Double = 0, parameters: MotionParameters = MotionParameters()
    ) {
        let management = device.zoneManagement
        let motionZones = device.transport.triggerOptions.motionZones
        func transportEntry(_ zone: UInt16?) -> TransportZoneOptions? { motionZones?.first(where: { $0.zone == zone }) }
        var zones: [ActivityZone] = []
        var privacy: [ActivityZone] = []
        for information in management.zones {
            let zone = information.zone
            let polygon = GridPolygon(zone.vertices.map(\.gridPoint))
            if zone.isPrivacyZone {
                privacy.append(
                    ActivityZone(id: information.zoneID, name: zone.name, polygon: polygon, sensitivity: .medium, color: zone.color))
            } else if zone.isMotionZone {
                var sensitivity = device.sensitivity(forZone: information.zoneID)
                if management.trigger(forZone: information.zoneID) == nil, let level = transportEntry(information.zoneID)?.sensitivity {
                    sensitivity = Sensitivity(level, maximum: 10)
                }
                zones.append(
                    ActivityZone(id: information.zoneID, name: zone.name, polygon: polygon, sensitivity: sensitivity, color: zone.color))
            }
        }
        var outside: Sensitivity?
        if motionZones == nil || motionZones!.isEmpty {
            outside = device.motionSensitivityOutsideZones
        } else if let entry = transportEntry(nil) {
            outside = entry.sensitivity.map { Sensitivity($0, maximum: 10) } ?? device.motionSensitivityOutsideZones
        }
        self.init(
            gridMaxX: Int(management.twoDCartesianMax.x), gridMaxY: Int(management.twoDCartesianMax.y),
            imageRotation: device.video.imageRotation, imageFlipHorizontal: device.video.imageFlipHorizontal,
            imageFlipVertical: device.video.imageFlipVertical, zones: zones, privacyZones: privacy,
            outsideSensitivity: outside, anchor: anchor, minimumZoneFraction: minimumZoneFraction, parameters: parameters)
    }

    /// The mapping for a `width` x `height` frame.
    public func mapping(frameWidth width: Int, frameHeight height: Int) -> GridMapping {
        GridMapping(
            frameWidth: width, frameHeight: height, maxX: gridMaxX, maxY: gridMaxY, rotation: imageRotation,
            flipHorizontal: imageFlipHorizontal, flipVertical: imageFlipVertical)
    }
}
