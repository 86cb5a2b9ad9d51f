import Foundation
import Glibc
import Testing
import VigilAudioIO
import VigilCore
import VigilFrameIO
import VigilImaging
import VigilMedia

/// Everything a reader hands over, in order.
struct ReadAll {
    var audio: [MediaAudioChunk] = []
    var frames: [MediaLumaFrame] = []
    var samples: [Float] { audio.flatMap(\.samples) }

    init(_ reader: MediaContainerReader) throws {
        while let chunk = try reader.nextChunk() {
            switch chunk {
            case .audio(let a): audio.append(a)
            case .video(let f): frames.append(f)
            }
        }
    }
}

/// The y4m reference frames' luma planes.
func referenceLuma(_ url: URL) throws -> [[UInt8]] {
    var reader = try Y4MReader(source: try FileDescriptorReader(path: url.path), name: url.lastPathComponent)
    var planes: [[UInt8]] = []
    while let frame = try reader.nextFrame() { planes.append(frame.picture.luma.pixels) }
    return planes
}

func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var total = 0
    for i in a.indices { total += abs(Int(a[i]) - Int(b[i])) }
    return Double(total) / Double(a.count)
}

/// The lag (samples, -maxLag...maxLag) at which `signal` best matches `reference`, and the
/// normalised correlation there.
func bestLag(_ signal: [Float], _ reference: [Float], maxLag: Int) -> (lag: Int, correlation: Double) {
    let n = min(signal.count, reference.count) - 2 * maxLag
    var best = (lag: 0, correlation: -2.0)
    for lag in -maxLag...maxLag {
        var dot = 0.0, e1 = 0.0, e2 = 0.0
        for i in maxLag..<(maxLag + n) {
            let x = Double(signal[i + lag]), y = Double(reference[i])
            dot += x * y
            e1 += x * x
            e2 += y * y
        }
        let c = dot / max(1e-12, (e1 * e2).squareRoot())
        if c > best.correlation { best = (lag, c) }
    }
    return best
}

@Suite(
    "MediaContainerReader on files made by ffmpeg", .serialized,
    .enabled(if: ffmpegAvailable, "needs the ffmpeg command (Debian package ffmpeg)"))
struct MediaContainerReaderTests {
    let media: GeneratedMedia
    init() throws { media = try GeneratedMedia.shared.get() }

