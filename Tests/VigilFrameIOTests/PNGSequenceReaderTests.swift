import Foundation
import Testing
import VigilFrameIO
import VigilImaging
import VigilTestSupport

@Suite("PNG sequence reader")
struct PNGSequenceReaderTests {
    func directory(_ names: [String]) throws -> String {
        let dir = try TestProcesses.temporaryDirectory(prefix: "vigil-frames").path
        for (i, name) in names.enumerated() {
            let image = RasterImage(width: 4, height: 3, format: .rgb, fill: UInt8(i * 10 % 256))
            try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name))
        }
        return dir
    }

    @Test("numbers in names order the frames; --fps spaces them evenly")
    func fps() throws {
        let dir = try directory(["10.png", "2.png", "1.png", "notes.txt"])
        var reader = try PNGSequenceReader(directory: dir, framesPerSecond: 4)
        #expect(reader.entries.map(\.name) == ["1.png", "2.png", "10.png"])
        #expect(reader.entries.map(\.time) == [0, 0.25, 0.5])
        let first = try #require(try reader.nextFrame())
        #expect(first.picture.width == 4 && first.picture.luma.pixels.allSatisfy { $0 == 20 })  // "1.png" was written third
        var count = 1
        while try reader.nextFrame() != nil { count += 1 }
        #expect(count == 3)
    }

    @Test("without --fps, times come from the names: decimals are seconds, integers milliseconds")
    func namedTimes() throws {
        let seconds = try PNGSequenceReader(directory: try directory(["cam-0.500.png", "cam-1.250.png"]))
        #expect(seconds.entries.map(\.time) == [0.5, 1.25])
        let millis = try PNGSequenceReader(directory: try directory(["f_0040ms.png", "f_0000ms.png"]))
        #expect(millis.entries.map(\.time) == [0, 0.04])
        #expect(PNGSequenceReader.lastNumber(in: "v2_frame_17.png")?.value == 17)
        #expect(PNGSequenceReader.lastNumber(in: "still.png") == nil)
    }

    @Test("integer names closer than 10 ms are frame numbers: an error naming the folder that asks for --fps")
    func frameNumbers() throws {
        // ffmpeg's default: 1.png ... 51.png.
        let ffmpeg = try directory((1...51).map { "\($0).png" })
        do {
            _ = try PNGSequenceReader(directory: ffmpeg)
            Issue.record("1.png ... 51.png were read as millisecond timestamps")
        } catch {
            #expect(error.kind == .unsupportedFormat)
            #expect(error.source == ffmpeg)
            #expect(error.reason.contains("1.png ... 51.png are consecutive frame numbers"), "\(error)")
            #expect(error.reason.contains("--fps"))
        }
        // The same folder with --fps is fine: frame i at i / fps.
        let timed = try PNGSequenceReader(directory: ffmpeg, framesPerSecond: 10)
        #expect(timed.entries.last?.time == 5)
        // Zero-padded numbers with a prefix (gt000001.png ...), and every other frame (2, 4, 6, ...).
        #expect(throws: FrameSourceError.self) {
            try PNGSequenceReader(directory: try directory((1...12).map { "gt\(String(repeating: "0", count: 4))\($0 + 10).png" }))
        }
        let everyOther = try directory((1...8).map { "frame_\($0 * 2).png" })
        do {
            _ = try PNGSequenceReader(directory: everyOther)
            Issue.record("frame numbers 2 apart were read as millisecond timestamps")
        } catch {
            #expect(error.reason.contains("frame numbers 2 apart") && error.reason.contains("500 frames/s"), "\(error)")
        }
    }

    @Test("millisecond timestamps keep working: 30 and 60 frames/s, irregular steps, one frame")
    func millisecondTimestamps() throws {
        let thirty = try PNGSequenceReader(directory: try directory(["0.png", "33.png", "67.png", "100.png", "133.png"]))
        #expect(thirty.entries.map(\.time) == [0, 0.033, 0.067, 0.1, 0.133])
        let sixty = try PNGSequenceReader(
            directory: try directory(["cam_0000ms.png", "cam_0017ms.png", "cam_0033ms.png", "cam_0050ms.png"]))
        #expect(sixty.entries.map(\.time) == [0, 0.017, 0.033, 0.05])
        // A camera that records on motion: a few close frames, then long gaps (median step 40 ms).
        let bursts = try PNGSequenceReader(directory: try directory(["1000.png", "1040.png", "1080.png", "1085.png", "9000.png"]))
        #expect(bursts.entries.map(\.time) == [1, 1.04, 1.08, 1.085, 9])
        #expect(try PNGSequenceReader(directory: try directory(["7.png"])).entries.map(\.time) == [0.007])
    }

    @Test("errors: no frames, names without numbers, a broken PNG")
    func errors() throws {
        #expect(throws: FrameSourceError.self) { try PNGSequenceReader(directory: try directory([])) }
        #expect(throws: FrameSourceError.self) { try PNGSequenceReader(directory: try directory(["a.png", "b.png"])) }
        #expect(throws: FrameSourceError.self) { try PNGSequenceReader(directory: "/nonexistent/vigil") }
        let dir = try directory(["1.png"])
        try Data("broken".utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent("2.png"))
        var reader = try PNGSequenceReader(directory: dir, framesPerSecond: 10)
        _ = try reader.nextFrame()
        do {
            _ = try reader.nextFrame()
            Issue.record("decoded a broken PNG")
        } catch {
            #expect(error.kind == .decodeFailed && error.description.contains("2.png"))
        }
    }
}
