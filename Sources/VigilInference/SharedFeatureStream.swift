import VigilDSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One ``SoundFeatureExtractor`` shared by every learned detector on the same STFT stream, so
/// the features are computed once per frame however many detectors use them.
///
/// The features are taken on the frames a model names (``FeatureFrames``): the incoming frames
/// themselves, or where those differ (``FeatureFrames/fixedDuration`` at 8, 16, 32 or 48 kHz), the
/// frames of a transform the stream runs itself on the samples each incoming frame adds. Detectors
/// whose models name different frames get different streams where those frames differ, and one
/// stream where they are the same (at 11.025, 22.05 and 44.1 kHz).
///
/// Detectors are created independently; each one calls ``SharedFeatureStream/stream(for:frames:)``
/// with its first frame and keeps the result. Streams are told apart by the address of the
/// transform's power buffer (one per live STFT) and found in a small per-thread table of weak
/// references, so nothing global outlives the detectors. ``advance(_:)`` is idempotent per
/// frame: the first detector to see a frame computes, the others reuse.
public final class SharedFeatureStream {
    /// The extractor.
    public let extractor: SoundFeatureExtractor
    /// Decision vectors due at the newest frame (copied; usually zero or one).
    public private(set) var pending: [(centerTime: Double, availableTime: Double, vector: [Float])] = []
    /// The feature frames measured by the newest ``advance(_:)`` or by ``finish()``: each frame's centre time
    /// and its per-frame columns (``SoundFeatureExtractor/newestColumns``), `columnCount` values each.
    public private(set) var measuredTimes: [Double] = []
    /// The columns of ``measuredTimes``' frames, one after the other.
    public private(set) var measuredColumns: [Float] = []
    /// Values per frame in ``measuredColumns``.
    public var columnCount: Int { extractor.newestColumns.count }
    private var finished = false
    private var finishedDecisions: [(centerTime: Double, availableTime: Double, vector: [Float])] = []
    private var lastIncomingIndex = -1
    /// The transform of the feature frames, when the incoming frames are not of that configuration.
    private let transform: ShortTimeFourierTransform?
    fileprivate let key: UnsafeRawPointer?

    /// The frames the features are taken on.
    public let frames: FeatureFrames
    /// A private (unshared) stream for incoming frames of `configuration`, its features taken on `frames`.
    public convenience init(configuration: STFTConfiguration, frames: FeatureFrames = .shared, spec: FeatureSpec = .current) {
        self.init(configuration: configuration, frames: frames, spec: spec, key: nil)
    }

    private init(configuration: STFTConfiguration, frames: FeatureFrames, spec: FeatureSpec, key: UnsafeRawPointer?) {
        let features = frames.configuration(incoming: configuration)
        extractor = SoundFeatureExtractor(configuration: features, spec: spec)
        transform = features == configuration ? nil : ShortTimeFourierTransform(configuration: features)
        self.frames = frames
        self.key = key
    }

    /// Processes `frame` unless it already has been; returns the decisions due at it (and sets
    /// ``measuredTimes`` and ``measuredColumns`` to the feature frames it completed).
    public func advance(_ frame: SpectralFrame) -> [(centerTime: Double, availableTime: Double, vector: [Float])] {
        if frame.index == lastIncomingIndex { return pending }
        lastIncomingIndex = frame.index
        pending.removeAll(keepingCapacity: true)
        measuredTimes.removeAll(keepingCapacity: true)
        measuredColumns.removeAll(keepingCapacity: true)
        guard let transform else {
            measure(frame)
            return pending
        }
        // The samples this frame adds to the stream: all of the first frame, the last hop of the others.
        let first = frame.index == 0 ? 0 : frame.configuration.windowSize - frame.configuration.hopSize
        if frame.validCount > first {
            let added = UnsafeBufferPointer(rebasing: frame.samples[first..<frame.validCount])
            transform.process(added) { measure($0) }
        }
        return pending
    }

    private func measure(_ frame: SpectralFrame) {
        extractor.process(frame) { w in
            pending.append((w.centerTime, w.availableTime, Array(w.vector)))
        }
        measuredTimes.append(frame.centerTime)
        measuredColumns.append(contentsOf: extractor.newestColumns)
    }

    /// End of stream (idempotent): the remaining decisions (and the last feature frames in
    /// ``measuredTimes`` and ``measuredColumns``).
    public func finish() -> [(centerTime: Double, availableTime: Double, vector: [Float])] {
        if !finished {
            finished = true
            pending.removeAll(keepingCapacity: true)
            measuredTimes.removeAll(keepingCapacity: true)
            measuredColumns.removeAll(keepingCapacity: true)
            transform?.finish { measure($0) }
            finishedDecisions = pending
            extractor.finish { w in finishedDecisions.append((w.centerTime, w.availableTime, Array(w.vector))) }
        }
        return finishedDecisions
    }

    /// The shared stream with features on `frames` for the STFT that produced `frame` (created if none is live).
    public static func stream(for frame: SpectralFrame, frames requested: FeatureFrames = .shared) -> SharedFeatureStream {
        // Frames that are the incoming ones (fixed-duration frames at 11.025, 22.05 and 44.1 kHz) share their stream.
        let frames = requested.configuration(incoming: frame.configuration) == frame.configuration ? .shared : requested
        let table = StreamTable.current
        let key = UnsafeRawPointer(frame.power.baseAddress!)
        table.entries.removeAll { $0.stream == nil }
        if let live = table.entries.first(where: { $0.key == key && $0.configuration == frame.configuration && $0.frames == frames })?
            .stream,
            !live.finished,
            live.lastIncomingIndex == frame.index || live.lastIncomingIndex == frame.index - 1
        {
            return live
        }
        let fresh = SharedFeatureStream(configuration: frame.configuration, frames: frames, spec: .current, key: key)
        table.entries.removeAll { $0.key == key && $0.frames == frames }
        table.entries.append(StreamTable.Entry(key: key, configuration: frame.configuration, frames: frames, stream: fresh))
        if table.entries.count > 64 { table.entries.removeFirst() }
        return fresh
    }
}

/// Per-thread table of live shared streams.
final class StreamTable {
    struct Entry {
        let key: UnsafeRawPointer
        let configuration: STFTConfiguration
        let frames: FeatureFrames
        weak var stream: SharedFeatureStream?
    }
    var entries: [Entry] = []

    static var current: StreamTable {
        if let raw = pthread_getspecific(tableKey) {
            return Unmanaged<StreamTable>.fromOpaque(raw).takeUnretainedValue()
        }
        let table = StreamTable()
        pthread_setspecific(tableKey, Unmanaged.passRetained(table).toOpaque())
        return table
    }
}

private let tableKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<StreamTable>.fromOpaque(raw).release()
    }
    return key
}()
