import Foundation
import Testing
import VigilAudioIO
import VigilControl
import VigilCore
import VigilDevice
import VigilFrameIO
import VigilImaging
import VigilLive
import VigilMedia
import VigilSynth
import VigilTestSupport

/// One line of Corpus/manifest.tsv (written by Corpus/generate.py): a malformed file, the
/// library entry point it goes to, the limits in force, and the error it must produce.
struct CorpusEntry: CustomTestStringConvertible, Sendable {
    var file: String
    var entry: String
    var limits: InputLimits
    var kind: String
    var message: String

    var testDescription: String { file }

    /// The corpus directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    var path: String { Self.directory.appendingPathComponent(file).path }

    /// Every manifest entry.
    static let all: [CorpusEntry] = {
        let url = directory.appendingPathComponent("manifest.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return CorpusEntry(
                file: columns[0], entry: columns[1], limits: parseLimits(columns[2]), kind: columns[3],
                message: columns.count > 4 ? columns[4] : "")
        }
    }()

    /// `maxAudioDuration=1;maxZones=10` applied to the defaults; `-` is the defaults.
    static func parseLimits(_ text: String) -> InputLimits {
        var limits = InputLimits.default
        for pair in text.split(separator: ";") where pair != "-" {
            let parts = pair.split(separator: "=").map(String.init)
            let value = Double(parts[1])!
            switch parts[0] {
            case "maxImageWidth": limits.maxImageWidth = Int(value)
            case "maxImageHeight": limits.maxImageHeight = Int(value)
            case "maxImageBytes": limits.maxImageBytes = Int(value)
            case "maxAudioDuration": limits.maxAudioDuration = value
            case "maxAudioChannels": limits.maxAudioChannels = Int(value)
            case "maxJSONBytes": limits.maxJSONBytes = Int(value)
            case "maxJSONDepth": limits.maxJSONDepth = Int(value)
            case "maxZones": limits.maxZones = Int(value)
            default: Issue.record("unknown limit \(parts[0]) in manifest")
            }
        }
        return limits
    }
}

/// What an entry point made of a corpus file: an error (its kind and description) or success.
struct CorpusOutcome {
    var kind: String?
    var description: String
    var failed: Bool
    /// Units of work done (frames, samples, problems): bounded for every file.
    var work: Int = 0
}

/// Feeds one corpus file to its library entry point.
enum CorpusFeeder {
    static func run(_ entry: CorpusEntry) -> CorpusOutcome {
        switch entry.entry {
        case "audio": return audio(entry)
        case "y4m": return y4m(entry)
        case "png": return png(entry)
        case "pngdir": return pngDirectory(entry)
        case "json": return json(entry)
        case "device": return device(entry)
        case "scenario": return scenario(entry)
        case "media": return media(entry)
        default:
            if entry.entry.hasPrefix("control:") { return control(entry) }
            return CorpusOutcome(kind: nil, description: "unknown entry point \(entry.entry)", failed: false)
        }
    }

