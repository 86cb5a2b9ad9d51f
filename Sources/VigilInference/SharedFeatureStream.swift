import VigilDSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One ``SoundFeatureExtractor`` shared by every learned detector on the same STFT stream, so
/// the features are computed once per frame however many detectors use them.
///
/// Detectors are created independently; each one calls ``SharedFeatureStream/stream(for:)``
/// with its first frame and keeps the result. Streams are told apart by the address of the
/// transform's power buffer (one per live STFT) and found in a small per-thread table of weak
/// references, so nothing global outlives the detectors. ``advance(_:)`` is idempotent per
/// frame: the first detector to see a frame computes, the others reuse.
public final class SharedFeatureStream {
    /// The extractor.
    public let extractor: SoundFeatureExtractor
    /// Decision vectors due at the newest frame (copied; usually zero or one).
    public private(set) var pending: [(centerTime: Double, availableTime: Double, vector: [Float])] = []
    /// Newest frame's index.
    public var newestIndex: Int { extractor.newestIndex }
    private var finished = false
    private var finishedDecisions: [(centerTime: Double, availableTime: Double, vector: [Float])] = []
    fileprivate let key: UnsafeRawPointer?

    /// A private (unshared) stream.
    public init(configuration: STFTConfiguration, spec: FeatureSpec = .current) {
        extractor = SoundFeatureExtractor(configuration: configuration, spec: spec)
        key = nil
    }

    fileprivate init(configuration: STFTConfiguration, key: UnsafeRawPointer) {
        extractor = SoundFeatureExtractor(configuration: configuration)
        self.key = key
    }

    /// Processes `frame` unless it already has been; returns the decisions due at it.
    public func advance(_ frame: SpectralFrame) -> [(centerTime: Double, availableTime: Double, vector: [Float])] {
        if frame.index == extractor.newestIndex { return pending }
        pending.removeAll(keepingCapacity: true)
        extractor.process(frame) { w in
            pending.append((w.centerTime, w.availableTime, Array(w.vector)))
        }
        return pending
    }

    /// End of stream (idempotent): the remaining decisions.
    public func finish() -> [(centerTime: Double, availableTime: Double, vector: [Float])] {
        if !finished {
            finished = true
            extractor.finish { w in finishedDecisions.append((w.centerTime, w.availableTime, Array(w.vector))) }
        }
        return finishedDecisions
    }

    /// The shared stream for the STFT that produced `frame` (created if none is live).
    public static func stream(for frame: SpectralFrame) -> SharedFeatureStream {
        let table = StreamTable.current
        let key = UnsafeRawPointer(frame.power.baseAddress!)
        table.entries.removeAll { $0.stream == nil }
        if let live = table.entries.first(where: { $0.key == key && $0.configuration == frame.configuration })?.stream,
            !live.finished,
            live.extractor.newestIndex == frame.index || live.extractor.newestIndex == frame.index - 1
        {
            return live
        }
        let fresh = SharedFeatureStream(configuration: frame.configuration, key: key)
        table.entries.removeAll { $0.key == key }
        table.entries.append(StreamTable.Entry(key: key, configuration: frame.configuration, stream: fresh))
        if table.entries.count > 64 { table.entries.removeFirst() }
        return fresh
    }
}

/// Per-thread table of live shared streams.
final class StreamTable {
    struct Entry {
        let key: UnsafeRawPointer
        let configuration: STFTConfiguration
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
