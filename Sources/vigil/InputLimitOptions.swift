import ArgumentParser
import VigilCore
import VigilPipeline

/// The `--max-*` options shared by the commands that read outside input; each sets one
/// ``InputLimits`` value (defaults and errors in docs/RELIABILITY.md).
struct InputLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Largest image or video frame, WIDTHxHEIGHT pixels (default 16384x16384).", valueName: "WxH"))
    var maxImageSize: String?

    @Option(help: ArgumentHelp("Largest decoded image or video frame in bytes (default 268435456 = 256 MiB).", valueName: "BYTES"))
    var maxImageBytes: Int?

    @Option(help: ArgumentHelp("Longest audio recording or stream, in seconds (default 86400 = 24 h; inf: no limit).", valueName: "SECONDS"))
    var maxAudioDuration: Double?

    @Option(help: ArgumentHelp("Most audio channels in a file or raw PCM stream (default 64).", valueName: "N"))
    var maxChannels: Int?

    @Option(help: ArgumentHelp("Largest device or scenario file in bytes (default 4194304 = 4 MiB).", valueName: "BYTES"))
    var maxJsonBytes: Int?

    @Option(help: ArgumentHelp("Deepest JSON nesting in device and scenario files (default 64, at most 1000).", valueName: "N"))
    var maxJsonDepth: Int?

    @Option(help: ArgumentHelp("Most zones a device file may declare or hold (default 255).", valueName: "N"))
    var maxZones: Int?

    /// The limits: defaults with the options given applied.
    var limits: InputLimits {
        get throws {
            var limits = InputLimits.default
            if let maxImageSize {
                let parts = maxImageSize.lowercased().split(separator: "x").map { Int($0) }
                guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else {
                    throw ValidationError("--max-image-size \(maxImageSize): expected WIDTHxHEIGHT, e.g. 4096x4096")
                }
                limits.maxImageWidth = w
                limits.maxImageHeight = h
            }
            if let maxImageBytes { limits.maxImageBytes = maxImageBytes }
            if let maxAudioDuration { limits.maxAudioDuration = maxAudioDuration }
            if let maxChannels { limits.maxAudioChannels = maxChannels }
            if let maxJsonBytes { limits.maxJSONBytes = maxJsonBytes }
            if let maxJsonDepth { limits.maxJSONDepth = maxJsonDepth }
            if let maxZones { limits.maxZones = maxZones }
            if let problem = limits.problems.first { throw ValidationError(problem) }
            return limits
        }
    }

    func validate() throws { _ = try limits }
}
extension InputShard: ExpressibleByArgument {}
