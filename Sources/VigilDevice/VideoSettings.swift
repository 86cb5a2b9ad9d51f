/// Picture settings (CameraAvStreamManagement).
public struct VideoSettings: Sendable, Hashable {
    /// Clockwise rotation in degrees, 0...359 (Google devices use 0 or 180).
    public var imageRotation: Int
    /// Mirror left-right.
    public var imageFlipHorizontal: Bool
    /// Mirror top-bottom.
    public var imageFlipVertical: Bool
    /// Crop/zoom window in sensor coordinates.
    public var viewport: Viewport
    /// Night vision mode.
    public var nightVision: NightVision
    /// Status light brightness, if the device has one.
    public var statusLightBrightness: StatusLightBrightness?
    /// Speaker volume 0...254, if the device has a speaker.
    public var speakerVolumeLevel: Int?

    /// Allowed rotations.
    public static let rotationRange = 0...359
    /// Allowed speaker levels.
    public static let speakerVolumeRange = 0...254

    /// Creates video settings.
    public init(
        imageRotation: Int = 0, imageFlipHorizontal: Bool = false, imageFlipVertical: Bool = false,
        viewport: Viewport = Viewport(x1: 0, y1: 0, x2: 2048, y2: 2048), nightVision: NightVision = .auto,
        statusLightBrightness: StatusLightBrightness? = nil, speakerVolumeLevel: Int? = nil
    ) {
        self.imageRotation = imageRotation
        self.imageFlipHorizontal = imageFlipHorizontal
        self.imageFlipVertical = imageFlipVertical
        self.viewport = viewport
        self.nightVision = nightVision
        self.statusLightBrightness = statusLightBrightness
        self.speakerVolumeLevel = speakerVolumeLevel
    }

    /// Every problem, fields relative to the settings: imageRotation 0...359, speakerVolumeLevel
    /// 0...254 (ConstraintError), and the viewport's rules against `maximum`.
    public func validationErrors(maximum: TwoDCartesianVertex) -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if !Self.rotationRange.contains(imageRotation) {
            errors.append(.outOfRange(imageRotation, Self.rotationRange, field: "imageRotation"))
        }
        errors += viewport.validationErrors(maximum: maximum).map {
            MatterCommandError($0.status, field: "viewport.\($0.field)", $0.reason)
        }
        if let speakerVolumeLevel, !Self.speakerVolumeRange.contains(speakerVolumeLevel) {
            errors.append(.outOfRange(speakerVolumeLevel, Self.speakerVolumeRange, field: "speakerVolumeLevel"))
        }
        return errors
    }
}
