import VigilInference

/// Features of one recording: the decision vectors and the per-frame gate values.
package struct RecordingFeatures: Sendable {
    /// File name.
    package var name: String
    /// Duration (seconds).
    package var duration: Double
    /// Sample rate.
    package var sampleRate: Double
    /// Decision centre times.
    package var centerTimes: [Double] = []
    /// Times at which each decision was available.
    package var availableTimes: [Double] = []
    /// Decision vectors, row-major (`centerTimes.count x dimension`).
    package var matrix: [Float] = []
    /// Frame centre times.
    package var frameTimes: [Double] = []
    /// Per frame: flux, low-band flux, HF ratio, mean relative level, largest relative band level.
    package var gateValues: [Float] = []
    /// Per frame: the raw inputs of a ``TemporalConvolutionalNetwork`` (``TemporalConvolutionalNetwork/inputChannels`` values).
    package var networkInputs: [Float] = []
    /// The frames the features were taken on.
    package var frames: FeatureFrames

    /// Creates empty features for a recording, taken on `frames`.
    package init(name: String, duration: Double, sampleRate: Double, frames: FeatureFrames = .shared) {
        self.name = name
        self.duration = duration
        self.sampleRate = sampleRate
        self.frames = frames
    }
}
