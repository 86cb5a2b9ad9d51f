/// Bounds on everything that comes from outside (recordings, frames, device and scenario
/// files), so that a hostile or broken input ends in a clear error instead of exhausting
/// memory or time. One value holds every shared limit; each reader takes it (or the part it
/// needs) and the CLI sets it from its `--max-*` options. docs/RELIABILITY.md lists them all.
///
/// Limits fixed by the Matter device model (3...12 vertices per zone, 32-character zone names,
/// UInt16 coordinates) are not configurable and stay with the model types.
public struct InputLimits: Sendable, Hashable {
    /// Largest accepted image or video frame width in pixels.
    public var maxImageWidth: Int
    /// Largest accepted image or video frame height in pixels.
    public var maxImageHeight: Int
    /// Largest decoded size of one image or frame in bytes (PNG bombs, absurd y4m headers).
    public var maxImageBytes: Int
    /// Longest accepted audio recording in seconds (declared by the header or reached while reading).
    public var maxAudioDuration: Double
    /// Most channels accepted in an audio file or raw PCM stream.
    public var maxAudioChannels: Int
    /// Largest accepted JSON document (device file, scenario file) in bytes.
    public var maxJSONBytes: Int
    /// Deepest accepted nesting of JSON arrays and objects.
    public var maxJSONDepth: Int
    /// Most zones a device may declare (`maxZones`) or hold; Matter's MaxZones is a uint8.
    public var maxZones: Int

    /// Creates limits; every default is the documented one.
    public init(
        maxImageWidth: Int = 16_384, maxImageHeight: Int = 16_384, maxImageBytes: Int = 256 << 20,
        maxAudioDuration: Double = 86_400, maxAudioChannels: Int = 64,
        maxJSONBytes: Int = 4 << 20, maxJSONDepth: Int = 64, maxZones: Int = 255
    ) {
        self.maxImageWidth = maxImageWidth
        self.maxImageHeight = maxImageHeight
        self.maxImageBytes = maxImageBytes
        self.maxAudioDuration = maxAudioDuration
        self.maxAudioChannels = maxAudioChannels
        self.maxJSONBytes = maxJSONBytes
        self.maxJSONDepth = maxJSONDepth
        self.maxZones = maxZones
    }

    /// The documented defaults: 16384 x 16384 pixels and 256 MiB per image, 24 h and 64 channels
    /// of audio, 4 MiB and 64 levels of JSON, 255 zones.
    public static let `default` = InputLimits()

    /// One limit: its name in this type and the `vigil` option that raises it.
    public enum Limit: String, Sendable, CaseIterable {
        case imageWidth, imageHeight, imageBytes, audioDuration, audioChannels, jsonBytes, jsonDepth, zones

        /// The command-line option that sets this limit.
        public var option: String {
            switch self {
            case .imageWidth, .imageHeight: return "--max-image-size WxH"
            case .imageBytes: return "--max-image-bytes"
            case .audioDuration: return "--max-audio-duration"
            case .audioChannels: return "--max-channels"
            case .jsonBytes: return "--max-json-bytes"
            case .jsonDepth: return "--max-json-depth"
            case .zones: return "--max-zones"
            }
        }

        /// The property of ``InputLimits`` that holds this limit.
        public var property: String {
            switch self {
            case .imageWidth: return "maxImageWidth"
            case .imageHeight: return "maxImageHeight"
            case .imageBytes: return "maxImageBytes"
            case .audioDuration: return "maxAudioDuration"
            case .audioChannels: return "maxAudioChannels"
            case .jsonBytes: return "maxJSONBytes"
            case .jsonDepth: return "maxJSONDepth"
            case .zones: return "maxZones"
            }
        }

        /// How to raise the limit, for the end of an error message:
        /// "(limit InputLimits.maxZones; raise it with --max-zones)".
        public var raiseHint: String { "(limit InputLimits.\(property); raise it with \(option))" }
    }

    /// Highest allowed ``maxJSONDepth``: the parser recurses once per level.
    public static let maxJSONDepthCeiling = 1000

    /// The default limits with the given overrides applied (the `--max-*` options); `maxImageSize` is
    /// `WIDTHxHEIGHT`. Throws the first problem, naming the option.
    public static func overriding(
        maxImageSize: String? = nil, maxImageBytes: Int? = nil, maxAudioDuration: Double? = nil, maxChannels: Int? = nil,
        maxJSONBytes: Int? = nil, maxJSONDepth: Int? = nil, maxZones: Int? = nil
    ) throws(InputLimitsError) -> InputLimits {
        var limits = InputLimits.default
        if let maxImageSize {
            let parts = maxImageSize.lowercased().split(separator: "x").map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else {
                throw InputLimitsError(description: "--max-image-size \(maxImageSize): expected WIDTHxHEIGHT, e.g. 4096x4096")
            }
            (limits.maxImageWidth, limits.maxImageHeight) = (w, h)
        }
        if let maxImageBytes { limits.maxImageBytes = maxImageBytes }
        if let maxAudioDuration { limits.maxAudioDuration = maxAudioDuration }
        if let maxChannels { limits.maxAudioChannels = maxChannels }
        if let maxJSONBytes { limits.maxJSONBytes = maxJSONBytes }
        if let maxJSONDepth { limits.maxJSONDepth = maxJSONDepth }
        if let maxZones { limits.maxZones = maxZones }
        if let problem = limits.problems.first { throw InputLimitsError(description: problem) }
        return limits
    }

    /// Every problem with the limits themselves (each must be positive).
    public var problems: [String] {
        var out: [String] = []
        if maxImageWidth < 1 || maxImageHeight < 1 { out.append("the image size limit must be at least 1x1") }
        if maxImageBytes < 1 { out.append("the image byte limit must be positive") }
        if !(maxAudioDuration > 0) { out.append("the audio duration limit must be a positive number of seconds") }
        if maxAudioChannels < 1 { out.append("the channel limit must be at least 1") }
        if maxJSONBytes < 1 { out.append("the JSON size limit must be positive") }
        if !(1...Self.maxJSONDepthCeiling).contains(maxJSONDepth) {
            out.append("the JSON depth limit must be 1...\(Self.maxJSONDepthCeiling) (the parser recurses once per level)")
        }
        if maxZones < 1 { out.append("the zone limit must be at least 1") }
        return out
    }

    /// "1.5 MiB", "300 KiB", "12 bytes": a byte count for messages.
    public static func byteText(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

/// Limits that cannot be used: the option and the reason.
public struct InputLimitsError: Error, Sendable, CustomStringConvertible {
    /// The option and the reason.
    public var description: String
}
