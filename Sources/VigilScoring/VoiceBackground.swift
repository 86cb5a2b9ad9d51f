/// Where recordings hold voices that are not annotated as personTalking: children playing, room
/// ambience and street music, mixed in as a scene's background or as a whole negative clip.
///
/// The rule is that such material is not counted against personTalking: a detection that
/// starts inside one of these regions and overlaps no annotated speech is neither a false positive
/// nor a false alarm (``counted(_:reference:)``), the regions are not negative hours, and
/// personTalking does not train on them as negatives. Annotated speech inside a region is still
/// scored. `vigil bench accuracy` and the trainer's validation figures both apply it.
package struct VoiceBackground: Sendable, Hashable {
    /// Time regions (seconds) per file name.
    package var regions: [String: [ClosedRange<Double>]]

    /// Regions per file.
    package init(regions: [String: [ClosedRange<Double>]] = [:]) {
        self.regions = regions
    }

    /// No voice background anywhere.
    package static let none = VoiceBackground()

    /// Files with any voice background.
    package var files: Set<String> { Set(regions.keys) }

    /// Whether `time` in `file` lies in a voice-background region.
    package func contains(file: String, time: Double) -> Bool {
        regions[file]?.contains { $0.contains(time) } ?? false
    }

    /// The detections that count: all of `detections` but those whose onset lies in a region of
    /// their file and that overlap no event of `reference` of the same file and label.
    package func counted(_ detections: [ScoredEvent], reference: [ScoredEvent]) -> [ScoredEvent] {
        guard !regions.isEmpty else { return detections }
        var referenceByFile: [String: [ScoredEvent]] = [:]
        for r in reference where regions[r.file] != nil { referenceByFile[r.file, default: []].append(r) }
        return detections.filter { d in
            !contains(file: d.file, time: d.onset)
                || (referenceByFile[d.file] ?? []).contains { $0.label == d.label && $0.onset < d.offset && d.onset < $0.offset }
        }
    }

    /// Seconds of `file` (of length `duration`) covered by its regions (overlaps counted once).
    package func coveredSeconds(file: String, duration: Double) -> Double {
        guard let list = regions[file] else { return 0 }
        var covered = 0.0
        var end = 0.0
        for r in list.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let lo = max(r.lowerBound, end, 0)
            let hi = min(r.upperBound, duration)
            if hi > lo { covered += hi - lo }
            end = max(end, min(r.upperBound, duration))
        }
        return covered
    }
}