    /// Checks one audio + video file against the sources: 3 s of 16 kHz audio that matches the
    /// FLAC, 15 luma frames 0.2 s apart that match the y4m frames, and audio and video in step on
    /// the one timeline: the audio sample that holds the source's first sample is at the first
    /// frame's time, within 12 ms (containers round timestamps to milliseconds, encoders add delay).
    func checkAudioAndVideo(_ url: URL, codecs: (String, String), lumaTolerance: Double) throws {
        let reader = try MediaContainerReader(input: url.path, options: MediaReaderOptions(audioSampleRate: 16_000, analysisFPS: 5))
        #expect(reader.audio?.codecName == codecs.0 && reader.video?.codecName == codecs.1)
        #expect(reader.video?.width == 128 && reader.video?.height == 72 && reader.audio?.sampleRate == 16_000)
        let duration = try #require(reader.duration)
        #expect(abs(duration - 3) < 0.1, "duration \(duration)")
        let read = try ReadAll(reader)
        // Audio: contiguous chunks, 3 s give or take a codec frame.
        let audioSeconds = Double(read.samples.count) / 16_000
        #expect(abs(audioSeconds - 3) < 0.07, "\(read.samples.count) samples")
        for (a, b) in zip(read.audio, read.audio.dropFirst()) { #expect(abs(a.endTime - b.time) < 1e-9) }
        let reference = try AudioFileReader.readAllMono(path: media.flac.path)
        #expect(reference.sampleRate == 16_000)
        let match = bestLag(read.samples, reference.samples, maxLag: 400)
        #expect(match.correlation > 0.9, "correlation with the FLAC source \(match.correlation)")
        // Video: one frame per analysis time, each equal to its y4m frame within codec error.
        #expect(read.frames.count == 15, "\(read.frames.map(\.time))")
        let start = try #require(read.frames.first?.time)
        #expect(abs(start) < 0.02, "video starts at \(start)")
        let sourceStart = read.audio[0].time + Double(match.lag) / 16_000
        #expect(abs(sourceStart - start) < 0.012, "audio of the first frame's instant is at \(sourceStart), the frame at \(start)")
        let planes = try referenceLuma(media.y4m)
        for (k, frame) in read.frames.enumerated() {
            #expect(abs(frame.time - (start + 0.2 * Double(k))) < 0.002, "frame \(frame.index) at \(frame.time)")
            #expect(frame.index == k && frame.width == 128 && frame.height == 72 && frame.luma.count == 128 * 72)
            let sourceIndex = Int(((frame.time - start) * 10).rounded())
            let difference = meanAbsoluteDifference(frame.luma, planes[sourceIndex])
            #expect(difference < lumaTolerance, "frame at \(frame.time): mean |luma difference| \(difference)")
            // Against a different frame of the walk the difference is larger: the check can fail.
            let other = planes[(sourceIndex + 5) % planes.count]
            #expect(meanAbsoluteDifference(frame.luma, other) > difference)
        }
    }

    @Test("skipping non-reference frames hands over fewer or later frames, each matching the source at its own time")
    func nonReferenceSkipping() throws {
        let reader = try MediaContainerReader(
            input: media.videoOnly.path, options: MediaReaderOptions(analysisFPS: 5, skipsNonReferenceFrames: true))
        let frames = try ReadAll(reader).frames
        let planes = try referenceLuma(media.y4m)
        #expect(!frames.isEmpty && frames.count <= 15)
        for frame in frames {
            let sourceIndex = Int((frame.time * 10).rounded())
            #expect(abs(frame.time * 10 - Double(sourceIndex)) < 0.02, "frame at \(frame.time) is not on a source frame")
            #expect(meanAbsoluteDifference(frame.luma, planes[sourceIndex]) < 2.5)
        }
        // A frame stands for the first analysis time it reaches: never two for one time.
        #expect(zip(frames, frames.dropFirst()).allSatisfy { Int(($0.time + 0.001) * 5) < Int(($1.time + 0.001) * 5) })
    }

    @Test("H.264 + AAC in MP4")
    func h264AAC() throws { try checkAudioAndVideo(media.h264AAC, codecs: ("aac", "h264"), lumaTolerance: 2.5) }

    @Test("H.265 + Opus in MKV")
    func h265Opus() throws { try checkAudioAndVideo(media.h265Opus, codecs: ("opus", "hevc"), lumaTolerance: 3) }

    @Test("VP9 + Opus in WebM")
    func webm() throws { try checkAudioAndVideo(media.webm, codecs: ("opus", "vp9"), lumaTolerance: 4) }

    @Test("every frame without an analysis rate; the native audio rate without a requested one")
    func allFramesNativeRate() throws {
        let reader = try MediaContainerReader(input: media.h265Opus.path, options: MediaReaderOptions(analysisFPS: nil))
        #expect(reader.audio?.sampleRate == 48_000 && reader.audio?.sourceSampleRate == 48_000)
        let read = try ReadAll(reader)
        #expect(read.frames.count == 30)
        let audioSeconds = Double(read.samples.count) / 48_000
        #expect(abs(audioSeconds - 3) < 0.07)
        let start = try #require(read.frames.first?.time)
        #expect(read.frames.enumerated().allSatisfy { abs($0.element.time - start - Double($0.offset) / 10) < 0.002 })
    }

    @Test("audio only and video only; either kind can be skipped")
    func singleKinds() throws {
        let audioOnly = try MediaContainerReader(input: media.audioOnly.path, options: MediaReaderOptions(audioSampleRate: 8000))
        #expect(audioOnly.video == nil)
        let a = try ReadAll(audioOnly)
        #expect(a.frames.isEmpty && abs(Double(a.samples.count) / 8000 - 3) < 0.07)

        let videoOnly = try MediaContainerReader(input: media.videoOnly.path)
        #expect(videoOnly.audio == nil && videoOnly.video?.frameRate == 10)
        let v = try ReadAll(videoOnly)
        #expect(v.audio.isEmpty && v.frames.count == 15)

        let noVideo = try ReadAll(try MediaContainerReader(input: media.h264AAC.path, options: MediaReaderOptions(readsVideo: false)))
        #expect(noVideo.frames.isEmpty && !noVideo.audio.isEmpty)
        let noAudio = try ReadAll(try MediaContainerReader(input: media.h264AAC.path, options: MediaReaderOptions(readsAudio: false)))
        #expect(noAudio.audio.isEmpty && noAudio.frames.count == 15)

        #expect {
            try MediaContainerReader(input: media.videoOnly.path, options: MediaReaderOptions(readsVideo: false))
        } throws: { error in
            (error as? MediaReadError)?.kind == .noStreams && "\(error)".contains("video.mp4") && "\(error)".contains("no audio stream")
        }
    }

    @Test("the same container from memory gives the same chunks as from the file")
    func memory() throws {
        let bytes = try [UInt8](Data(contentsOf: media.h264AAC))
        let fromMemory = try ReadAll(
            try MediaContainerReader(bytes: bytes, name: "clip in memory", options: MediaReaderOptions(audioSampleRate: 16_000)))
        let fromFile = try ReadAll(
            try MediaContainerReader(input: media.h264AAC.path, options: MediaReaderOptions(audioSampleRate: 16_000)))
        #expect(fromMemory.frames == fromFile.frames && fromMemory.audio == fromFile.audio)
    }

