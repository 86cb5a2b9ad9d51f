import ArgumentParser
import Foundation
import VigilAnalysis
import VigilAudioIO
import VigilCore
import VigilDSP
import VigilDetectors
import VigilEvents
import VigilGeometry
import VigilImaging
import VigilReport
import VigilScoring
import VigilSynth
import VigilTraining
import VigilVision

/// `vigil bench`: detector accuracy and speed.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure detector accuracy (sed_eval-compatible scoring) and speed.",
        discussion: "See BENCHMARKS.md for how the published figures were produced.",
        subcommands: [Accuracy.self, Speed.self, Kernels.self, Batch.self, Motion.self])
}

extension BenchCommand {
    /// `vigil bench accuracy`.
    struct Accuracy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the detectors on labeled recordings (or read a detection file) and score them.",
            discussion: """
                LABELS.tsv holds the references, `filename<TAB>onset<TAB>offset<TAB>label` (DCASE style; file \
                names relative to AUDIO_DIR). Every audio file under AUDIO_DIR is evaluated; files without a \
                reference are negative material.

                Reports per label and overall: event-based precision, recall, F1 and error rate with the chosen \
                onset collar (default 0.5 s, offsets ignored: the DCASE 2017 setting) and with sed_eval's default \
                setting (0.2 s collar, offsets within max(0.2 s, 50 %)); segment-based F1; false alarms per hour \
                on files without that label; and the detection latency distribution (reference onset to \
                detectedAt). Scores agree with the Python package sed_eval (docs/scoring.md). When a \
                PROVENANCE.tsv lies beside LABELS.tsv (or --provenance names one), voices in children-playing, \
                room-ambience and street-music material are not counted against personTalking; \
                --count-voice-background turns that off.

                Examples:
                  vigil bench accuracy --labels ../shared/data/dev/labels.tsv ../shared/data/dev/audio
                  vigil bench accuracy --labels labels.tsv audio/ --system detections.tsv --json
                """)

        @Option(help: "Reference annotations (TSV).")
        var labels: String

        @Argument(help: "Directory with the recordings.")
        var audioDir: String

        @Option(help: "Onset collar in seconds for the main event-based scores.")
        var collar: Double = 0.5

        @Flag(help: "Also require offsets within max(collar, 50 % of the reference length).")
        var offsets = false

        @Option(help: "Segment length in seconds for segment-based scores.")
        var segment: Double = 1.0

        @Option(help: "Score this detection file (TSV, same format as the labels) instead of running the detectors.")
        var system: String?

        @Option(help: "Write the detectors' output as a TSV detection file (for sed_eval or --system).")
        var writeSystem: String?

        @Option(
            help: ArgumentHelp(
                "PROVENANCE.tsv saying which files hold voice-background material (default: beside LABELS.tsv, if present).",
                discussion: "Voices in children-playing, room-ambience and street-music material are not counted against personTalking."))
        var provenance: String?

        @Flag(help: "Count personTalking detections in voice-background material like any other (plain sed_eval).")
        var countVoiceBackground = false

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @Option(help: "Also draw a PNG chart of F1 per label (event-based and segment-based).")
        var chart: String?

        @Option(help: "Recordings analyzed in parallel (default: all cores).")
        var jobs: Int?

        @Flag(help: "Do not show the progress bar.")
        var noProgress = false

        @Flag(help: "List every file that has references but is not in AUDIO_DIR (otherwise only their count).")
        var verbose = false

        @OptionGroup(title: "Sound models")
        var modelOptions: ModelOptions

        func validate() throws {
            guard collar > 0 else { throw ValidationError("--collar must be positive") }
            guard segment > 0 else { throw ValidationError("--segment must be positive") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        }

        func run() throws {
            let models = try modelOptions.loadOrExit()
            let reference = try Self.readAnnotations(labels, option: "--labels")
            // Read before the detectors run, so that a bad provenance file does not cost the run.
            var notCounted: [String: VoiceBackground] = [:]
            let provenanceRows = try ProvenanceFile.rows(named: provenance, labels: labels)
            if !countVoiceBackground, let rows = provenanceRows {
                notCounted[EventTriggerType.personTalking.rawValue] = DevelopmentSet.voiceBackground(provenance: rows)
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: audioDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("\(audioDir): not a directory")
            }
            let (recordings, _) = InputDiscovery.expand([audioDir])
            var failures = 0
            var durations: [String: Double] = [:]
            var estimated: [ScoredEvent] = []
            var confirmation: [ScoredEvent: Double] = [:]
            let referenceFiles = Set(reference.map(\.file))
            let knownFiles = Set(recordings.map(\.displayName))
            let missingFiles = referenceFiles.subtracting(knownFiles).sorted()
            if missingFiles.count == 1 || (verbose && !missingFiles.isEmpty) {
                for missing in missingFiles {
                    AnalyzeCommand.stderr("warning: \(labels): \(missing) has references but is not in \(audioDir); left out")
                }
            } else if !missingFiles.isEmpty {
                AnalyzeCommand.stderr(
                    "warning: \(labels): \(missingFiles.count) files have references but are not in \(audioDir); left out "
                        + "(--verbose lists them\(json ? ", the JSON output's filesNotInAudioDir too" : ""))")
            }

            var scoredLabels = Set(reference.map(\.label))
            if let system {
                estimated = try Self.readAnnotations(system, option: "--system")
                scoredLabels.formUnion(estimated.map(\.label))
                for r in recordings {
                    do {
                        durations[r.displayName] = try AudioFileReader(path: r.path, blockFrames: 1).declaredDuration
                    } catch {
                        failures += 1
                        AnalyzeCommand.stderr("error: \(error)")
                    }
                }
            } else {
                // Every sound trigger that has a detector, except the generic `sound` unless it is labeled.
                var triggers = Set(DetectorRegistry.availableSoundTriggers)
                if !scoredLabels.contains(EventTriggerType.sound.rawValue) { triggers.remove(.sound) }
                scoredLabels.formUnion(triggers.map(\.rawValue))
                let plan = AnalysisPlan(policy: EventPolicy(enabledTriggers: triggers), settings: DetectorSettings(models: models))
                let analyzer = RecordingAnalyzer(plan: plan)
                let bar = ProgressBar(totalSeconds: 0, totalItems: recordings.count, enabled: !noProgress)
                let outcomes = parallelMap(recordings, jobs: jobs ?? availableCores, onDone: { _, _ in
                    bar.itemDone(label: "")
                }) { analyzer.analyze($0) }
                bar.finish()
                for (recording, outcome) in zip(recordings, outcomes) {
                    for record in outcome.records {
                        if case .error(_, let message) = record.content {
                            failures += 1
                            AnalyzeCommand.stderr("error: \(message)")
                        }
                    }
                    durations[recording.displayName] = outcome.mediaSeconds
                    for d in outcome.detections where triggers.contains(d.trigger) {
                        let event = ScoredEvent(file: recording.displayName, onset: d.start, offset: d.end, label: d.trigger.rawValue)
                        estimated.append(event)
                        confirmation[event] = d.detectedAt
                    }
                }
                if let writeSystem {
                    let text = AnnotationTSV.format(estimated)
                    do {
                        try RecordingOutputWriter.atomicWrite(text, to: writeSystem)
                    } catch {
                        failures += 1
                        AnalyzeCommand.stderr("error: \(error)")
                    }
                }
            }
            let settings = AccuracySettings(collar: collar, evaluateOffsets: offsets, segment: segment)
            let report: AccuracyReport
            do {
                report = try AccuracyEvaluation.evaluate(
                    reference: reference, estimated: estimated, confirmationTimes: confirmation, fileDurations: durations,
                    labels: scoredLabels.sorted(), settings: settings, notCounted: notCounted)
            } catch {
                throw ValidationError("cannot score: \(error)")
            }
            // Scores of a shipped model on its own training files are optimistic: say so per label.
            let trainingOverlap =
                system == nil
                ? Self.trainingOverlap(
                    scored: recordings.map(\.displayName), scoredDurations: durations, labels: labels, provenance: provenanceRows ?? [],
                    replaced: Set(models.keys)) : []
            if json {
                var value = report.jsonValue
                if case .object(var object) = value {
                    if !missingFiles.isEmpty { object["filesNotInAudioDir"] = .array(missingFiles.map { .string($0) }) }
                    if !trainingOverlap.isEmpty {
                        object["shippedModelTrainingData"] = .object(
                            JSONObject(
                                trainingOverlap.map {
                                    ($0.label, .object(["scoredTrainingFiles": .number(Double($0.files)), "heldOutEventF1": $0.heldOutF1.map { .number($0) } ?? .null]))
                                }))
                    }
                    value = .object(object)
                }
                print(value.serialized(.pretty))
            } else {
                for overlap in trainingOverlap { print("note: \(overlap.text(scoredFiles: recordings.count))") }
                print(report.text, terminator: "")
            }
            if let chart {
                let picture = ScoreChart(
                    title: "F1 per label  (\(report.files) files, \(DecimalText.fixed(report.totalSeconds / 60, places: 1)) min of audio)",
                    labels: report.labels,
                    series: [
                        ScoreChart.Series(
                            name: "event F1 (collar \(DecimalText.fixed(collar, places: 1)) s)",
                            values: report.eventBased.classWise.compactMapValues { $0.fMeasure }),
                        ScoreChart.Series(
                            name: "segment F1 (\(DecimalText.fixed(segment, places: 1)) s)",
                            values: report.segmentBased.classWise.compactMapValues { $0.fMeasure }),
                    ])
                do {
                    try RecordingOutputWriter.atomicWrite(Data(try PNGCodec.encode(picture.render(), destination: chart)), to: chart)
                } catch {
                    failures += 1
                    AnalyzeCommand.stderr("error: \(error)")
                }
            }
            if failures > 0 { throw ExitCode(ExitStatus.someInputsFailed) }
        }

        /// Scored files that a shipped model was trained on, for one label.
        struct TrainingOverlap {
            var label: String
            var files: Int
            var heldOutF1: Double?

            func text(scoredFiles: Int) -> String {
                "\(label): \(files) of the \(scoredFiles) scored files are training data of the shipped \(label) model, so its scores here "
                    + "are optimistic"
                    + (heldOutF1.map { "; on files held out from its training its event F1 is \(DecimalText.fixed($0, places: 3)) (Models/\(label).md)" } ?? "")
                    + ". For a fair figure score only the held-out files, or give --model \(label)=FILE trained without these files."
            }
        }

        /// For each learned label scored with its shipped model (not replaced by `--model`): how many
        /// scored files are in that model's training part. The part is known when the labels, their
        /// PROVENANCE.tsv and files.tsv (beside LABELS.tsv; else the scored files) reproduce the
        /// model's recorded split (``SoundModel/trainingPart(provenance:files:annotations:durations:)``).
        static func trainingOverlap(
            scored: [String], scoredDurations: [String: Double], labels: String, provenance: [DevelopmentSet.SourceRow],
            replaced: Set<EventTriggerType>
        ) -> [TrainingOverlap] {
            guard !provenance.isEmpty, let labelData = FileManager.default.contents(atPath: labels) else { return [] }
            let annotations = DevelopmentSet.parseLabels(String(decoding: labelData, as: UTF8.self))
            let filesPath = ((labels as NSString).deletingLastPathComponent as NSString).appendingPathComponent("files.tsv")
            var durations = scoredDurations
            if let data = FileManager.default.contents(atPath: filesPath) {
                durations.merge(DevelopmentSet.parseDurations(String(decoding: data, as: UTF8.self))) { _, listed in listed }
            }
            let files = Set(durations.keys).union(provenance.map(\.file)).sorted()
            var out: [TrainingOverlap] = []
            for trigger in ModelOptions.replaceable where !replaced.contains(trigger) {
                guard let model = LearnedSoundDetector.shippedModel(for: trigger),
                    let part = model.trainingPart(provenance: provenance, files: files, annotations: annotations, durations: durations)
                else { continue }
                let overlap = scored.filter { part.contains($0) }.count
                if overlap > 0 {
                    out.append(
                        TrainingOverlap(
                            label: trigger.rawValue, files: overlap, heldOutF1: model.training["validation"]?["eventF1Collar0.5s"]?.doubleValue))
                }
            }
            return out
        }

        static func readAnnotations(_ path: String, option: String) throws -> [ScoredEvent] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("\(option) \(path): cannot read file")
            }
            do {
                return try AnnotationTSV.parse(String(decoding: data, as: UTF8.self))
            } catch {
                throw ValidationError("\(option) \(path): line \(error.line): \(error)")
            }
        }
    }
}

