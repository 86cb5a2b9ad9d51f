import Testing
import VigilFrameIO
import VigilImaging

/// Builds a y4m stream: header line, then `frames` frames filled with their index-dependent pattern.
func y4mStream(header: String, width: Int, height: Int, planeBytes: Int, frames: Int, frameLine: String = "FRAME") -> [UInt8] {
    var bytes = Array((header + "\n").utf8)
    for f in 0..<frames {
        bytes += Array((frameLine + "\n").utf8)
        for i in 0..<planeBytes { bytes.append(UInt8(truncatingIfNeeded: i &* 7 &+ f &* 31)) }
    }
    return bytes
}

@Suite("YUV4MPEG2 reader")
struct Y4MReaderTests {
    @Test(
        "colour spaces give the right plane sizes; interlacing, aspect and comments are ignored",
        arguments: [
            ("C420jpeg", YCbCrImage.Subsampling.yuv420, 6 * 4 + 2 * 3 * 2),
            ("C420mpeg2 XYSCSS=420MPEG2", .yuv420, 6 * 4 + 2 * 3 * 2),
            ("C420paldv", .yuv420, 6 * 4 + 2 * 3 * 2),
            ("C422", .yuv422, 6 * 4 + 2 * 3 * 4),
            ("C444", .yuv444, 6 * 4 * 3),
            ("Cmono", .mono, 6 * 4),
            ("", .yuv420, 6 * 4 + 2 * 3 * 2),
        ])
    func colourSpaces(tag: String, subsampling: YCbCrImage.Subsampling, frameBytes: Int) throws {
        let header = "YUV4MPEG2 W6 H4 F30000:1001 It A128:117 \(tag)".trimmingCharacters(in: .whitespaces)
        let stream = y4mStream(header: header, width: 6, height: 4, planeBytes: frameBytes, frames: 3, frameLine: "FRAME Ixyz")
        var reader = try Y4MReader(source: MemoryByteReader(stream), name: "clip.y4m")
        #expect(reader.header.subsampling == subsampling)
        #expect(reader.header.frameByteCount == frameBytes)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.count == 3)
        #expect(abs(frames[1].time - 1001.0 / 30000.0) < 1e-12)
        guard case .ycbcr(let picture) = frames[2].picture else {
            Issue.record("not a Y'CbCr picture")
            return
        }
        #expect(picture.width == 6 && picture.height == 4)
        #expect(picture.luma[5] == UInt8(truncatingIfNeeded: 5 * 7 + 2 * 31))
        #expect(frames[0].picture.luma.format == .gray)
        #expect(frames[0].picture.rgbImage().format == .rgb)
    }

    @Test("10-bit samples are scaled to 8 bits")
    func highDepth() throws {
        // 2 x 2 mono 10-bit: values 0, 512, 1023, 4 (little-endian).
        var stream = Array("YUV4MPEG2 W2 H2 F25:1 Cmono10\nFRAME\n".utf8)
        stream += [0, 0, 0, 2, 0xFF, 3, 4, 0]
        var reader = try Y4MReader(source: MemoryByteReader(stream), name: "deep.y4m")
        let frame = try #require(try reader.nextFrame())
        #expect(frame.picture.luma.pixels == [0, 128, 255, 1])
        let p10 = try Y4MHeader.parse("YUV4MPEG2 W4 H2 C420p10", source: "x")
        #expect(p10.bitDepth == 10 && p10.frameByteCount == (8 + 2 * 2) * 2)
    }

    @Test("a truncated frame is a clear error naming the frame")
    func truncated() throws {
        var stream = y4mStream(header: "YUV4MPEG2 W4 H4 F10:1 Cmono", width: 4, height: 4, planeBytes: 16, frames: 2)
        stream.removeLast(5)
        var reader = try Y4MReader(source: MemoryByteReader(stream), name: "cut.y4m", readSize: 7)
        #expect(try reader.nextFrame() != nil)
        do {
            _ = try reader.nextFrame()
            Issue.record("read a truncated frame")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.frame == 1)
            #expect(error.description.contains("cut.y4m") && error.description.contains("expected 16 bytes"))
        }
    }

    @Test("bad headers and markers are rejected with reasons")
    func badInput() throws {
        #expect(throws: FrameSourceError.self) { try Y4MReader(source: MemoryByteReader([]), name: "empty.y4m") }
        #expect(throws: FrameSourceError.self) { try Y4MReader(source: MemoryByteReader(Array("RIFF....\n".utf8)), name: "a.wav") }
        #expect(throws: FrameSourceError.self) { try Y4MReader(source: MemoryByteReader(Array("YUV4MPEG2 W0 H4\n".utf8)), name: "z") }
        #expect(throws: FrameSourceError.self) { try Y4MReader(source: MemoryByteReader(Array("YUV4MPEG2 W4 H4 C411\n".utf8)), name: "z") }
        #expect(throws: FrameSourceError.self) {
            try Y4MReader(source: MemoryByteReader(Array("YUV4MPEG2 W20000 H20000\n".utf8)), name: "huge")
        }
        var reader = try Y4MReader(source: MemoryByteReader(Array("YUV4MPEG2 W2 H2 Cmono\nFRAMX\n".utf8)), name: "m")
        #expect(throws: FrameSourceError.self) { try reader.nextFrame() }
    }
}
