import ArgumentParser
import VigilMedia

/// What to read from camera recordings and streams, shared by `vigil analyze` and `vigil live` (docs/video.md).
struct MediaOptions: ParsableArguments {
    @Flag(help: "Do not analyze the video of camera recordings and streams.") var noVideo = false
    @Flag(help: "Do not analyze the audio of camera recordings and streams.") var noAudio = false
    @Option(help: .init("Video frames analyzed per second of media.", valueName: "FPS")) var analysisFps: Double = 5

    /// The reader options these flags give.
    var readerOptions: MediaReaderOptions { MediaReaderOptions(readsAudio: !noAudio, readsVideo: !noVideo, analysisFPS: analysisFps) }
}