    @Test("a truncated MP4: index at the end is an open error, index at the front a read error; both name the file")
    func truncated() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (source, name) in [(media.h264AAC, "cut-tail-index.mp4"), (media.fastStart, "cut-front-index.mp4")] {
            let bytes = try Data(contentsOf: source)
            let cut = directory.appendingPathComponent(name)
            try bytes.prefix(bytes.count * 6 / 10).write(to: cut)
            #expect {
                let reader = try MediaContainerReader(input: cut.path)
                _ = try ReadAll(reader)
            } throws: { error in
                guard let error = error as? MediaReadError else { return false }
                let kind = name == "cut-tail-index.mp4" ? MediaReadError.Kind.invalidData : .readFailed
                #expect(error.kind == kind && error.description.hasPrefix(cut.path + ": "), "\(error)")
                return error.kind == kind
            }
        }
    }

    @Test("garbage, a missing file and an undecodable codec are errors naming the input and the reason")
    func badInputs() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Random bytes, fixed by the seed. libavformat's probe finds nothing in most, but takes seed 35's for an
        // LRC subtitle file and seed 214's for raw H.263 (one garbage picture decodes), both at scores it warns of.
        for seed: UInt64 in [1, 35, 214] {
            var generator = SplitMix64(seed: seed)
            var bytes: [UInt8] = []
            for _ in 0..<12_500 { withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) } }
            let garbage = directory.appendingPathComponent("garbage-\(seed).mp4")
            try Data(bytes).write(to: garbage)
            do {
                let reader = try MediaContainerReader(input: garbage.path)
                let read = try ReadAll(reader)
                Issue.record("seed \(seed) opened as \(reader.formatName): \(read.frames.count) frames, \(read.samples.count) samples")
            } catch let error as MediaReadError {
                #expect(error.kind == .invalidData && error.description.hasPrefix(garbage.path + ": "), "seed \(seed): \(error)")
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
        do {
            _ = try MediaContainerReader(input: directory.appendingPathComponent("missing.mp4").path)
            Issue.record("a missing file opened")
        } catch {
            #expect(
                error.kind == .unreadable && error.description.contains("missing.mp4") && error.reason.contains("No such file"), "\(error)")
        }
        // A Matroska video track whose codec id no decoder knows.
        let mkv = directory.appendingPathComponent("video.mkv")
        try run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", media.videoOnly.path, "-c", "copy", mkv.path])
        var bytes = try [UInt8](Data(contentsOf: mkv))
        let codecID = Array("V_MPEG4/ISO/AVC".utf8)
        let at = try #require((0...(bytes.count - codecID.count)).first { Array(bytes[$0..<($0 + codecID.count)]) == codecID })
        bytes.replaceSubrange(at..<(at + codecID.count), with: Array("V_VIGIL/NO/SUCH".utf8))
        let unknown = directory.appendingPathComponent("unknown-codec.mkv")
        try Data(bytes).write(to: unknown)
        do {
            _ = try MediaContainerReader(input: unknown.path)
            Issue.record("an undecodable codec opened")
        } catch {
            #expect(
                error.kind == .unsupportedCodec && error.description.contains("unknown-codec.mkv") && error.reason.contains("no decoder"),
                "\(error)")
        }
    }

    @Test("a refused connection is an error naming the URL, without its password")
    func refusedConnection() throws {
        let port = freeLoopbackPort()
        do {
            _ = try MediaContainerReader(input: "rtsp://user:secret@127.0.0.1:\(port)/cam", options: MediaReaderOptions(openTimeout: 5))
            Issue.record("opened a closed port")
        } catch {
            #expect(error.kind == .unreadable && error.reason.contains("Connection refused"), "\(error)")
            #expect(error.input == "rtsp://user:***@127.0.0.1:\(port)/cam" && !error.description.contains("secret"))
        }
    }

    @Test("a server that accepts the connection but never answers times out")
    func silentServer() throws {
        // A listening socket that never accepts: the kernel completes the TCP handshake, nothing answers.
        let (socket, port) = try #require(silentListener())
        defer { close(socket) }
        do {
            _ = try MediaContainerReader(
                input: "http://127.0.0.1:\(port)/a.wav", options: MediaReaderOptions(openTimeout: 1.5, readTimeout: 1.5))
            Issue.record("opened a silent stream")
        } catch {
            #expect(error.kind == .timedOut && error.description.hasPrefix("http://127.0.0.1:\(port)/a.wav: "), "\(error)")
        }
    }
}
