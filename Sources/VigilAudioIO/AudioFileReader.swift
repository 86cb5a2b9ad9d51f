import CSndFile
import VigilCore

/// Streams any file libsndfile reads (WAV, FLAC, OGG/Vorbis, AIFF, CAF, ...) as mono float
/// samples in fixed blocks, so memory does not grow with the file's length.
///
/// Channels are mixed to mono by averaging. Non-finite samples (NaN, ±Inf) are replaced by
/// silence and counted in ``nonFiniteSampleCount``. Not thread-safe: one reader per file.
public final class AudioFileReader {
    /// Supported sample rates in Hz.
    public static let supportedSampleRates: ClosedRange<Int> = 8_000...192_000

    /// The path as given.
    public let path: String
    /// Samples per second per channel.
    public let sampleRate: Int
    /// Channels in the file (mixed to mono on reading).
    public let channelCount: Int
    /// Frames (samples per channel) the header declares; may exceed what the file holds if truncated.
    public let declaredFrameCount: Int64
    /// A short description of the container and encoding, e.g. "WAV PCM 16".
    public let formatDescription: String
    /// Frames delivered so far.
    public private(set) var framesRead: Int64 = 0
    /// Non-finite input samples replaced with silence so far.
    public private(set) var nonFiniteSampleCount: Int64 = 0
    /// The limits applied (channel count and duration).
    public let limits: InputLimits
    /// Most frames read before ``AudioFileError/Kind-swift.enum/tooLong`` (from `limits.maxAudioDuration`).
    public let maxFrames: Int64

    private var handle: OpaquePointer?
    private let blockFrames: Int
    private let interleaved: UnsafeMutableBufferPointer<Float>
    /// Frames the container header declares, when it declares more than the file holds.
    private let headerFrameCount: Int64?
    /// Frames fewer than declared that still count as the whole stream (lossy streams only).
    private let lengthToleranceFrames: Int64

    /// How much shorter than its declared length a lossy stream (Ogg Vorbis or Opus, MPEG audio)
    /// may decode without being reported as truncated, in seconds. Those containers declare the
    /// length from the last page's granule position or an MP3's Xing header, which encoder delay,
    /// padding and end trimming can leave above what decodes: 0.002-0.19 s short in released music
    /// (Debian's wesnoth, hyperrogue and drascula soundtracks), which every player plays whole. A
    /// lossless or PCM container's length is exact, so any shortfall there is a cut file.
    public static let lossyLengthToleranceSeconds = 1.0

    /// Opens `path`. Throws ``AudioFileError`` naming the file and the reason.
    /// - Parameters:
    ///   - blockFrames: frames read from the file per call (bounds the interleaved buffer).
    ///   - limits: channel counts above `maxAudioChannels` and recordings longer than
    ///     `maxAudioDuration` (declared by the header, or found while reading) are refused.
    public init(path: String, blockFrames: Int = 8192, limits: InputLimits = .default) throws {
        self.path = path
        self.limits = limits
        let maxChannels = limits.maxAudioChannels
        self.blockFrames = max(blockFrames, 1)
        var info = SF_INFO()
        let fileSize = AudioFileReader.fileSize(path)
        guard let size = fileSize else {
            throw AudioFileError(path: path, kind: .unreadable, reason: "cannot open file (does not exist or no permission)")
        }
        if size == 0 { throw AudioFileError(path: path, kind: .empty, reason: "file is empty (0 bytes)") }
        let opened = SndFileOpener.open(path, mode: Int32(SFM_READ), info: &info)
        guard let h = opened.handle else {
            throw AudioFileError(path: path, kind: .unsupportedFormat, reason: "not a readable audio file: \(opened.reason)")
        }
        handle = h
        guard AudioFileReader.supportedSampleRates.contains(Int(info.samplerate)) else {
            sf_close(h)
            handle = nil
            throw AudioFileError(
                path: path, kind: .unsupportedSampleRate,
                reason: "sample rate \(info.samplerate) Hz is outside the supported 8000...192000 Hz")
        }
        guard info.channels >= 1 && Int(info.channels) <= maxChannels else {
            sf_close(h)
            handle = nil
            throw AudioFileError(
                path: path, kind: .unsupportedChannelCount,
                reason: info.channels < 1
                    ? "\(info.channels) channels: a recording needs at least one"
                    : "\(info.channels) channels, more than the limit of \(maxChannels) \(InputLimits.Limit.audioChannels.raiseHint)")
        }
        let limitFrames = (limits.maxAudioDuration * Double(info.samplerate)).rounded(.down)
        maxFrames = !(limitFrames < 9.0e18) ? Int64.max : Int64(max(limitFrames, 0))
        if Int64(info.frames) > maxFrames && Int64(info.frames) < Int64.max / 2 {
            sf_close(h)
            handle = nil
            throw AudioFileError(
                path: path, kind: .tooLong,
                reason: "header declares \(Self.durationText(Double(info.frames) / Double(info.samplerate))), longer than the "
                    + "\(Self.durationText(limits.maxAudioDuration)) limit \(InputLimits.Limit.audioDuration.raiseHint)")
        }
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        declaredFrameCount = Int64(info.frames)
        formatDescription = AudioFileReader.describe(format: info.format)
        interleaved = .allocate(capacity: self.blockFrames * Int(info.channels))
        headerFrameCount = AudioFileReader.headerDeclaredFrames(handle: h, info: info)
        lengthToleranceFrames =
            AudioFileReader.isLossyStream(format: info.format)
            ? Int64(Double(info.samplerate) * Self.lossyLengthToleranceSeconds) : 0
    }

