import VigilSynth

/// A source of media for an analysis run: audio (``AudioSource``) or video frames
/// (``VideoSource``). Files are read as fast as the run asks; live runs pace them by the media
/// clock, or by arrival for real-time sources.
public protocol MediaSource: AnyObject {
    /// The name records carry as `file`.
    var name: String { get }
    /// `true` when the media arrives in real time (stdin): it is processed as it arrives
    /// instead of being paced by the media clock.
    var pacedByArrival: Bool { get }
}

/// Audio for an analysis run: mono samples in media order. Implementations: a file any format
/// libsndfile reads (``FileAudioSource``), raw PCM on stdin (``StdinPCMSource``), a scenario
/// rendered on the fly (``ScenarioSource``) and samples in memory (``SampleBufferSource``).
public protocol AudioSource: MediaSource {
    /// Samples per second.
    var sampleRate: Double { get }
    /// Reads up to `buffer.count` samples; returns how many (0 at the end of the source).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
    /// Starts again from the beginning (for `--loop`); returns `false` when the source cannot.
    func rewind() throws -> Bool
}

/// A scenario rendered block by block by ``ScenarioRenderer`` (the code behind `vigil synth`).
public final class ScenarioSource: AudioSource {
    /// The renderer.
    public private(set) var renderer: ScenarioRenderer
    /// The source name.
    public let name: String

    /// Creates a source; `name` defaults to "scenario".
    public init(renderer: ScenarioRenderer, name: String = "scenario") {
        self.renderer = renderer
        self.name = name
    }

    /// The scenario's sample rate.
    public var sampleRate: Double { Double(renderer.scenario.sampleRate) }
    /// Paced by the media clock.
    public var pacedByArrival: Bool { false }

    /// Renders the next samples.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let block = renderer.next(maxSamples: buffer.count)
        for (i, x) in block.enumerated() { buffer[i] = x }
        return block.count
    }

    /// Rewinds the renderer (the looped scene repeats exactly).
    public func rewind() throws -> Bool {
        renderer.rewind()
        return true
    }
}

/// Samples held in memory (tests, short clips).
public final class SampleBufferSource: AudioSource {
    /// The samples.
    public let samples: [Float]
    /// Samples per second.
    public let sampleRate: Double
    /// The source name.
    public let name: String
    /// Paced by the media clock.
    public var pacedByArrival: Bool { false }
    private var position = 0

    /// Creates a source over `samples`.
    public init(samples: [Float], sampleRate: Double, name: String = "buffer") {
        self.samples = samples
        self.sampleRate = sampleRate
        self.name = name
    }

    /// Copies the next samples.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let count = min(buffer.count, samples.count - position)
        for i in 0..<count { buffer[i] = samples[position + i] }
        position += count
        return count
    }

    /// Starts again.
    public func rewind() throws -> Bool {
        position = 0
        return true
    }
}
