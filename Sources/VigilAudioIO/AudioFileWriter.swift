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

        var sndfileFormat: Int32 {
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
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.sndfileFormat
        guard sf_format_check(&info) != 0 else {
            throw AudioFileError(
                path: path, kind: .unsupportedFormat,
                reason: "cannot write \(format.rawValue) at \(sampleRate) Hz with \(channels) channels")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError(path: path, kind: .unreadable, reason: "cannot create file: \(String(cString: sf_strerror(nil)))")
        }
        // Clip rather than wrap when converting floats to integer PCM.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        let frames = interleaved.count / max(channels, 1)
        let written = interleaved.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        let closeStatus = sf_close(handle)
        guard written == frames, closeStatus == 0 else {
            throw AudioFileError(path: path, kind: .decodeFailed, reason: "short write: \(written) of \(frames) frames")
        }
    }
}