    static func bytes(_ entry: CorpusEntry) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: entry.path) ?? Data())
    }

    static func audio(_ entry: CorpusEntry) -> CorpusOutcome {
        do {
            let reader = try AudioFileReader(path: entry.path, blockFrames: 256, limits: entry.limits)
            var buffer = [Float](repeating: 0, count: 1024)
            var total = 0
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                if n == 0 { break }
                total += n
                // Bounded: nothing in the corpus holds more than a few thousand frames.
                if total > 1_000_000 {
                    return CorpusOutcome(kind: nil, description: "read more than 10^6 frames", failed: false, work: total)
                }
            }
            if reader.nonFiniteSampleCount > 0 {
                return CorpusOutcome(
                    kind: "nonFinite", description: "\(reader.nonFiniteSampleCount) non-finite samples", failed: true, work: total)
            }
            return CorpusOutcome(kind: nil, description: "read \(total) frames", failed: false, work: total)
        } catch let error as AudioFileError {
            return CorpusOutcome(kind: error.kind.rawValue, description: error.description, failed: true)
        } catch {
            return CorpusOutcome(kind: "other", description: "\(error)", failed: true)
        }
    }

    /// Containers through libavformat, from the file and from memory: both end the same way.
    static func media(_ entry: CorpusEntry) -> CorpusOutcome {
        func read(_ open: () throws(MediaReadError) -> MediaContainerReader) -> CorpusOutcome {
            var chunks = 0
            do throws(MediaReadError) {
                let reader = try open()
                while try reader.nextChunk() != nil {
                    chunks += 1
                    if chunks > 100_000 {
                        return CorpusOutcome(kind: nil, description: "more than 10^5 chunks", failed: false, work: chunks)
                    }
                }
                return CorpusOutcome(kind: nil, description: "read \(chunks) chunks", failed: false, work: chunks)
            } catch {
                return CorpusOutcome(kind: error.kind.rawValue, description: error.description, failed: true, work: chunks)
            }
        }
        let fromFile = read { () throws(MediaReadError) in
            try MediaContainerReader(input: entry.path, options: MediaReaderOptions(audioSampleRate: 16_000))
        }
        let fromMemory = read { () throws(MediaReadError) in
            try MediaContainerReader(bytes: bytes(entry), name: entry.path, options: MediaReaderOptions(audioSampleRate: 16_000))
        }
        guard fromFile.kind == fromMemory.kind else {
            return CorpusOutcome(
                kind: "differs", description: "file: \(fromFile.description); memory: \(fromMemory.description)", failed: true)
        }
        return fromFile
    }

    static func y4m(_ entry: CorpusEntry) -> CorpusOutcome {
        var frames = 0
        do throws(FrameSourceError) {
            var reader = try Y4MReader(source: MemoryByteReader(bytes(entry)), name: entry.file, limits: ImageLimits(entry.limits))
            while try reader.nextFrame() != nil {
                frames += 1
                if frames > 1000 { return CorpusOutcome(kind: nil, description: "more than 1000 frames", failed: false, work: frames) }
            }
            return CorpusOutcome(kind: nil, description: "read \(frames) frames", failed: false, work: frames)
        } catch {
            return CorpusOutcome(kind: error.kind.rawValue, description: error.description, failed: true, work: frames)
        }
    }

    static func png(_ entry: CorpusEntry) -> CorpusOutcome {
        do throws(PNGError) {
            let image = try PNGCodec.decode(bytes(entry), source: entry.file, limits: ImageLimits(entry.limits))
            return CorpusOutcome(kind: "ok", description: "\(image.width)x\(image.height)", failed: false, work: image.pixels.count)
        } catch {
            return CorpusOutcome(kind: "-", description: error.description, failed: true)
        }
    }

    static func pngDirectory(_ entry: CorpusEntry) -> CorpusOutcome {
        var frames = 0
        do throws(FrameSourceError) {
            var reader = try PNGSequenceReader(directory: entry.path, framesPerSecond: 10, limits: ImageLimits(entry.limits))
            while try reader.nextFrame() != nil { frames += 1 }
            return CorpusOutcome(kind: nil, description: "read \(frames) frames", failed: false, work: frames)
        } catch {
            // The directory's path is absolute; compare from the corpus name on.
            let text = error.description.replacingOccurrences(of: CorpusEntry.directory.path + "/", with: "")
            return CorpusOutcome(kind: error.kind.rawValue, description: text, failed: true, work: frames)
        }
    }

    static func json(_ entry: CorpusEntry) -> CorpusOutcome {
        do throws(JSONParseError) {
            _ = try JSONValue.parse(bytes(entry), limits: entry.limits)
            return CorpusOutcome(kind: nil, description: "parsed", failed: false)
        } catch {
            return CorpusOutcome(kind: "-", description: error.description, failed: true)
        }
    }

    static func device(_ entry: CorpusEntry) -> CorpusOutcome {
        let report = DeviceFile.decode(bytes(entry), limits: entry.limits)
        guard let first = report.problems.first else {
            return CorpusOutcome(kind: nil, description: "valid device", failed: false)
        }
        return CorpusOutcome(
            kind: first.path, description: report.problems.map(\.description).joined(separator: "\n"), failed: report.device == nil,
            work: report.problems.count + report.warnings.count)
    }

    static func scenario(_ entry: CorpusEntry) -> CorpusOutcome {
        do throws(ScenarioError) {
            _ = try Scenario.decode(bytes(entry), limits: entry.limits)
            return CorpusOutcome(kind: nil, description: "valid scenario", failed: false)
        } catch {
            return CorpusOutcome(
                kind: error.problems.first?.path ?? "", description: error.problems.map(\.description).joined(separator: "\n"),
                failed: true,
                work: error.problems.count)
        }
    }

    /// A device with one motion zone (ID 1) for the control bodies.
    static func controller() -> DeviceController {
        let controller = DeviceController(device: .default)
        _ = try? controller.createZone([
            "name": "Drive", "use": "motion", "vertices": [["x": 0, "y": 0], ["x": 900, "y": 0], ["x": 900, "y": 700]],
        ])
        return controller
    }

    static func control(_ entry: CorpusEntry) -> CorpusOutcome {
        let controller = controller()
        do throws(ControlError) {
            let body = try ControlRequestDecoder.parse(bytes(entry))
            switch entry.entry {
            case "control:zones": _ = try controller.createZone(body)
            case "control:zones-update": try controller.updateZone(id: "77", body)
            case "control:triggers": _ = try controller.createOrUpdateTrigger(body)
            case "control:event-detection-triggers": _ = try controller.setEventDetectionTriggers(body)
            case "control:recording-mode": _ = try controller.selectRecordingMode(body)
            case "control:transport": _ = try controller.setTransport(body)
            case "control:audio": _ = try controller.setAudio(body)
            default: return CorpusOutcome(kind: nil, description: "unknown control entry \(entry.entry)", failed: false)
            }
            return CorpusOutcome(kind: nil, description: "accepted", failed: false)
        } catch {
            return CorpusOutcome(
                kind: "\(error.status)/\(error.httpStatus)", description: "\(error.field): \(error.reason)", failed: true)
        }
    }
}

