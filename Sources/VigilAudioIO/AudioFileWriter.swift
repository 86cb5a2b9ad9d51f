import CSndFile

/// Writes audio files through libsndfile (WAV, FLAC, OGG, AIFF), for synthesized scenes,
/// samples and test fixtures.
public enum AudioFileWriter {
    /// Container and sample encoding of a written file.
    public enum Format: String, Sendable, CaseIterable {
        /// WAV, 16-bit PCM.
        case wav16
        /// WAV, 32-bit float.
        case wavFloat
        /// FLAC, 16-bit.
        case flac16
        /// AIFF, 16-bit PCM.
        case aiff16
        /// Ogg Vorbis.
        case oggVorbis

        /// libsndfile's format code.
        public var sndfileFormat: Int32 {
            switch self {
            case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .wavFloat: return Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
            case .flac16: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .aiff16: return Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
            case .oggVorbis: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            }
        }

        /// The format for a file name's extension (.wav → 16-bit WAV, .flac, .aif/.aiff, .ogg).
        public static func forPath(_ path: String) -> Format? {
            let lower = path.lowercased()
            if lower.hasSuffix(".wav") { return .wav16 }
            if lower.hasSuffix(".flac") { return .flac16 }
            if lower.hasSuffix(".aif") || lower.hasSuffix(".aiff") { return .aiff16 }
            if lower.hasSuffix(".ogg") { return .oggVorbis }
            return nil
        }
    }

    /// Writes `interleaved` samples (`channels` per frame) at `sampleRate` to `path`.
    /// Throws ``AudioFileError`` naming the file if it cannot be written.
    public static func write(
        _ interleaved: [Float], channels: Int = 1, sampleRate: Int, format: Format, to path: String
    ) throws {
        let writer = try AudioFileStreamWriter(path: path, channels: channels, sampleRate: sampleRate, format: format)
        try writer.append(interleaved)
        try writer.close()
    }
}

/// Writes an audio file block by block, so long synthesized recordings need not fit in memory.
public final class AudioFileStreamWriter {
    /// The path being written.
    public let path: String
    /// Channels per frame.
    public let channels: Int
    private var handle: OpaquePointer?

    /// Creates (truncates) `path` for writing `channels` channels at `sampleRate` in `format`.
    public init(path: String, channels: Int = 1, sampleRate: Int, format: AudioFileWriter.Format) throws {
        self.path = path
        self.channels = channels
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.sndfileFormat
        guard sf_format_check(&info) != 0 else {
            throw AudioFileError(
                path: path, kind: .unsupportedFormat,
                reason: "cannot write \(format.rawValue) at \(sampleRate) Hz with \(channels) channels")
        }
        let opened = SndFileOpener.open(path, mode: Int32(SFM_WRITE), info: &info)
        guard let h = opened.handle else {
            throw AudioFileError(path: path, kind: .unreadable, reason: "cannot create file: \(opened.reason)")
        }
        sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        handle = h
    }

    deinit { if let handle { sf_close(handle) } }

    /// Appends interleaved samples (a whole number of frames).
    public func append(_ interleaved: [Float]) throws {
        guard let handle else { throw AudioFileError(path: path, kind: .decodeFailed, reason: "write after close") }
        let frames = interleaved.count / max(channels, 1)
        let written = interleaved.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else {
            throw AudioFileError(path: path, kind: .decodeFailed, reason: "short write: \(written) of \(frames) frames")
        }
    }

    /// Finishes the file (writes the header's final lengths).
    public func close() throws {
        guard let h = handle else { return }
        handle = nil
        guard sf_close(h) == 0 else { throw AudioFileError(path: path, kind: .decodeFailed, reason: "cannot finish file") }
    }
}
