import VigilCore

/// Delivery latency of events over a stream, one sample per event (its `id`):
/// - **confirmation latency**, the figure the target is about: from the wall-clock time at
///   which the event's `detectedAt` (the media time of confirmation) was due, by the pacer's
///   media-to-wall mapping, to the arrival at the client of the event's first record
///   (`eventStarted`, or `event` when none came first);
/// - **pipeline latency**: from the due time of that record's `emittedAt` (the end of the
///   block that produced it) to its arrival: processing, engine, fan-out and HTTP only;
/// - **final latency** (for information): from `detectedAt` to the arrival of the final
///   `event` record, which waits for the end of the activity (and, in ebr, of its clip).
public struct LatencyReport: Sendable, Hashable {
    /// One event's latencies (seconds).
    public struct Sample: Sendable, Hashable {
        /// The event's trigger.
        public var trigger: String
        /// Whether an `eventStarted` record announced it.
        public var announcedByStart: Bool
        /// detectedAt due → first record's arrival.
        public var confirmation: Double
        /// First record's emittedAt due → its arrival.
        public var pipeline: Double
        /// detectedAt due → final `event` arrival (nil when it did not arrive).
        public var final: Double?

        /// Creates a sample.
        public init(trigger: String, announcedByStart: Bool, confirmation: Double, pipeline: Double, final: Double?) {
            self.trigger = trigger
            self.announcedByStart = announcedByStart
            self.confirmation = confirmation
            self.pipeline = pipeline
            self.final = final
        }
    }

    /// The samples, in arrival order of the events' first records.
    public var samples: [Sample]

    /// Creates a report.
    public init(samples: [Sample]) {
        self.samples = samples
    }

    /// Pipeline latencies (seconds), one per event: from the due time of its first record's
    /// `emittedAt` to that record's arrival.
    public var pipeline: [Double] { samples.map(\.pipeline) }

    /// Confirmation latencies (seconds), one per event: from its `detectedAt` due time to the
    /// arrival of its first record.
    public var confirmation: [Double] { samples.map(\.confirmation) }

    /// The `q` quantile (0...1, nearest rank) of `values`; 0 when empty.
    public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// The report as one JSON object (milliseconds): overall figures and, under `byTrigger`,
    /// the confirmation latency per trigger.
    public var json: JSONValue {
        func ms(_ x: Double) -> JSONValue { .number((x * 10_000).rounded() / 10) }
        func figures(_ samples: [Sample]) -> [(String, JSONValue)] {
            let confirmation = samples.map(\.confirmation)
            return [
                ("events", .number(Double(samples.count))),
                ("started", .number(Double(samples.filter(\.announcedByStart).count))),
                ("medianMs", ms(Self.quantile(confirmation, 0.5))), ("p99Ms", ms(Self.quantile(confirmation, 0.99))),
                ("maxMs", ms(confirmation.max() ?? 0)),
            ]
        }
        var members: [(String, JSONValue)] = [("v", 1), ("type", "latency")]
        members += figures(samples)
        let pipeline = samples.map(\.pipeline)
        let final = samples.compactMap(\.final)
        members += [
            ("pipelineMedianMs", ms(Self.quantile(pipeline, 0.5))), ("pipelineP99Ms", ms(Self.quantile(pipeline, 0.99))),
            ("finalMedianMs", ms(Self.quantile(final, 0.5))), ("finalP99Ms", ms(Self.quantile(final, 0.99))),
        ]
        let triggers = Set(samples.map(\.trigger)).sorted()
        members.append(
            (
                "byTrigger",
                .object(
                    JSONObject(
                        triggers.map { trigger in
                            (trigger, .object(JSONObject(figures(samples.filter { $0.trigger == trigger }))))
                        }))
            ))
        return .object(JSONObject(members))
    }
}