@Suite("Hostile input corpus")
struct HostileCorpusTests {
    @Test("the corpus holds at least 50 malformed files, each listed once in the manifest")
    func corpusSize() throws {
        let entries = CorpusEntry.all
        #expect(entries.count >= 50)
        #expect(Set(entries.map(\.file)).count == entries.count)
        for entry in entries {
            #expect(FileManager.default.fileExists(atPath: entry.path), "\(entry.file) is in the manifest but not in Corpus/")
        }
        let listed = Set(entries.map(\.file))
        let present = try FileManager.default.contentsOfDirectory(atPath: CorpusEntry.directory.path)
            .filter { $0 != "manifest.tsv" && $0 != "generate.py" }
        for file in present { #expect(listed.contains(file), "\(file) is in Corpus/ but not in the manifest") }
    }

    @Test(
        "every corpus file gets its expected error from the library, without crashing or hanging",
        .timeLimit(.minutes(SanitizerAllowance.minutes(1))), arguments: CorpusEntry.all)
    func corpusFile(_ entry: CorpusEntry) {
        let outcome = CorpusFeeder.run(entry)
        if ProcessInfo.processInfo.environment["VIGIL_CORPUS_VERBOSE"] != nil {
            print("corpus\t\(entry.file)\t\(outcome.kind ?? "none")\t\(outcome.description.replacingOccurrences(of: "\n", with: " | "))")
        }
        if entry.kind == "ok" {
            #expect(!outcome.failed, "\(entry.file): \(outcome.description)")
        } else {
            #expect(outcome.failed, "\(entry.file) was accepted: \(outcome.description)")
            if entry.kind != "-" {
                #expect(
                    outcome.kind == entry.kind,
                    "\(entry.file): kind \(outcome.kind ?? "none"), expected \(entry.kind): \(outcome.description)")
            }
        }
        #expect(
            entry.message.isEmpty || outcome.description.contains(entry.message),
            "\(entry.file): \"\(outcome.description)\" lacks \"\(entry.message)\"")
        // Bounded work: a hostile header never makes a reader produce much.
        #expect(outcome.work < 100_000, "\(entry.file): \(outcome.work) units of work")
    }

    @Test("the documented defaults, and limits that are not positive are refused")
    func limitDefaults() {
        let limits = InputLimits.default
        #expect(limits.maxImageWidth == 16_384 && limits.maxImageHeight == 16_384 && limits.maxImageBytes == 256 << 20)
        #expect(limits.maxAudioDuration == 86_400 && limits.maxAudioChannels == 64)
        #expect(limits.maxJSONBytes == 4 << 20 && limits.maxJSONDepth == 64 && limits.maxZones == 255)
        #expect(limits.problems.isEmpty)
        #expect(ImageLimits(limits) == ImageLimits.default)
        #expect(JSONValue.defaultMaxDepth == limits.maxJSONDepth)
        #expect(InputLimits(maxAudioDuration: .infinity).problems.isEmpty, "inf means no duration limit")
        let bad = InputLimits(
            maxImageWidth: 0, maxImageBytes: -1, maxAudioDuration: .nan, maxAudioChannels: 0, maxJSONBytes: 0, maxJSONDepth: 5000,
            maxZones: 0)
        #expect(bad.problems.count == 7, "\(bad.problems)")
        // Raising a limit admits what the default refuses.
        let zones = CorpusEntry.all.first { $0.file == "device-max-zones-over-limit.json" }!
        #expect(DeviceFile.decode(CorpusFeeder.bytes(zones), limits: InputLimits(maxZones: 1000)).problems.isEmpty)
    }

    @Test("every error names its file or field and the reason; limit errors say how to raise the limit")
    func limitErrorsNameTheOption() {
        for entry in CorpusEntry.all where entry.limits != .default || entry.message.hasPrefix("--max") {
            let outcome = CorpusFeeder.run(entry)
            if outcome.description.contains("limit") {
                #expect(outcome.description.contains("raise it with"), "\(entry.file): \(outcome.description)")
            }
        }
    }
}
