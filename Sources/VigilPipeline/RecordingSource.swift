import Foundation
import VigilAudioIO
import VigilCore
import VigilMedia

/// A recording file opened for `vigil analyze`: an audio file libsndfile reads, or a container
/// read through FFmpeg's libraries (camera recordings with video, and audio formats libsndfile
/// does not read, such as AAC in M4A).
///
/// Files with a container extension (``containerExtensions``) go to libav. Every other file goes
/// to libsndfile first, so WAV, FLAC and the other formats it reads decode exactly as they always
/// have; when libsndfile does not recognise the format, libav gets a try.
public enum RecordingSource {
    /// An audio file read by libsndfile.
    case audioFile(FileAudioSource)
    /// A container read by libav.
    case container(MediaContainerSource)

    /// Extensions of container files (video, and audio codecs libsndfile does not read), also
    /// picked up inside directories.
    public static let containerExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "mov", "qt", "mkv", "mka", "webm", "ts", "mts", "m2ts", "avi", "3gp", "flv", "mpg", "mpeg", "aac",
        "ac3", "wma", "wmv", "asf",
    ]

    /// The source's sample rate (0 for a container without audio).
    public var sampleRate: Double {
        switch self {
        case .audioFile(let file): file.sampleRate
        case .container(let container): container.sampleRate
        }
    }

    /// Opens `path`.
    /// - Throws: ``AudioFileError`` (libsndfile, and limits) or ``MediaReadError`` (libav), naming
    ///   the file and the reason.
    public static func open(path: String, limits: InputLimits, media: MediaReaderOptions) throws -> RecordingSource {
        let ext = (path as NSString).pathExtension.lowercased()
        if !containerExtensions.contains(ext) {
            do {
                return .audioFile(try FileAudioSource(path: path, limits: limits))
            } catch let error as AudioFileError where error.kind == .unsupportedFormat {
                do {
                    return .container(try openContainer(path: path, limits: limits, media: media))
                } catch let libav as MediaReadError where libav.kind == .invalidData || libav.kind == .noStreams {
                    throw AudioFileError(
                        path: path, kind: .unsupportedFormat,
                        reason: "\(error.reason); FFmpeg's libraries cannot read it either: \(libav.reason)")
                }
            }
        }
        return .container(try openContainer(path: path, limits: limits, media: media))
    }

    private static func openContainer(path: String, limits: InputLimits, media: MediaReaderOptions) throws -> MediaContainerSource {
        let source = try MediaContainerSource(path: path, options: media)
        if let duration = source.reader.duration, duration > limits.maxAudioDuration {
            throw AudioFileError(
                path: path, kind: .tooLong,
                reason: "the container declares \(DecimalText.fixed(duration, places: 1)) s, longer than the "
                    + "\(DecimalText.fixed(limits.maxAudioDuration, places: 0)) s limit \(InputLimits.Limit.audioDuration.raiseHint)")
        }
        if source.hasAudio, !(8_000...192_000).contains(Int(source.sampleRate)) {
            throw AudioFileError(
                path: path, kind: .unsupportedSampleRate,
                reason: "audio at \(Int(source.sampleRate)) Hz; the sound detectors need 8 to 192 kHz")
        }
        return source
    }
}
