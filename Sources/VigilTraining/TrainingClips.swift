/// One clip of a clip-labelled training folder (`clips.tsv`: filename, label, category, group,
/// voices, seconds, sample_rate). A positive clip holds its sound somewhere in it, with no onset or offset.
package struct TrainingClip: Sendable, Hashable {
    /// File name, relative to the folder's `audio/`.
    package var filename: String
    /// `dogBark`, `glassBreak`, `personTalking` or `negative`.
    package var label: String
    /// What the clip is (e.g. `bark`, `car_horn`).
    package var category: String
    /// The source recording (clips of one group stay on one side of every split).
    package var group: String
    /// Whether voices are in the background (such a clip is not a negative for personTalking).
    package var voices: Bool
    /// Duration the list states (seconds).
    package var seconds: Double
    /// The clip's line in its list (1-based; 0 when not read from a list).
    package var line: Int = 0
    /// For a clip of unknown source that sounds like other such clips of one recording, the key they share
    /// (``RecordingLikeness/joiningAlikeClips(_:signatures:)``); nil otherwise.
    package var alikeGroup: String?

    /// Creates a clip.
    package init(filename: String, label: String, category: String, group: String, voices: Bool, seconds: Double) {
        self.filename = filename
        self.label = label
        self.category = category
        self.group = group
        self.voices = voices
        self.seconds = seconds
    }

    /// Name prefix of clip recordings in training (keeps them apart from development file names).
    package static let namePrefix = "clip:"

    /// The label a clip with no event of any learned label carries.
    package static let negativeLabel = "negative"

    /// Whether the clip is a negative of `label`: a `negative` clip (one with voices is not a negative
    /// for personTalking), or a clip of another learned label.
    package func isNegative(for label: String) -> Bool {
        self.label != label && !(voices && SoundModelRecipe.of(label: label).ignoresVoiceBackground)
    }

    /// The clip's source group in the space of the development set's groups: UrbanSound8K clips of the
    /// development set are grouped by their Freesound id as `us8k:ID`, so a Freesound group here joins them.
    package var sourceGroup: String {
        group.hasPrefix("freesound:") ? "us8k:" + group.dropFirst("freesound:".count) : "clips:" + group
    }

    /// The clip's keys for the cross-validation's groups: its ``sourceGroup`` and, if set, its ``alikeGroup``.
    package var groupKeys: [String] { [sourceGroup] + (alikeGroup.map { [$0] } ?? []) }

    /// The source a clip's `group` names, the text before its colon (`eth` of `eth:dog_barking_3.wav`).
    package var sourceName: String { group.split(separator: ":", maxSplits: 1).first.map(String.init) ?? group }

    /// Whether the clip's `group` names the clip itself, a file name after the source's colon
    /// (`yash:dog_10.wav`): the data says so where a clip's source recording is unknown.
    package var sourceIsUnknown: Bool {
        guard let colon = group.firstIndex(of: ":") else { return false }
        let name = group[group.index(after: colon)...].lowercased()
        return Self.audioExtensions.contains { name.hasSuffix("." + $0) }
    }

    /// File extensions taken for audio files in a `group` (``sourceIsUnknown``).
    package static let audioExtensions = ["wav", "flac", "mp3", "ogg", "opus", "m4a", "aif", "aiff"]
}

/// A `clips.tsv` that cannot be used: names the file, the line (1-based, 0 for the whole file) and the reason.
package struct ClipListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list's path.
    package var path: String
    /// The line at fault (1-based), 0 for the whole file.
    package var line: Int
    /// What is wrong.
    package var reason: String

    /// Creates an error.
    package init(path: String, line: Int, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String { line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)" }
}

/// Parsing of a clip-labelled training folder's `clips.tsv`. Pure: takes the text, never reads files.
package enum TrainingClips {
    /// The columns a clips.tsv must have (by name, in any order; others are ignored).
    package static let requiredColumns = ["filename", "label", "group", "voices"]
    /// Labels a clip may carry.
    package static let labels: Set<String> = ["dogBark", "glassBreak", "personTalking", TrainingClip.negativeLabel]

    private static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    /// The clips of `text` (a header line naming the columns, then one clip a line). `path` names the
    /// file in errors. Throws ``ClipListError`` for a missing column, a line with too few fields, an
    /// empty file name or group, an unknown label, a `voices` other than yes/no, a bad `seconds`, or a
    /// file listed twice.
    package static func parse(_ text: String, path: String) throws -> [TrainingClip] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard let header = lines.first, !isBlank(header) else {
            throw ClipListError(
                path: path, line: 0, reason: "empty file (expected a header: \(requiredColumns.joined(separator: ", ")), ...)")
        }
        let names = header.split(separator: "\t", omittingEmptySubsequences: false).map { String($0) }
        var index: [String: Int] = [:]
        for column in requiredColumns + ["category", "seconds"] { index[column] = names.firstIndex(of: column) }
        if let missing = requiredColumns.first(where: { index[$0] == nil }) {
            throw ClipListError(path: path, line: 1, reason: "header has no '\(missing)' column")
        }
        var clips: [TrainingClip] = []
        var seen: [String: Int] = [:]
        for (i, raw) in lines.enumerated().dropFirst() where !isBlank(raw) {
            let lineNumber = i + 1
            let f = raw.split(separator: "\t", omittingEmptySubsequences: false).map { String($0) }
            let needed = index.values.max()! + 1
            guard f.count >= needed else {
                throw ClipListError(path: path, line: lineNumber, reason: "\(f.count) fields, expected \(needed) (tab-separated)")
            }
            func field(_ column: String) -> String { index[column].map { f[$0] } ?? "" }
            let filename = field("filename"), label = field("label"), group = field("group")
            guard !filename.isEmpty else { throw ClipListError(path: path, line: lineNumber, reason: "empty filename") }
            guard labels.contains(label) else {
                throw ClipListError(
                    path: path, line: lineNumber,
                    reason: "unknown label '\(label)' (expected one of \(labels.sorted().joined(separator: ", ")))")
            }
            guard !group.isEmpty else { throw ClipListError(path: path, line: lineNumber, reason: "empty group for '\(filename)'") }
            let voices: Bool
            switch field("voices") {
            case "yes": voices = true
            case "no": voices = false
            case let v: throw ClipListError(path: path, line: lineNumber, reason: "voices '\(v)' is not yes or no")
            }
            var seconds = 0.0
            if index["seconds"] != nil {
                guard let s = Double(field("seconds")), s.isFinite, s > 0 else {
                    throw ClipListError(path: path, line: lineNumber, reason: "seconds '\(field("seconds"))' is not a positive number")
                }
                seconds = s
            }
            if let first = seen[filename] {
                throw ClipListError(path: path, line: lineNumber, reason: "'\(filename)' is already listed on line \(first)")
            }
            seen[filename] = lineNumber
            var clip = TrainingClip(
                filename: filename, label: label, category: field("category"), group: group, voices: voices, seconds: seconds)
            clip.line = lineNumber
            clips.append(clip)
        }
        guard !clips.isEmpty else { throw ClipListError(path: path, line: 0, reason: "no clips listed") }
        return clips
    }
}
