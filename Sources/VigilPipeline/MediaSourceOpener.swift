import VigilCore
import VigilImaging
import VigilSynth

/// Chooses the source for a live run's SOURCE argument: `-` is raw PCM on stdin with a rate, else
/// y4m frames; `*.json` a scenario rendered on the fly; `*.y4m` a y4m file; anything else an audio
/// file libsndfile reads. A new input format for `vigil live` is registered here.
public enum MediaSourceOpener {
    /// Opens `argument`.
    /// - Throws: ``ScenarioLoadFailure``, ``FrameSourceError``, ``SourceReadError`` or an audio
    ///   file error, each naming the source and the reason.
    public static func open(_ argument: String, rawPCMRate: Int?, channels: Int, limits: InputLimits) throws -> any MediaSource {
        if argument == "-" {
            if let rawPCMRate { return StdinPCMSource(sampleRate: rawPCMRate, channels: channels, maxDuration: limits.maxAudioDuration) }
            do {
                return try Y4MVideoSource(path: "-", limits: ImageLimits(limits))
            } catch {
                throw SourceReadError(reason: "\(error) (raw PCM on stdin needs --rate)")
            }
        }
        if argument.lowercased().hasSuffix(".json") {
            let loaded = try ScenarioLoader.load(path: argument, limits: limits)
            return ScenarioSource(renderer: try ScenarioRenderer(scenario: loaded.scenario, clips: loaded.clips), name: argument)
        }
        if argument.lowercased().hasSuffix(".y4m") {
            return try Y4MVideoSource(path: argument, limits: ImageLimits(limits))
        }
        return try FileAudioSource(path: argument, limits: limits)
    }
}
