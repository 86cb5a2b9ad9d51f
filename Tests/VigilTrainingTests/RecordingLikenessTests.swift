import Foundation
import Testing
import VigilDSP
import VigilTestSupport
import VigilTraining

@Suite("Clips of unknown source cut from one recording")
struct RecordingLikenessTests {
    static func clip(_ name: String, group: String, label: String = "dogBark") -> TrainingClip {
        TrainingClip(filename: name, label: label, category: "x", group: group, voices: false, seconds: 3)
    }

    @Test("a group names the clip itself when it is a file name after the source's colon")
    func unknownSource() {
        #expect(Self.clip("a.flac", group: "yash:dog_10.wav").sourceIsUnknown)
        #expect(Self.clip("a.flac", group: "eth:Dog_Barking_0.WAV").sourceIsUnknown)
        #expect(Self.clip("a.flac", group: "x:take.flac").sourceIsUnknown)
        #expect(!Self.clip("a.flac", group: "freesound:101415").sourceIsUnknown)
        #expect(!Self.clip("a.flac", group: "speaker:0a7c2a8d").sourceIsUnknown)
        #expect(!Self.clip("a.flac", group: "take:clap_large_0").sourceIsUnknown)
        #expect(!Self.clip("a.flac", group: "dog_10.wav").sourceIsUnknown)  // no source before a colon
        #expect(Self.clip("a.flac", group: "yash:dog_10.wav").sourceName == "yash")
        #expect(Self.clip("a.flac", group: "plain").sourceName == "plain")
    }

    @Test("two cuts of one recording are joined, at their own rates; another recording, a known source or another source is not")
    func cutsOfOneRecordingJoin() throws {
        let long = BurstsOverNoise.recording(seconds: 8, sampleRate: 16_000, pink: true, pitch: 450, seed: 1)
        let other = BurstsOverNoise.recording(seconds: 3, sampleRate: 16_000, pink: false, pitch: 1_100, seed: 2)
        let first = Array(long[0..<48_000])
        let second = Array(long[64_000..<112_000])
        let signatures: [String: RecordingLikeness.Signature] = try [
            "a": #require(RecordingLikeness.signature(samples: first, sampleRate: 16_000)),
            "b": #require(RecordingLikeness.signature(samples: second, sampleRate: 16_000)),
            "c": #require(RecordingLikeness.signature(samples: other, sampleRate: 16_000)),
            "known": #require(RecordingLikeness.signature(samples: second, sampleRate: 16_000)),
            "elsewhere": #require(RecordingLikeness.signature(samples: second, sampleRate: 16_000)),
        ]
        let same = try #require(RecordingLikeness.similarity(signatures["a"]!, signatures["b"]!))
        #expect(same.background >= RecordingLikeness.threshold && same.sound >= RecordingLikeness.threshold, "\(same)")
        let different = try #require(RecordingLikeness.similarity(signatures["a"]!, signatures["c"]!))
        #expect(different.background < RecordingLikeness.threshold && different.sound < RecordingLikeness.threshold, "\(different)")
        let clips = [
            Self.clip("a", group: "src:a.wav"), Self.clip("b", group: "src:b.wav", label: "negative"),
            Self.clip("c", group: "src:c.wav"), Self.clip("known", group: "freesound:7"),
            Self.clip("elsewhere", group: "other:e.wav"), Self.clip("unread", group: "src:u.wav"),
        ]
        let joined = RecordingLikeness.joiningAlikeClips(clips, signatures: signatures)
        #expect(joined[0].alikeGroup == "alike:a" && joined[1].alikeGroup == "alike:a")
        #expect(joined[2...].allSatisfy { $0.alikeGroup == nil })
        #expect(joined[0].groupKeys == ["clips:src:a.wav", "alike:a"] && joined[3].groupKeys == ["us8k:7"])
        // The folds keep the joined clips together.
        var keyed: [String: TrainingClip] = [:]
        for clip in joined { keyed[TrainingClip.namePrefix + clip.filename] = clip }
        let items = CrossValidationPlan.items(devFiles: [], provenance: [], annotations: [], durations: [:], clips: keyed)
        let components = GroupedFolds.components(keys: items.keys)
        #expect(components["clip:a"] == components["clip:b"] && components["clip:a"] != components["clip:c"])

        // One recording at 44.1 kHz and resampled to 8 kHz is compared over the bands both carry. (A band's energy is a
        // sum over whole frequency bins, whose widths differ between rates, so such a pair need not reach the threshold:
        // docs/sound-models.md, "Cross-validation".)
        let high = BurstsOverNoise.recording(seconds: 3, sampleRate: 44_100, pink: true, pitch: 450, seed: 4)
        let low = BandLimitedResampler.resample(high, from: 44_100, to: 8_000)
        let lowSignature = try #require(RecordingLikeness.signature(samples: low, sampleRate: 8_000))
        let highSignature = try #require(RecordingLikeness.signature(samples: high, sampleRate: 44_100))
        #expect(lowSignature.carried.filter { $0 }.count < highSignature.carried.filter { $0 }.count)
        #expect(RecordingLikeness.similarity(lowSignature, highSignature) != nil)
        // Too short for a frame: no signature.
        #expect(RecordingLikeness.signature(samples: [Float](repeating: 0.1, count: 100), sampleRate: 16_000) == nil)
    }

