import CFFmpeg
import Foundation
import Testing

@testable import VigilMedia

/// Regression tests for what `FuzzMediaContainer` found (docs/fuzzing.md, "Findings"), through
/// the normal API. The fuzzer's input is also a seed in
/// Fuzz/Corpus/FuzzMediaContainer/regression-wav-info-tag-1.7-gib.
@Suite("Media container fuzz findings")
struct MediaContainerFuzzFindingTests {
    /// A 16-bit mono PCM WAV file of `samples` at 8 kHz, its chunks in `order`: `fmt `, `data`,
    /// and a `LIST`/`INFO` chunk holding one `ISFT` tag that declares `tagSize` bytes but carries
    /// only a few (the declared sizes are what libav allocates before reading).
    static func wav(samples: [Int16], tagSize: UInt32, listFirst: Bool) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func le16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let format = Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(8000) + le32(16_000) + le16(2) + le16(16)
        let pcm = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        let data = Array("data".utf8) + le32(UInt32(pcm.count)) + pcm
        let tagText = Array("Lavf59".utf8) + [0, 0]
        // The LIST chunk claims room for the whole tag, as the fuzzer's input did.
        let list = Array("LIST".utf8) + le32(tagSize &+ 12) + Array("INFO".utf8) + Array("ISFT".utf8) + le32(tagSize) + tagText
        let body = Array("WAVE".utf8) + format + (listFirst ? list + data : data + list)
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    @Test("libav may not allocate more than 256 MiB at once once a reader is made")
    func allocationLimit() throws {
        _ = try? MediaContainerReader(bytes: Array("not media".utf8), name: "probe")
        #expect(LibavSetup.largestAllocation == 256 << 20)
        let refused = av_malloc(LibavSetup.largestAllocation + 1)
        #expect(refused == nil, "libav allocated more than the limit")
        av_free(refused)
        let granted = av_malloc(64 << 20)
        #expect(granted != nil, "a 64 MiB block, the size of a large video frame's plane, was refused")
        av_free(granted)
    }

    @Test("a WAV file whose INFO tag declares 1.7 GiB still reads all its samples")
    func hugeInfoTagAfterData() throws {
        let samples = (0..<8000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 8000)) }
        for tagSize: UInt32 in [1_800_000_000, 300_000_000, 16] {
            let bytes = Self.wav(samples: samples, tagSize: tagSize, listFirst: false)
            let read = try ReadAll(try MediaContainerReader(bytes: bytes, name: "info-\(tagSize).wav"))
            #expect(read.samples.count == samples.count, "tag of \(tagSize) bytes")
            let expected = samples.map { Float($0) / 32768 }
            #expect(zip(read.samples, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "tag of \(tagSize) bytes")
        }
    }

    /// The fuzzer's 1,792 bytes: a WAV file whose LIST chunk declares 4 GiB and whose INFO tag
    /// declares 1.7 GiB, before any data chunk. libav allocated the tag in full (1.9 GB resident,
    /// over the fuzzer's 2 GB limit beside its corpus); now that allocation is refused.
    @Test("the FuzzMediaContainer finding is an error naming the input, without a 1.7 GiB allocation")
    func fuzzFindingHugeInfoTag() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzMediaContainer/regression-wav-info-tag-1.7-gib")
        let bytes = try [UInt8](Data(contentsOf: seed))
        #expect(bytes.count == 1792)
        #expect {
            let reader = try MediaContainerReader(
                bytes: bytes, name: "fuzz-finding.wav", options: MediaReaderOptions(audioSampleRate: 16_000))
            _ = try ReadAll(reader)
        } throws: { error in
            guard let error = error as? MediaReadError else { return false }
            return error.kind == .invalidData
                && error.description == "fuzz-finding.wav: cannot open: Invalid data found when processing input"
        }
        // The same shape built here, with the INFO chunk before the data: the open fails the same way.
        let built = Self.wav(samples: [0, 1, 2], tagSize: 1_800_000_000, listFirst: true)
        #expect {
            _ = try ReadAll(try MediaContainerReader(bytes: built, name: "list-first.wav"))
        } throws: { error in
            "\(error)" == "list-first.wav: cannot open: Invalid data found when processing input"
        }
    }
}