    deinit {
        if let handle { sf_close(handle) }
        interleaved.deallocate()
    }

    /// Duration the header declares, in seconds.
    public var declaredDuration: Double { Double(declaredFrameCount) / Double(sampleRate) }

    /// Reads up to `buffer.count` mono samples; returns how many were written, 0 at the end.
    /// At the end, throws ``AudioFileError`` (kind `truncated` or `decodeFailed`) instead of
    /// returning 0 when the stream ended early or could not be decoded; every sample before
    /// that point has been delivered.
    public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard let handle, buffer.count > 0 else { return 0 }
        if framesRead >= maxFrames {
            // Streams of unknown length (a 0xFFFFFFFF WAV size, a pipe) stop here.
            var probe: Float = 0
            let more = channelCount == 1 ? sf_readf_float(handle, &probe, 1) : sf_readf_float(handle, interleaved.baseAddress, 1)
            if more > 0 {
                throw AudioFileError(
                    path: path, kind: .tooLong,
                    reason: "longer than the \(Self.durationText(limits.maxAudioDuration)) limit, stopped after \(framesRead) frames "
                        + InputLimits.Limit.audioDuration.raiseHint)
            }
        }
        let channels = channelCount
        var written = 0
        while written < buffer.count {
            let want = Int(min(Int64(min(blockFrames, buffer.count - written)), max(maxFrames - framesRead, 0)))
            if want == 0 { break }
            let got = Int(sf_readf_float(handle, interleaved.baseAddress, sf_count_t(want)))
            if got <= 0 { break }
            let out = buffer.baseAddress! + written
            let src = interleaved.baseAddress!
            var bad: Int64 = 0
            if channels == 1 {
                for i in 0..<got {
                    let v = src[i]
                    if v.isFinite { out[i] = v } else { out[i] = 0; bad += 1 }
                }
            } else {
                let scale = 1 / Float(channels)
                for i in 0..<got {
                    var sum: Float = 0
                    let row = src + i * channels
                    for c in 0..<channels {
                        let v = row[c]
                        if v.isFinite { sum += v } else { bad += 1 }
                    }
                    let mixed = sum * scale
                    // Finite samples near ±Float.greatestFiniteMagnitude can sum past it: mix
                    // that frame again in Double, whose mean of finite floats is a finite float.
                    out[i] = mixed.isFinite ? mixed : AudioFileReader.wideMean(row, channels: channels)
                }
            }
            nonFiniteSampleCount += bad
            written += got
            framesRead += Int64(got)
            if got < want { break }
        }
        // Deliver every sample first; a truncation or decode error surfaces on the call that
        // finds the end, so nothing already read is lost.
        if written == 0 { try checkCompleteness() }
        return written
    }

    private var reportedEnd = false

    private func checkCompleteness() throws {
        guard !reportedEnd, let handle else { return }
        reportedEnd = true
        let errorCode = sf_error(handle)
        if errorCode != 0 {
            let message = String(cString: sf_strerror(handle))
            throw AudioFileError(
                path: path, kind: .decodeFailed,
                reason: "decoding failed after \(framesRead) frames: \(message)")
        }
        let declared = max(declaredFrameCount, headerFrameCount ?? 0)
        if framesRead + lengthToleranceFrames < declared {
            throw AudioFileError(
                path: path, kind: .truncated,
                reason: "truncated: header declares \(declared) frames, file holds \(framesRead)")
        }
    }

    /// Decodes the whole file at `path` to mono samples (for training and tests that need the
    /// recording in memory; analysis streams with ``readMono(into:)`` instead).
    public static func readAllMono(path: String, limits: InputLimits = .default) throws -> (samples: [Float], sampleRate: Int) {
        let reader = try AudioFileReader(path: path, limits: limits)
        var out: [Float] = []
        var block = [Float](repeating: 0, count: 65_536)
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.readMono(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: block[0..<n])
        }
        return (out, reader.sampleRate)
    }

    /// "90 s", "2.5 h": a duration for messages.
    static func durationText(_ seconds: Double) -> String {
        if seconds >= 7200 { return "\(JSONValue.numberText((seconds / 360).rounded() / 10)) h" }
        if seconds < 10 { return "\(JSONValue.numberText((seconds * 1000).rounded() / 1000)) s" }
        return "\(JSONValue.numberText((seconds * 10).rounded() / 10)) s"
    }

    /// The mean of the finite samples of one frame (non-finite ones count as silence),
    /// accumulated in Double so that it cannot overflow.
    private static func wideMean(_ row: UnsafeMutablePointer<Float>, channels: Int) -> Float {
        var sum: Double = 0
        for c in 0..<channels where row[c].isFinite { sum += Double(row[c]) }
        return Float(sum / Double(channels))
    }

    private static func fileSize(_ path: String) -> Int64? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        guard fseeko(f, 0, SEEK_END) == 0 else { return nil }
        return Int64(ftello(f))
    }

    /// Whether `format` is a lossy stream whose declared length is an estimate (Ogg, MPEG audio).
    static func isLossyStream(format: Int32) -> Bool {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(format) & Int(SF_FORMAT_SUBMASK)
        return major == Int(SF_FORMAT_OGG) || major == Int(SF_FORMAT_MPEG)
            || [
                Int(SF_FORMAT_VORBIS), Int(SF_FORMAT_OPUS), Int(SF_FORMAT_MPEG_LAYER_I), Int(SF_FORMAT_MPEG_LAYER_II),
                Int(SF_FORMAT_MPEG_LAYER_III),
            ]
            .contains(sub)
    }

    /// For PCM WAV/AIFF: the frame count the header declares when it is larger than the file
    /// holds. libsndfile silently shortens `frames` to what is present and notes the header's
    /// figure in its log as `data : DECLARED (should be PRESENT)`. Streaming writers put 0 or
    /// 0xFFFFFFFF in the length field; those mean "unknown length", not truncation.
    private static func headerDeclaredFrames(handle: OpaquePointer, info: SF_INFO) -> Int64? {
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        guard
            major == Int(SF_FORMAT_WAV) || major == Int(SF_FORMAT_AIFF) || major == Int(SF_FORMAT_WAVEX)
                || major == Int(SF_FORMAT_RF64)
        else { return nil }
        let bytesPerSample: Int
        switch Int(info.format) & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_PCM_U8), Int(SF_FORMAT_PCM_S8): bytesPerSample = 1
        case Int(SF_FORMAT_PCM_16): bytesPerSample = 2
        case Int(SF_FORMAT_PCM_24): bytesPerSample = 3
        case Int(SF_FORMAT_PCM_32), Int(SF_FORMAT_FLOAT): bytesPerSample = 4
        case Int(SF_FORMAT_DOUBLE): bytesPerSample = 8
        default: return nil
        }
        var log = [CChar](repeating: 0, count: 8192)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            guard trimmed.hasPrefix("data :") || trimmed.hasPrefix("SSND :"), line.contains("should be") else { continue }
            let digits = trimmed.dropFirst(6).drop(while: { $0 == " " }).prefix(while: { $0.isNumber })
            guard let declaredBytes = Int64(digits) else { continue }
            if declaredBytes == 0 || declaredBytes >= 0xFFFF_FF00 { return nil }
            return declaredBytes / Int64(bytesPerSample * Int(info.channels))
        }
        return nil
    }

    private static func describe(format: Int32) -> String {
        var major = SF_FORMAT_INFO()
        major.format = format & Int32(SF_FORMAT_TYPEMASK)
        sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &major, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        var sub = SF_FORMAT_INFO()
        sub.format = format & Int32(SF_FORMAT_SUBMASK)
        sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &sub, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        let a = major.name.map { String(cString: $0) } ?? "unknown container"
        let b = sub.name.map { String(cString: $0) } ?? "unknown encoding"
        return "\(a), \(b)"
    }
}

#if canImport(Glibc)
import Glibc
#endif