    @Test(
        "on real clips: no two UrbanSound8K barks of different Freesound ids are alike, and nine bird clips of one recording are joined",
        .enabled(if: DevData.clipsAvailable, "needs ../shared/data/train"))
    func realClips() throws {
        let list = try TrainingClips.parse(
            String(contentsOf: DevData.clipDirectory.appendingPathComponent("clips.tsv"), encoding: .utf8), path: "clips.tsv")
        func signature(_ clip: TrainingClip) throws -> RecordingLikeness.Signature {
            let audio = try DevData.loadAudio(DevData.clipDirectory.appendingPathComponent("audio/\(clip.filename)").path)
            return try #require(RecordingLikeness.signature(samples: audio.samples, sampleRate: audio.sampleRate))
        }
        let barks = list.filter { $0.filename.hasPrefix("bark_us8k_") }
        let barkSignatures = try barks.map(signature)
        var sameGroup = 0, sameGroupAlike = 0, crossAlike = 0
        for i in barks.indices {
            for j in barks.indices where j > i {
                guard let s = RecordingLikeness.similarity(barkSignatures[i], barkSignatures[j]) else { continue }
                let alike = s.background >= RecordingLikeness.threshold && s.sound >= RecordingLikeness.threshold
                if barks[i].group == barks[j].group {
                    sameGroup += 1
                    if alike { sameGroupAlike += 1 }
                } else if alike {
                    crossAlike += 1
                }
            }
        }
        #expect(barks.count > 100 && crossAlike == 0, "\(crossAlike) pairs of different Freesound ids taken for one recording")
        #expect(sameGroupAlike * 5 > sameGroup, "\(sameGroupAlike) of \(sameGroup) pairs of one Freesound id alike")

        let birds = ["15", "27", "28", "30", "33", "37", "41", "44", "50"].map { "bird_yash_Kus_\($0).flac" }
        let candidates = list.filter { $0.sourceName == "yash" && $0.category == list.first { $0.filename == birds[0] }?.category }
        var signatures: [String: RecordingLikeness.Signature] = [:]
        for clip in candidates { signatures[clip.filename] = try signature(clip) }
        let joined = RecordingLikeness.joiningAlikeClips(candidates, signatures: signatures)
        let keys = Set(joined.filter { birds.contains($0.filename) }.map(\.alikeGroup))
        #expect(keys.count == 1 && keys.first! != nil, "\(keys)")
        #expect(joined.filter { $0.alikeGroup != nil && $0.alikeGroup == keys.first! }.count == birds.count)
    }
}
