import Foundation
import NIOConcurrencyHelpers
import Testing
import VigilAudioIO
import VigilCore
import VigilSynth

/// A fresh temporary directory per test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Reads a whole file through the reader in small blocks.
func readAll(_ path: String, block: Int = 1000) throws -> (samples: [Float], reader: AudioFileReader) {
    let reader = try AudioFileReader(path: path, blockFrames: 777)
    var out: [Float] = []
    var buffer = [Float](repeating: 0, count: block)
    while true {
        let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
        if n == 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    return (out, reader)
}

@Suite("Audio file reader")
struct AudioFileReaderTests {
    @Test(
        "round trip through every writable format and several rates",
        arguments: [
            (AudioFileWriter.Format.wav16, 8_000, "wav"), (.wav16, 44_100, "wav"), (.wavFloat, 192_000, "wav"),
            (.flac16, 16_000, "flac"), (.flac16, 96_000, "flac"), (.aiff16, 48_000, "aiff"), (.oggVorbis, 22_050, "ogg"),
        ])
    func roundTrip(format: AudioFileWriter.Format, rate: Int, ext: String) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var signal = SignalBuffer(sampleRate: Double(rate), duration: 0.5)
        signal.addTone(frequency: 440, start: 0, duration: 0.5, dBFS: -10)
        let path = dir.appendingPathComponent("tone.\(ext)").path
        try AudioFileWriter.write(signal.samples, sampleRate: rate, format: format, to: path)
        let (samples, reader) = try readAll(path)
        #expect(reader.sampleRate == rate)
        #expect(reader.channelCount == 1)
        #expect(samples.count == signal.samples.count)
        let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(samples.count, 1))).squareRoot()
        #expect(abs(20 * log10(rms) - -10) < 0.5)
        if format != .oggVorbis {
            let maxError = zip(samples, signal.samples).map { abs($0 - $1) }.max() ?? 0
            #expect(maxError < 1e-3)
        }
    }

    @Test("channels are mixed to mono by averaging", arguments: [2, 3, 6])
    func mixdown(channels: Int) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 1000
        var interleaved = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames { for c in 0..<channels { interleaved[i * channels + c] = Float(c + 1) * 0.1 } }
        let path = dir.appendingPathComponent("multi.wav").path
        try AudioFileWriter.write(interleaved, channels: channels, sampleRate: 8_000, format: .wavFloat, to: path)
        let (samples, reader) = try readAll(path)
        #expect(reader.channelCount == channels)
        let expected = Float((1...channels).reduce(0, +)) * 0.1 / Float(channels)
        #expect(samples.count == frames)
        #expect(samples.allSatisfy { abs($0 - expected) < 1e-6 })
    }

    @Test("readAllMono returns the whole recording, longer than one read block, as streamed")
    func readAllMonoMatchesStreaming() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 150_000
        var interleaved = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            interleaved[2 * i] = Float(sin(Double(i) * 0.01)) * 0.5
            interleaved[2 * i + 1] = 0.25
        }
        let path = dir.appendingPathComponent("long.wav").path
        try AudioFileWriter.write(interleaved, channels: 2, sampleRate: 22_050, format: .wavFloat, to: path)
        let (whole, rate) = try AudioFileReader.readAllMono(path: path)
        let (streamed, _) = try readAll(path)
        #expect(rate == 22_050)
        #expect(whole.count == frames)
        #expect(whole == streamed)
        #expect(abs(whole[1000] - (Float(sin(10.0)) * 0.5 + 0.25) / 2) < 1e-6)
        #expect(throws: AudioFileError.self) { try AudioFileReader.readAllMono(path: dir.appendingPathComponent("missing.wav").path) }
    }

    @Test("a zero-byte file is an error naming the file")
    func emptyFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("empty.wav").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: path) }
        #expect(error?.kind == .empty)
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test("a file that fails to open reports its own reason while other threads open files")
    func failedOpenReasonUnderConcurrency() throws {
        // libsndfile keeps a failed open's reason in one process-wide variable that every open
        // resets; unguarded, a parallel batch reported a broken file as "No Error.".
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.wav").path
        try AudioFileWriter.write([Float](repeating: 0.1, count: 800), sampleRate: 8_000, format: .wav16, to: good)
        let bad = dir.appendingPathComponent("bad.wav").path
        try "this is not audio\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let expected = try #require(#expect(throws: AudioFileError.self) { try AudioFileReader(path: bad) }).reason
        let reasons = NIOLockedValueBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<400 {
                if worker % 2 == 0 {
                    _ = try? AudioFileReader(path: good)
                } else {
                    do {
                        _ = try AudioFileReader(path: bad)
                    } catch let error as AudioFileError {
                        reasons.withLockedValue { $0.append(error.reason) }
                    } catch {}
                }
            }
        }
        let all = reasons.withLockedValue { $0 }
        #expect(all.count == 4 * 400)
        #expect(all.allSatisfy { $0 == expected }, "\(Set(all))")
    }

    @Test("a text file named .wav is an unsupported format")
    func textFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.wav").path
        try "this is not audio\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: path) }
        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.reason.contains("not a readable audio file") == true)
    }

    @Test("a missing file is unreadable")
    func missingFile() {
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: "/nonexistent/x.wav") }
        #expect(error?.kind == .unreadable)
    }

    @Test("a truncated WAV delivers what it holds, then reports the truncation")
    func truncated() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var signal = SignalBuffer(sampleRate: 16_000, duration: 2)
        signal.addTone(frequency: 440, start: 0, duration: 2, dBFS: -10)
        let full = dir.appendingPathComponent("full.wav").path
        try AudioFileWriter.write(signal.samples, sampleRate: 16_000, format: .wav16, to: full)
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = dir.appendingPathComponent("cut.wav").path
        try data.prefix(44 + 2 * 10_000).write(to: URL(fileURLWithPath: cut))
        let reader = try AudioFileReader(path: cut)
        var buffer = [Float](repeating: 0, count: 4096)
        var total = 0
        let error = #expect(throws: AudioFileError.self) {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                total += n
                if n == 0 { break }
            }
        }
        #expect(error?.kind == .truncated)
        #expect(error?.reason.contains("32000") == true)
        #expect(total == 10_000)
    }

    /// An Ogg Vorbis file whose last page declares `extraFrames` more than it encodes, as real
    /// encoders' delay and padding leave it (the page's CRC recomputed, so the file stays valid).
    static func oggDeclaringMore(than signal: SignalBuffer, extraFrames: Int64, at path: String) throws {
        try AudioFileWriter.write(signal.samples, sampleRate: Int(signal.sampleRate), format: .oggVorbis, to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The last page: the last "OggS" capture pattern.
        var last = -1
        for i in 0..<(bytes.count - 27) where bytes[i] == 0x4F && bytes[i + 1] == 0x67 && bytes[i + 2] == 0x67 && bytes[i + 3] == 0x53 {
            last = i
        }
        try #require(last >= 0)
        let segments = Int(bytes[last + 26])
        let bodyLength = (0..<segments).reduce(0) { $0 + Int(bytes[last + 27 + $1]) }
        let pageEnd = last + 27 + segments + bodyLength
        try #require(pageEnd == bytes.count)
        var granule: Int64 = 0
        for k in 0..<8 { granule |= Int64(bytes[last + 6 + k]) << (8 * k) }
        granule += extraFrames
        for k in 0..<8 { bytes[last + 6 + k] = UInt8(truncatingIfNeeded: granule >> (8 * k)) }
        // Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected, initial 0) over the page with a zero CRC field.
        for k in 22..<26 { bytes[last + k] = 0 }
        var crc: UInt32 = 0
        for byte in bytes[last..<pageEnd] {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        for k in 0..<4 { bytes[last + 22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("a lossy stream that decodes up to 1 s shorter than it declares is whole; more is truncated; PCM allows nothing")
    func lossyLengthTolerance() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var signal = SignalBuffer(sampleRate: 44_100, duration: 3)
        signal.addTone(frequency: 440, start: 0, duration: 3, dBFS: -10)
        // 0.2 s more declared than encoded (real MP3 and Vorbis soundtracks: 0.002-0.19 s): read whole.
        let padded = dir.appendingPathComponent("padded.ogg").path
        try Self.oggDeclaringMore(than: signal, extraFrames: 8_820, at: padded)
        let (samples, reader) = try readAll(padded)
        #expect(reader.declaredFrameCount == Int64(signal.samples.count) + 8_820)
        // The decoder no longer trims the last block to the declared end: up to one Vorbis block more.
        #expect(
            samples.count >= signal.samples.count && samples.count < signal.samples.count + 2_048,
            "\(samples.count) of \(signal.samples.count)")
        // 3 s more (a stream cut after its length was written): truncated, after every sample is delivered.
        let cut = dir.appendingPathComponent("cut.ogg").path
        try Self.oggDeclaringMore(than: signal, extraFrames: 132_300, at: cut)
        let error = #expect(throws: AudioFileError.self) { _ = try readAll(cut) }
        #expect(error?.kind == .truncated)
        #expect(error?.path == cut)
        #expect(AudioFileReader.lossyLengthToleranceSeconds == 1)
        // A WAV 100 frames (2 ms) short of its header is truncated: PCM lengths are exact.
        let wav = dir.appendingPathComponent("short.wav").path
        try AudioFileWriter.write(signal.samples, sampleRate: 44_100, format: .wav16, to: wav)
        let data = try Data(contentsOf: URL(fileURLWithPath: wav))
        try data.prefix(data.count - 200).write(to: URL(fileURLWithPath: wav))
        let pcmError = #expect(throws: AudioFileError.self) { _ = try readAll(wav) }
        #expect(pcmError?.kind == .truncated)
    }

    @Test("NaN and infinite samples become silence and are counted")
    func nonFinite() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var values = [Float](repeating: .nan, count: 500)
        values[10] = .infinity
        values[20] = 0.5
        let path = dir.appendingPathComponent("nan.wav").path
        try AudioFileWriter.write(values, sampleRate: 8_000, format: .wavFloat, to: path)
        let (samples, reader) = try readAll(path)
        #expect(samples.count == 500)
        #expect(reader.nonFiniteSampleCount == 499)
        #expect(samples[20] == 0.5)
        #expect(samples.allSatisfy { $0.isFinite })
    }

    /// Found by Fuzz/FuzzAudioFile: two finite float samples near -Float.greatestFiniteMagnitude
    /// summed to -inf in the mono mix, so a non-finite sample reached the detectors.
    @Test("mixing huge finite samples to mono stays finite")
    func hugeFiniteSamplesMixToFiniteMono() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = Float.greatestFiniteMagnitude
        // Frames of 3 channels: the first and last overflow a Float sum, the middle one does not.
        let interleaved: [Float] = [big, big, -big, -3e38, 1, 3, -big, -big, .infinity]
        let path = dir.appendingPathComponent("huge.wav").path
        try AudioFileWriter.write(interleaved, channels: 3, sampleRate: 8_000, format: .wavFloat, to: path)
        let (samples, reader) = try readAll(path)
        #expect(samples.count == 3)
        #expect(samples.allSatisfy { $0.isFinite })
        #expect(samples[0] == Float(Double(big) / 3))
        #expect(abs(samples[1] - -1e38) < 1e32)
        #expect(samples[2] == Float(-2 * Double(big) / 3))
        #expect(reader.nonFiniteSampleCount == 1)
    }

    /// The fuzzer's input itself: a 2-channel float WAV whose first frame is two samples near
    /// -2e38 (their sum overflows Float).
    @Test("the FuzzAudioFile finding reads as finite samples")
    func fuzzFindingHugeStereoFloat() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = Data(base64Encoded: "UklGRkQAAABXQVZFZm10IBAAAAADAAIAQB8AAAB9AAAEACAAZGF0YSCOAAAAAAD///8//wMA//////////9Sd5yAPg==")!
        let path = dir.appendingPathComponent("fuzz-60b8576a.wav").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try AudioFileReader(path: path)
        var buffer = [Float](repeating: .nan, count: 64)
        var delivered: [Float] = []
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
                if n == 0 { break }
                delivered += buffer[0..<n]
            }
        } catch let error as AudioFileError {
            #expect(error.kind == .truncated)
        }
        #expect(!delivered.isEmpty)
        #expect(delivered.allSatisfy { $0.isFinite })
    }

    @Test("sample rates outside 8...192 kHz are refused", arguments: [4_000, 200_000])
    func badRate(rate: Int) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rate.wav").path
        try AudioFileWriter.write([Float](repeating: 0, count: 100), sampleRate: rate, format: .wav16, to: path)
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: path) }
        #expect(error?.kind == .unsupportedSampleRate)
        #expect(error?.reason.contains("\(rate) Hz") == true)
    }

    @Test("channel counts above the limit are refused")
    func tooManyChannels() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("wide.wav").path
        try AudioFileWriter.write([Float](repeating: 0, count: 100 * 8), channels: 8, sampleRate: 8_000, format: .wav16, to: path)
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: path, limits: InputLimits(maxAudioChannels: 4)) }
        #expect(error?.kind == .unsupportedChannelCount)
        #expect(error?.reason.contains("--max-channels") == true)
        #expect(try AudioFileReader(path: path, limits: InputLimits(maxAudioChannels: 8)).channelCount == 8)
    }

    @Test("a header declaring more than the duration limit is refused at open")
    func declaredTooLong() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("long.wav").path
        try AudioFileWriter.write([Float](repeating: 0.1, count: 8_000 * 3), sampleRate: 8_000, format: .wav16, to: path)
        let error = #expect(throws: AudioFileError.self) { try AudioFileReader(path: path, limits: InputLimits(maxAudioDuration: 2)) }
        #expect(error?.kind == .tooLong)
        #expect(error?.reason.contains("--max-audio-duration") == true)
        let (samples, _) = try readAll(path)
        #expect(samples.count == 8_000 * 3)
    }

    @Test("a one-sample file reads as one sample")
    func oneSample() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("one.wav").path
        try AudioFileWriter.write([0.25], sampleRate: 44_100, format: .wav16, to: path)
        let (samples, _) = try readAll(path)
        #expect(samples.count == 1)
        #expect(abs(samples[0] - 0.25) < 1e-4)
    }
}