extension BenchCommand {
    /// `vigil bench speed`.
    struct Speed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure how many times real time the detectors run, per detector and together.",
            discussion: """
                Times decoding plus the shared STFT plus each detector alone, then all detectors together, on \
                one core and on all cores (several recordings at once), and reports peak memory. Every row gives \
                both figures: media seconds per CPU second (this thread's CPU time on one core, so that other \
                load on the machine does not distort it; the whole process's on all cores) and per wall second \
                (the throughput a user waits for). Without FILES, \
                a 10-minute 44.1 kHz mono scene (noise, tones, alarms) is synthesized into a temporary WAV. \
                Each figure is the best of --repeat runs.
                """)

        @Argument(help: "Recordings to time (default: a synthesized 10-minute 44.1 kHz mono scene).")
        var files: [String] = []

        @Option(name: .customLong("repeat"), help: "Runs per measurement; the best is reported.")
        var runs: Int = 3

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func validate() throws {
            guard runs >= 1 else { throw ValidationError("--repeat must be at least 1") }
        }

        func run() throws {
            var paths = files
            var temporary: URL?
            if paths.isEmpty {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-bench-\(getpid())")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                let path = dir.appendingPathComponent("scene-44k-mono.wav").path
                try SpeedScene.write(to: path, sampleRate: 44_100, minutes: 10)
                paths = [path]
                temporary = dir
            }
            defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
            var info: [String] = []
            for p in paths {
                let r = try AudioFileReader(path: p, blockFrames: 1)
                info.append("\(p): \(r.sampleRate) Hz, \(r.channelCount) ch, \(DecimalText.fixed(r.declaredDuration, places: 1)) s, \(r.formatDescription)")
            }
            let media = try paths.reduce(0.0) { $0 + (try AudioFileReader(path: $1, blockFrames: 1).declaredDuration) }
            let available = DetectorRegistry.availableSoundTriggers
            var rows: [SpeedRow] = []
            // Each figure is the best of `runs`, timed on two clocks: CPU time (of this thread for the
            // one-core rows, immune to other processes on a busy machine; of the whole process for the
            // all-cores row) and wall time.
            func best(name: String, cores: Int, media: Double, cpuClock: () -> Double, _ body: () throws -> Void) rethrows -> SpeedRow {
                var bestCPU = Double.infinity
                var bestWall = Double.infinity
                for _ in 0..<runs {
                    let cpuStart = cpuClock()
                    let start = ContinuousClock.now
                    try body()
                    let elapsed = ContinuousClock.now - start
                    bestCPU = min(bestCPU, cpuClock() - cpuStart)
                    bestWall = min(bestWall, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                }
                return SpeedRow(name: name, cores: cores, perCPUSecond: media / bestCPU, perWallSecond: media / bestWall)
            }
            func oneCore(_ name: String, _ body: () throws -> Void) rethrows -> SpeedRow {
                try best(name: name, cores: 1, media: media, cpuClock: threadCPUSeconds, body)
            }
            // Warm-up: creates the FFTW plans (once per size) and faults the files into the page cache.
            for p in paths { try Self.analyze(p, triggers: Set(available)) }
            rows.append(try oneCore("decode only") { for p in paths { try Self.decode(p) } })
            rows.append(try oneCore("decode + STFT") { for p in paths { try Self.analyze(p, triggers: []) } })
            for trigger in available {
                rows.append(try oneCore(trigger.rawValue) { for p in paths { try Self.analyze(p, triggers: [trigger]) } })
            }
            if available.contains(.smokeAlarm) && available.contains(.coAlarm) {
                rows.append(try oneCore("smokeAlarm + coAlarm") { for p in paths { try Self.analyze(p, triggers: [.smokeAlarm, .coAlarm]) } })
            }
            rows.append(try oneCore("all \(available.count) together") { for p in paths { try Self.analyze(p, triggers: Set(available)) } })
            let cores = availableCores
            if cores > 1 {
                let copies = Array(repeating: paths, count: cores).flatMap { $0 }
                rows.append(
                    try best(name: "all \(available.count) together", cores: cores, media: media * Double(cores), cpuClock: processCPUSeconds) {
                        let errors = parallelMap(copies, jobs: cores) { p -> String? in
                            do { try Self.analyze(p, triggers: Set(available)) } catch { return "\(error)" }
                            return nil
                        }
                        if let e = errors.compactMap({ $0 }).first { throw ValidationError(e) }
                    })
            }
            let peak = peakResidentBytes
            if json {
                let value = JSONValue.object(
                    JSONObject([
                        ("inputs", .array(info.map { .string($0) })), ("mediaSeconds", .number(media)),
                        ("repeat", .number(Double(runs))),
                        (
                            "results",
                            .array(
                                rows.map {
                                    .object([
                                        "name": .string($0.name), "cores": .number(Double($0.cores)),
                                        "xRealTimePerCPUSecond": .number(($0.perCPUSecond * 10).rounded() / 10),
                                        "xRealTimePerWallSecond": .number(($0.perWallSecond * 10).rounded() / 10),
                                    ])
                                })
                        ),
                        ("peakResidentBytes", .number(Double(peak))),
                    ]))
                print(value.serialized(.pretty))
            } else {
                for line in info { print(line) }
                print("best of \(runs) runs; x real time = seconds of media analyzed per second of CPU time (all cores' CPU time added up)")
                print("and per second of wall time; one-core rows time this thread's CPU clock, so other load on the machine barely moves them")
                let width = rows.map(\.name.count).max() ?? 10
                print("DETECTORS".padding(toLength: width, withPad: " ", startingAt: 0) + "  CORES  X REAL TIME PER CPU S  X REAL TIME PER WALL S")
                for row in rows {
                    print(
                        row.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(row.cores).leftPad(5) + "  "
                            + DecimalText.fixed(row.perCPUSecond, places: 0).leftPad(22) + "  " + DecimalText.fixed(row.perWallSecond, places: 0).leftPad(23))
                }
                print("peak memory: \(peak / (1 << 20)) MiB")
            }
        }

        /// One row of the speed table: media seconds analyzed per CPU second and per wall second.
        struct SpeedRow {
            var name: String
            var cores: Int
            var perCPUSecond: Double
            var perWallSecond: Double
        }

        static func decode(_ path: String) throws {
            let reader = try AudioFileReader(path: path)
            var buffer = [Float](repeating: 0, count: 65_536)
            while try buffer.withUnsafeMutableBufferPointer({ try reader.readMono(into: $0) }) > 0 {}
        }

        static func analyze(_ path: String, triggers: Set<EventTriggerType>) throws {
            let reader = try AudioFileReader(path: path)
            let analyzer = AudioStreamAnalyzer(sampleRate: Double(reader.sampleRate), triggers: triggers)
            var buffer = [Float](repeating: 0, count: 65_536)
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                if n == 0 { break }
                _ = buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
            analyzer.finish()
        }
    }
}

