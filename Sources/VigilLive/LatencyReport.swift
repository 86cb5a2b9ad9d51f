import VigilCore

/// Delivery latency of events over a stream, in seconds: from the wall-clock time at which the
/// media that completed a record was due (the pacer's mapping of its `emittedAt`) to its
/// arrival at a client; and, for information, from the event's `detectedAt` (which includes
/// the detector's own wait, e.g. the sound detector's 0.8 s hangover, and ebr clip closing).
public struct LatencyReport: Sendable, Hashable {
    /// Pipeline latencies (emittedAt due time → arrival), seconds, one per event.
    public var pipeline: [Double]
    /// Detection latencies (detectedAt due time → arrival), seconds, one per event.
    public var detection: [Double]

    /// Creates a report.
    public init(pipeline: [Double], detection: [Double]) {
        self.pipeline = pipeline
        self.detection = detection
    }

    /// The `q` quantile (0...1, nearest rank) of `values`; 0 when empty.
    public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// The report as one JSON object (milliseconds).
    public var json: JSONValue {
        func ms(_ x: Double) -> JSONValue { .number((x * 10_000).rounded() / 10) }
        return [
            "v": 1, "type": "latency", "events": .number(Double(pipeline.count)),
            "medianMs": ms(Self.quantile(pipeline, 0.5)), "p99Ms": ms(Self.quantile(pipeline, 0.99)),
            "maxMs": ms(pipeline.max() ?? 0),
            "detectedAtMedianMs": ms(Self.quantile(detection, 0.5)), "detectedAtP99Ms": ms(Self.quantile(detection, 0.99)),
        ]
    }
}
