import VigilDSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds clips of unknown source that were cut from one recording, so that the cross-validation keeps
/// them in one fold.
///
/// A clip folder names each clip's source recording in its `group` column, or the clip itself where the
/// source is unknown (``TrainingClip/sourceIsUnknown``). Such clips are sometimes cuts of one longer
/// recording: the same dog, room and microphone, each its own group, free to land in different folds. Two
/// clips are taken for one recording when both their **background** (each band's 10th-percentile level:
/// the room, the street, the microphone's noise) and their **sound** (the mean band levels of their loudest
/// tenth of frames) have the same spectral shape, a cosine similarity of at least ``threshold`` over the
/// bands both clips' rates carry. On the clip folder's 163 UrbanSound8K bark clips, whose Freesound ids are
/// known, no two clips of different ids reach it (0 of 12,994 pairs) while 61 of the 209 pairs within one id
/// do. Of the folder's 378 clips of unknown source it joins 75 into 26 groups; 11 of the 16 groups of the
/// `eth` source hold clips of consecutive numbers (`dog_barking_90` and `_91`), as cuts of one recording
/// numbered in order would be, which the rule never looks at (docs/sound-models.md, "Cross-validation").
package enum RecordingLikeness {
    /// The spectra of one recording that ``similarity(_:_:)`` compares.
    package struct Signature: Sendable, Hashable {
        /// Per band: the log10 band energy that 10 % of the frames stay under (the background).
        package var background: [Float]
        /// Per band: the mean log10 band energy of the loudest 10 % of frames (the sound).
        package var sound: [Float]
        /// Per band: whether the recording's rate carries it (a frequency bin inside it, below 0.45 x the rate).
        package var carried: [Bool]
    }

    /// Edges of the 16 bands, spaced evenly in log frequency from 150 Hz to 7 kHz.
    package static let bandEdges: [Double] = (0...16).map { 150 * pow(7_000 / 150, Double($0) / 16) }

    /// The cosine similarity both shapes must reach for two clips to be taken for one recording.
    package static let threshold = 0.97

    /// The signature of `samples` at `sampleRate`, on the shared STFT's frames (``STFTConfiguration/standard(sampleRate:)``);
    /// nil for a recording shorter than one frame.
    package static func signature(samples: [Float], sampleRate: Double) -> Signature? {
        let configuration = STFTConfiguration.standard(sampleRate: sampleRate)
        guard samples.count >= configuration.windowSize else { return nil }
        let bands = bandEdges.count - 1
        let width = configuration.binWidth
        let ranges: [Range<Int>?] = (0..<bands).map { b in
            let low = Int((bandEdges[b] / width).rounded(.up))
            let high = Int((bandEdges[b + 1] / width).rounded(.up))
            return high > low && bandEdges[b + 1] <= 0.45 * sampleRate ? low..<high : nil
        }
        var levels: [[Float]] = []  // per frame, per band: log10 energy
        let transform = ShortTimeFourierTransform(configuration: configuration)
        samples.withUnsafeBufferPointer { buffer in
            transform.process(buffer) { frame in
                levels.append(
                    ranges.map { range in
                        guard let range else { return 0 }
                        var sum: Float = 0
                        for k in range { sum += frame.power[k] }
                        return log10f(sum + 1e-10)
                    })
            }
        }
        let carried = ranges.map { $0 != nil }
        let carriedCount = Float(max(1, carried.filter { $0 }.count))
        let frameLevel = levels.map { row in zip(row, carried).reduce(Float(0)) { $1.1 ? $0 + $1.0 : $0 } / carriedCount }
        let loudFloor = frameLevel.sorted()[Int(0.9 * Double(frameLevel.count - 1))]
        let loud = levels.indices.filter { frameLevel[$0] >= loudFloor }
        var background = [Float](repeating: 0, count: bands)
        var sound = [Float](repeating: 0, count: bands)
        for b in 0..<bands where carried[b] {
            let column = levels.map { $0[b] }.sorted()
            background[b] = column[Int(0.1 * Double(column.count - 1))]
            sound[b] = loud.reduce(Float(0)) { $0 + levels[$1][b] } / Float(loud.count)
        }
        return Signature(background: background, sound: sound, carried: carried)
    }

    /// The cosine similarities of the two recordings' background and sound shapes (each less its mean) over
    /// the bands both carry; nil when they share fewer than 6 bands.
    package static func similarity(_ a: Signature, _ b: Signature) -> (background: Double, sound: Double)? {
        let bands = min(a.carried.count, b.carried.count)
        var shared = 0
        for i in 0..<bands where a.carried[i] && b.carried[i] { shared += 1 }
        guard shared >= 6 else { return nil }
        // Each shape less its mean over the shared bands, then the cosine; no allocation per pair (a clip folder
        // compares every pair of clips of one source).
        func cosine(_ u: [Float], _ v: [Float]) -> Double {
            var mu = 0.0, mv = 0.0
            for i in 0..<bands where a.carried[i] && b.carried[i] {
                mu += Double(u[i])
                mv += Double(v[i])
            }
            mu /= Double(shared)
            mv /= Double(shared)
            var dot = 0.0, uu = 0.0, vv = 0.0
            for i in 0..<bands where a.carried[i] && b.carried[i] {
                let x = Double(u[i]) - mu, y = Double(v[i]) - mv
                dot += x * y
                uu += x * x
                vv += y * y
            }
            return uu > 0 && vv > 0 ? dot / (uu * vv).squareRoot() : 0
        }
        return (cosine(a.background, b.background), cosine(a.sound, b.sound))
    }

    /// `clips` with ``TrainingClip/alikeGroup`` set for every clip of unknown source whose signature is alike
    /// (``threshold``) to another's of the same source (the `group` column's text before its colon), directly or
    /// through a chain: the key names the component's first clip in name order. Clips without a signature
    /// (not decoded, too short) are left as they are.
    package static func joiningAlikeClips(_ clips: [TrainingClip], signatures: [String: Signature]) -> [TrainingClip] {
        var bySource: [String: [Int]] = [:]
        for (i, clip) in clips.enumerated() where clip.sourceIsUnknown && signatures[clip.filename] != nil {
            bySource[clip.sourceName, default: []].append(i)
        }
        var parent = Array(clips.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for members in bySource.values {
            let memberSignatures = members.map { signatures[clips[$0].filename]! }
            for m in members.indices {
                for n in members.indices where n > m {
                    guard let s = similarity(memberSignatures[m], memberSignatures[n]),
                        s.background >= threshold && s.sound >= threshold
                    else { continue }
                    parent[root(members[m])] = root(members[n])
                }
            }
        }
        var components: [Int: [Int]] = [:]
        for members in bySource.values { for i in members { components[root(i), default: []].append(i) } }
        var out = clips
        for members in components.values where members.count > 1 {
            let key = "alike:" + members.map { clips[$0].filename }.min()!
            for i in members { out[i].alikeGroup = key }
        }
        return out
    }
}