/// The synthesized scene `vigil bench speed` uses by default: room noise with tones, bursts and
/// smoke/CO alarm patterns spread over it, so every detector has work to do. Written one minute
/// at a time, so the benchmark's own memory stays small.
enum SpeedScene {
    static func write(to path: String, sampleRate: Int, minutes: Int) throws {
        let writer = try AudioFileStreamWriter(path: path, sampleRate: sampleRate, format: .wav16)
        var generator = SeededGenerator(seed: 7)
        for minute in 0..<minutes {
            var s = SignalBuffer(sampleRate: Double(sampleRate), duration: 60)
            s.addNoise(dBFS: -50, generator: &generator)
            switch minute % 4 {
            case 0: s.addTemporalThree(start: 5, cycles: 3, frequency: 3100 + Double(minute % 7) * 50, dBFS: -25)
            case 1: s.addTemporalFour(start: 5, cycles: 2, frequency: 3300, dBFS: -25)
            case 2: s.addNoise(dBFS: -15, start: 5, duration: 0.3, generator: &generator)
            default: s.addTone(frequency: 1000, start: 5, duration: 1, dBFS: -20)
            }
            s.addTemporalThree(start: 35, cycles: 2, square: true, dBFS: -30)
            try writer.append(s.samples)
        }
        try writer.close()
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

extension BenchCommand {
    /// `vigil bench kernels`.
    struct Kernels: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time the hot kernels and print JSON.",
            discussion: """
                STFT frames per second (1024-point, hop 512, Hann, FFTW single precision), point-in-polygon \
                points per second against a 12-vertex zone (SIMD kernel), and motion plus zone attribution \
                frames per second at 640x360, 1280x720 and 1920x1080 (four zones, a privacy zone and the \
                outside region), each on one core (thread CPU time), best of --repeat runs of at least --seconds each. The \
                workloads are the same as those of the package-benchmark suites in Benchmarks/.
                """)

        @Option(name: .customLong("repeat"), help: "Runs per kernel; the best is reported.")
        var runs: Int = 3

        @Option(help: "Minimum seconds per run.")
        var seconds: Double = 0.5

        enum Kernel: String, ExpressibleByArgument, CaseIterable {
            case stft, pip, motion640, motion1280, motion1920
        }

        @Option(help: "Run only this kernel: stft, pip, motion640, motion1280 or motion1920.")
        var only: Kernel?

        @Option(
            help: """
                Fixed work instead of timed runs: exactly N units per kernel (10 s of 44.1 kHz audio, 1 Mi points, one frame), \
                once. For instruction counts under valgrind --tool=callgrind (make bench-instructions).
                """)
        var iterations: Int?

        func validate() throws {
            if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        }

        func run() throws {
            var results: [(String, JSONValue)] = []
            let kernels = only.map { [$0] } ?? Kernel.allCases
            // With --iterations: one run of exactly that many units (seconds = 0 stops after the first unit batch).
            let runs = iterations == nil ? self.runs : 1
            let seconds = iterations == nil ? self.seconds : 0
            Self.fixedUnits = iterations
            if kernels.contains(.stft) {
                results.append(("stftFramesPerSecond", .number(Self.stftFramesPerSecond(runs: runs, seconds: seconds).rounded())))
            }
            if kernels.contains(.pip) {
                results.append(("pointInPolygonPointsPerSecond", .number(Self.pipPointsPerSecond(runs: runs, seconds: seconds).rounded())))
            }
            var motion: [(String, JSONValue)] = []
            for (kernel, w, h) in [(Kernel.motion640, 640, 360), (.motion1280, 1280, 720), (.motion1920, 1920, 1080)] where kernels.contains(kernel) {
                motion.append(("\(w)x\(h)", .number(Self.motionFramesPerSecond(width: w, height: h, runs: runs, seconds: seconds).rounded())))
            }
            if !motion.isEmpty { results.append(("motionFramesPerSecond", .object(JSONObject(motion)))) }
            if let iterations { results.append(("iterations", .number(Double(iterations)))) }
            results.append(("cores", .number(1)))
            print(JSONValue.object(JSONObject(results)).serialized(.pretty))
        }

        /// With `--iterations`: the exact number of calls of each kernel's body.
        nonisolated(unsafe) static var fixedUnits: Int?

        static func timed(runs: Int, seconds: Double, _ body: () -> Int) -> Double {
            var best = 0.0
            for _ in 0..<runs {
                var units = 0
                let start = threadCPUSeconds()
                var elapsed = 0.0
                if let fixed = fixedUnits {
                    for _ in 0..<fixed { units += body() }
                    elapsed = max(threadCPUSeconds() - start, 1e-9)
                }
                while fixedUnits == nil && elapsed < seconds {
                    units += body()
                    elapsed = threadCPUSeconds() - start
                }
                best = max(best, Double(units) / elapsed)
            }
            return best
        }

        static func stftFramesPerSecond(runs: Int, seconds: Double) -> Double {
            var generator = SeededGenerator(seed: 1)
            var signal = SignalBuffer(sampleRate: 44_100, duration: 10)
            signal.addNoise(dBFS: -20, generator: &generator)
            let config = STFTConfiguration(sampleRate: 44_100, fftSize: 1024, hopSize: 512)
            return timed(runs: runs, seconds: seconds) {
                let stft = ShortTimeFourierTransform(configuration: config)
                var sink: Float = 0
                signal.samples.withUnsafeBufferPointer { b in stft.process(b) { sink += $0.power[10] } }
                precondition(sink.isFinite)
                return stft.frameCount
            }
        }

        /// Points per second against the 12-vertex zone of the shared workload.
        static func pipPointsPerSecond(runs: Int, seconds: Double) -> Double {
            let bench = VisionBenchmarkWorkload.PointBench()
            var sink: UInt8 = 0
            let rate = timed(runs: runs, seconds: seconds) {
                sink &+= bench.step()
                return bench.xs.count
            }
            precondition(sink < 255 || rate > 0)
            return rate
        }

        /// Motion plus zone attribution frames per second at `width` x `height` (shared workload).
        static func motionFramesPerSecond(width: Int, height: Int, runs: Int, seconds: Double) -> Double {
            let bench = VisionBenchmarkWorkload.MotionBench(width: width, height: height)
            var sink = 0
            let rate = timed(runs: runs, seconds: seconds) {
                sink &+= bench.step()
                return 1
            }
            precondition(sink >= 0)
            return rate
        }
    }
}
