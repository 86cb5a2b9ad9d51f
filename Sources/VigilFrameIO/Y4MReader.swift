import VigilCore
import VigilImaging

/// Reads a YUV4MPEG2 stream frame by frame from any ``ByteReader`` (a file, stdin, memory),
/// in bounded memory: one frame plus a fixed read buffer. Frame `i` has time `i * d / n` for
/// the header's frame rate `n:d`. Samples deeper than 8 bits are scaled to 8.
///
/// `ffmpeg -i clip.mp4 -f yuv4mpegpipe - | vigil analyze --video -` streams through it.
public struct Y4MReader<Source: ByteReader>: FrameSource {
    /// The stream header.
    public private(set) var header = Y4MHeader(
        width: 1, height: 1, frameRateNumerator: 25, frameRateDenominator: 1, subsampling: .mono, bitDepth: 8, hasAlpha: false,
        colourTag: "mono")
    /// Name used in messages.
    public let sourceName: String
    /// Frames read so far.
    public private(set) var frameCount = 0
    /// Size limits for a frame.
    public let limits: ImageLimits

    private var source: Source
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var planeBuffer: [UInt8] = []

    /// Longest header or FRAME line accepted.
    public static var maxLineLength: Int { 4096 }

    /// Reads the header from `source`.
    /// - Throws: ``FrameSourceError`` for an empty stream, a bad header or a frame above `limits`.
    public init(source: Source, name: String, limits: ImageLimits = .default, readSize: Int = 1 << 20) throws(FrameSourceError) {
        self.source = source
        self.sourceName = name
        self.limits = limits
        self.buffer = [UInt8](repeating: 0, count: max(readSize, Self.maxLineLength))
        guard let line = try readLine() else {
            throw FrameSourceError(.empty, source: name, reason: "empty stream: no YUV4MPEG2 header")
        }
        header = try Y4MHeader.parse(line, source: name)
        if let violation = limits.violation(width: header.width, height: header.height, channels: 1) {
            throw FrameSourceError(.unsupportedFormat, source: name, reason: violation)
        }
        if header.frameByteCount > limits.maxDecodedBytes {
            throw FrameSourceError(
                .unsupportedFormat, source: name,
                reason: "a \(header.width)x\(header.height) C\(header.colourTag) frame is \(header.frameByteCount) bytes, more than the "
                    + "\(InputLimits.byteText(limits.maxDecodedBytes)) decode limit \(InputLimits.Limit.imageBytes.raiseHint)")
        }
    }

    /// The next frame, or `nil` at a clean end of stream.
    /// - Throws: ``FrameSourceError`` (truncated, unsupportedFormat) naming the frame.
    public mutating func nextFrame() throws(FrameSourceError) -> VideoFrame? {
        guard let line = try readLine() else { return nil }
        guard line == "FRAME" || line.hasPrefix("FRAME ") else {
            throw FrameSourceError(
                .unsupportedFormat, source: sourceName, frame: frameCount, reason: "expected a FRAME marker, found \"\(line.prefix(16))\"")
        }
        let size = header.frameByteCount
        if planeBuffer.count != size { planeBuffer = [UInt8](repeating: 0, count: size) }
        var plane = planeBuffer
        planeBuffer = []
        let got = try readExactly(into: &plane)
        planeBuffer = plane
        if got < size {
            throw FrameSourceError(
                .truncated, source: sourceName, frame: frameCount,
                reason: "truncated frame: expected \(size) bytes, the stream ends after \(got)")
        }
        let picture = makePicture(planeBuffer)
        let frame = VideoFrame(
            index: frameCount, time: Double(frameCount) * Double(header.frameRateDenominator) / Double(header.frameRateNumerator),
            picture: .ycbcr(picture))
        frameCount += 1
        return frame
    }

    private func makePicture(_ data: [UInt8]) -> YCbCrImage {
        let w = header.width, h = header.height
        let chroma = header.subsampling.chromaSize(width: w, height: h)
        let lumaCount = w * h, chromaCount = chroma.width * chroma.height
        if header.bitDepth == 8 {
            let luma = Array(data[0..<lumaCount])
            let cb = Array(data[lumaCount..<(lumaCount + chromaCount)])
            let cr = Array(data[(lumaCount + chromaCount)..<(lumaCount + 2 * chromaCount)])
            return YCbCrImage(width: w, height: h, subsampling: header.subsampling, luma: luma, cb: cb, cr: cr)
        }
        let shift = UInt16(header.bitDepth - 8)
        func plane(_ offset: Int, _ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            data.withUnsafeBufferPointer { d in
                for i in 0..<count {
                    let value = UInt16(d[2 * (offset + i)]) | UInt16(d[2 * (offset + i) + 1]) << 8
                    out[i] = UInt8(clamping: value >> shift)
                }
            }
            return out
        }
        return YCbCrImage(
            width: w, height: h, subsampling: header.subsampling, luma: plane(0, lumaCount), cb: plane(lumaCount, chromaCount),
            cr: plane(lumaCount + chromaCount, chromaCount))
    }

    // MARK: Buffered reading

    private mutating func fill() throws(FrameSourceError) {
        if start > 0 {
            if end > start {
                buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: end - start) }
            }
            end -= start
            start = 0
        }
        guard !atEnd, end < buffer.count else { return }
        var localSource = source
        let endIndex = end
        var result: Result<Int, FrameSourceError> = .success(0)
        let sourceName = self.sourceName
        buffer.withUnsafeMutableBytes { raw in
            do {
                result = .success(try localSource.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[endIndex...])))
            } catch {
                result = .failure(error as? FrameSourceError ?? FrameSourceError(.unreadable, source: sourceName, reason: "\(error)"))
            }
        }
        source = localSource
        let n = try result.get()
        if n == 0 { atEnd = true }
        end += n
    }

    /// The next line without its newline; `nil` at end of stream before any byte.
    private mutating func readLine() throws(FrameSourceError) -> String? {
        var scanned = start
        while true {
            while scanned < end {
                if buffer[scanned] == 0x0A {
                    let line = String(decoding: buffer[start..<scanned], as: UTF8.self)
                    start = scanned + 1
                    return line
                }
                scanned += 1
                if scanned - start > Self.maxLineLength {
                    throw FrameSourceError(
                        .unsupportedFormat, source: sourceName, frame: frameCount > 0 ? frameCount : nil,
                        reason: "line longer than \(Self.maxLineLength) bytes: not a YUV4MPEG2 stream")
                }
            }
            if atEnd {
                if end > start {
                    throw FrameSourceError(
                        .truncated, source: sourceName, frame: frameCount > 0 ? frameCount : nil,
                        reason: "stream ends inside a header or FRAME line")
                }
                return nil
            }
            let consumed = scanned - start
            try fill()
            scanned = start + consumed
        }
    }

    /// Fills `out` from the stream; returns the bytes copied (less than its size at the end).
    private mutating func readExactly(into out: inout [UInt8]) throws(FrameSourceError) -> Int {
        var copied = 0
        while copied < out.count {
            if start == end {
                if atEnd { break }
                try fill()
                if start == end { break }
            }
            let n = min(end - start, out.count - copied)
            let from = start
            out.withUnsafeMutableBytes { dst in
                buffer.withUnsafeBytes { src in
                    dst.baseAddress!.advanced(by: copied).copyMemory(from: src.baseAddress! + from, byteCount: n)
                }
            }
            copied += n
            start += n
        }
        return copied
    }
}
