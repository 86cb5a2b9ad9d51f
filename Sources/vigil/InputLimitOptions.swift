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

    @Option(
        help: ArgumentHelp("Longest audio recording or stream, in seconds (default 86400 = 24 h; inf: no limit).", valueName: "SECONDS"))
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
            do {
                return try InputLimits.overriding(
                    maxImageSize: maxImageSize, maxImageBytes: maxImageBytes, maxAudioDuration: maxAudioDuration, maxChannels: maxChannels,
                    maxJSONBytes: maxJsonBytes, maxJSONDepth: maxJsonDepth, maxZones: maxZones)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func validate() throws { _ = try limits }
}
extension InputShard: ExpressibleByArgument {}
