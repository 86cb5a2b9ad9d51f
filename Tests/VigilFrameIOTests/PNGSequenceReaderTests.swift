import Foundation
import Testing
import VigilFrameIO
import VigilImaging

@Suite("PNG sequence reader")
struct PNGSequenceReaderTests {
    func directory(_ names: [String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-frames-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (i, name) in names.enumerated() {
            let image = RasterImage(width: 4, height: 3, format: .rgb, fill: UInt8(i * 10))
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
