import Testing
import VigilCore
import VigilInference
import VigilScoring
import VigilSynth
import VigilTraining

@Suite("Cross-validation and clip-labelled training data")
struct CrossValidationTests {
    /// 60 development files whose source groups chain some of them together, and 40 clips whose groups
    /// hold 1-4 clips each, two of them from a Freesound recording that a development file uses too; another
    /// development file uses the Freesound upload two ids later.
    static func items() -> (keys: [String: [String]], amounts: [String: [String: Double]], clips: [String: TrainingClip]) {
        // PROVENANCE.tsv rows: every file has its own event source; files i and i+1 share a negative clip's
        // source when i % 7 == 0 (chains of two); dev5 also uses Freesound recording 4242.
        var provenance = "filename\trole\tsource_class\tlocal_path\n"
        var files: [String] = []
        var annotations: [LabelEvent] = []
        for i in 0..<60 {
            let file = "dev\(i).flac"
            files.append(file)
            provenance += "\(file)\tevent\tdog\tx/dog/rec\(i).wav\n"
            if i % 7 == 0 {
                for f in [file, "dev\(i + 1).flac"] { provenance += "\(f)\tnegative_clip\tn\tx/n/shared\(i).wav\n" }
            }
            if i % 3 == 0 { annotations.append(LabelEvent(file: file, onset: 1, offset: 2, label: i % 2 == 0 ? "dogBark" : "glassBreak")) }
        }
        provenance += "dev5.flac\tevent\tdog\turbansound8k/audio/fold1/4242-3-0-0.wav\n"
        provenance += "dev8.flac\tevent\tdog\turbansound8k/audio/fold2/4244-3-1-0.wav\n"
        let rows = DevelopmentSet.parseProvenance(provenance)
        var clips: [String: TrainingClip] = [:]
        for c in 0..<40 {
            let group = c < 2 ? "freesound:4242" : "speaker:\(c / 4)"
            let clip = TrainingClip(
                filename: "c\(c).flac", label: c % 2 == 0 ? "dogBark" : "negative", category: "", group: group, voices: false, seconds: 1)
            clips[TrainingClip.namePrefix + clip.filename] = clip
        }
        let (keys, amounts) = CrossValidationPlan.items(
            devFiles: files, provenance: rows, annotations: annotations, durations: [:], clips: clips)
        return (keys, amounts, clips)
    }

    @Test(
        "grouped folds never split a source group, join a development file and a clip of the same Freesound recording and uploads two ids apart, cover every fold, and are fixed by the seed"
    )
    func groupedFolds() {
        let (keys, amounts, _) = Self.items()
        let plan = CrossValidationPlan(keys: keys, amounts: amounts, folds: 5, seed: 7)
        #expect(plan.foldOf.count == 100)
        // Every key's items are in one fold.
        var foldOfKey: [String: Set<Int>] = [:]
        for (item, ks) in keys { for k in ks { foldOfKey[k, default: []].insert(plan.foldOf[item]!) } }
        for (key, folds) in foldOfKey { #expect(folds.count == 1, "group \(key) is split over folds \(folds.sorted())") }
        #expect(plan.foldOf["dev0.flac"] == plan.foldOf["dev1.flac"])
        #expect(plan.foldOf["dev5.flac"] == plan.foldOf["clip:c0.flac"])
        #expect(plan.foldOf["dev8.flac"] == plan.foldOf["dev5.flac"])
        #expect(plan.foldOf["clip:c4.flac"] == plan.foldOf["clip:c7.flac"])
        #expect(Set(plan.foldOf.values) == Set(0..<5))
        // Balanced: every fold holds some of the clips of the label.
        for f in 0..<5 { #expect(plan.foldOf.contains { $0.value == f && $0.key.hasPrefix("clip:") }) }
        // Stable for a seed, different for another.
        #expect(CrossValidationPlan(keys: keys, amounts: amounts, folds: 5, seed: 7).foldOf == plan.foldOf)
        #expect(CrossValidationPlan(keys: keys, amounts: amounts, folds: 5, seed: 8).foldOf != plan.foldOf)
    }

    @Test("Freesound uploads at most two ids apart are one group, also through a chain; other keys are kept as they are")
    func adjacentFreesoundUploads() {
        let keys: [String: [String]] = [
            "a": ["us8k:100"], "b": ["us8k:101"], "c": ["clips:x", "us8k:103"], "d": ["us8k:106"], "e": ["us8k:9"],
            "f": ["dev:x/n/shared0"], "g": ["us8k:abc"], "h": [],
        ]
        let joined = GroupedFolds.joiningAdjacentFreesoundUploads(keys)
        let component = GroupedFolds.components(keys: joined)
        #expect(component["a"] == component["b"] && component["b"] == component["c"])  // 100, 101, 103: 1 and 2 apart
        #expect(component["d"] != component["a"])  // 3 past 103
        #expect(component["e"] != component["a"] && component["e"] != component["d"])
        #expect(Set(component.values).count == 6)  // {a, b, c}, d, e, f, g, h
        for (item, ks) in keys { #expect(Array(joined[item]!.prefix(ks.count)) == ks, "\(item) lost a key") }
        #expect(joined["f"] == keys["f"] && joined["g"] == keys["g"] && joined["h"] == [])
        let separate = GroupedFolds.components(keys: GroupedFolds.joiningAdjacentFreesoundUploads(keys, adjacency: 0))
        #expect(Set(["a", "b", "c"].map { separate[$0]! }).count == 3)
    }

    @Test(
        "the nested split never gives a fold's model its scored items, their augmented copies or their groups; choices are made on an inner part of the training part"
    )
    func nestedSplitSeesNoScoredFold() {
        let (keys, amounts, clips) = Self.items()
        let plan = CrossValidationPlan(keys: keys, amounts: amounts, folds: 4, seed: 3)
        var recordings: [RecordingFeatures] = []
        for item in keys.keys.sorted() {
            recordings.append(RecordingFeatures(name: item, duration: 1, sampleRate: 16_000))
            if !item.hasPrefix("clip:") { recordings.append(RecordingFeatures(name: item + "#1", duration: 1, sampleRate: 16_000)) }
        }
        recordings.append(RecordingFeatures(name: "synthetic-white-noise-0", duration: 20, sampleRate: 44_100))
        for fold in 0..<4 {
            let data = CrossValidation.foldData(plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips)
            let scoredGroups = Set(data.scored.map { plan.componentOf[$0.name]! })
            #expect(!data.scored.isEmpty)
            #expect(data.scored.allSatisfy { plan.foldOf[$0.name] == fold && !$0.name.contains("#") })
            for rec in data.training {
                let item = CrossValidation.item(rec.name)
                #expect(plan.foldOf[item] != fold, "fold \(fold) trains on \(rec.name)")
                if let c = plan.componentOf[item] { #expect(!scoredGroups.contains(c)) }
            }
            #expect(data.training.contains { $0.name == "synthetic-white-noise-0" })
            // The inner validation part is inside the training part and holds no positive clip (no onsets to score).
            let trainingItems = Set(data.training.map { CrossValidation.item($0.name) })
            #expect(!data.validation.isEmpty)
            #expect(data.validation.isSubset(of: trainingItems))
            #expect(data.validation.allSatisfy { clips[$0]?.label != "dogBark" })
            #expect(data.partlyLabelled.isDisjoint(with: data.validation))
            #expect(data.partlyLabelled.allSatisfy { clips[$0]?.label == "dogBark" })
            #expect(plan.innerValidation(outerFold: fold).allSatisfy { plan.foldOf[$0] != fold })
            // The out-of-fold choice's inner folds: the first is the inner validation part, together they are the
            // training part's items once each.
            let innerFolds = plan.innerFolds(outerFold: fold)
            #expect(innerFolds.count == 3 && innerFolds[0] == plan.innerValidation(outerFold: fold))
            #expect(innerFolds.reduce(0) { $0 + $1.count } == Set(innerFolds.joined()).count)
            #expect(Set(innerFolds.joined()) == Set(plan.foldOf.filter { $0.value != fold }.keys))
        }
        // Every item is scored exactly once over the folds.
        let scored = (0..<4).flatMap {
            CrossValidation.foldData(plan: plan, fold: $0, label: "dogBark", recordings: recordings, clips: clips).scored.map(\.name)
        }
        #expect(scored.sorted() == keys.keys.sorted())
    }

    /// ``items()`` in 4 folds (seed 3) as recordings, each with two copies mixed with other items of any fold (the
    /// item 1 and 7 places further on): a split must drop the copies that leak.
    static func itemsWithCopies() -> (
        plan: CrossValidationPlan, recordings: [RecordingFeatures], backgroundOf: [String: String], clips: [String: TrainingClip]
    ) {
        let (keys, amounts, clips) = items()
        let plan = CrossValidationPlan(keys: keys, amounts: amounts, folds: 4, seed: 3)
        let items = keys.keys.sorted()
        var recordings = items.map { RecordingFeatures(name: $0, duration: 1, sampleRate: 16_000) }
        var backgroundOf: [String: String] = [:]
        for (i, item) in items.enumerated() {
            for (k, other) in [items[(i + 1) % items.count], items[(i + 7) % items.count]].enumerated() {
                recordings.append(RecordingFeatures(name: "\(item)#a\(k + 1)", duration: 1, sampleRate: 16_000))
                backgroundOf["\(item)#a\(k + 1)"] = other
            }
        }
        return (plan, recordings, backgroundOf, clips)
    }

    @Test("an augmented copy is trained on only when the item mixed into it is neither scored nor in the inner validation part")
    func augmentedCopiesStayInTheirFold() {
        let (plan, recordings, backgroundOf, clips) = Self.itemsWithCopies()
        var kept = 0
        for fold in 0..<4 {
            let data = CrossValidation.foldData(
                plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips, backgroundOf: backgroundOf)
            let inner = plan.innerValidation(outerFold: fold)
            for rec in data.training where rec.name.contains("#a") {
                let background = backgroundOf[rec.name]!
                #expect(plan.foldOf[background] != fold && !inner.contains(background), "fold \(fold) trains on \(rec.name)")
                kept += 1
            }
            #expect(data.scored.allSatisfy { !$0.name.contains("#") })
        }
        #expect(kept > 0)
    }

    @Test(
        "with the trees trained again on everything, the inner part's clips of the label and the copies mixed with its items are training material held out of the choosing fit; the scored fold's never are"
    )
    func refitKeepsTheInnerPart() {
        let (plan, recordings, backgroundOf, clips) = Self.itemsWithCopies()
        var addedClips = 0
        var addedCopies = 0
        for fold in 0..<4 {
            let plain = CrossValidation.foldData(
                plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips, backgroundOf: backgroundOf)
            let refit = CrossValidation.foldData(
                plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips, backgroundOf: backgroundOf, refit: true)
            let inner = plan.innerValidation(outerFold: fold)
            #expect(plain.validationClips.isEmpty)
            #expect(refit.validation == plain.validation)
            #expect(refit.scored.map(\.name) == plain.scored.map(\.name))
            #expect(refit.validationClips == Set(inner.filter { clips[$0]?.label == "dogBark" }))
            #expect(refit.validationClips.isSubset(of: refit.partlyLabelled) && refit.validationClips.isDisjoint(with: refit.validation))
            let plainNames = Set(plain.training.map(\.name))
            let refitNames = Set(refit.training.map(\.name))
            #expect(plainNames.isSubset(of: refitNames))
            for name in refitNames.subtracting(plainNames) {
                // Added: the inner part's clips of the label (and their copies), and copies mixed with an inner item.
                let item = CrossValidation.item(name)
                let innerBackground = backgroundOf[name].map { inner.contains($0) } ?? false
                #expect(refit.validationClips.contains(item) || innerBackground, "fold \(fold) added \(name)")
                if name == item { addedClips += 1 } else { addedCopies += 1 }
            }
            for rec in refit.training {
                #expect(plan.foldOf[CrossValidation.item(rec.name)] != fold, "fold \(fold) trains on \(rec.name)")
                if let background = backgroundOf[rec.name] { #expect(plan.foldOf[background] != fold) }
            }
        }
        #expect(addedClips > 0 && addedCopies > 0)
    }

    @Test("gain and negative-mix copies name the event-free file of their fold mixed into each, so that a fold can leave them out")
    func gainCopiesNameTheirBackground() {
        var rng = SplitMix64(seed: 4)
        let files = (0..<12).map { "f\($0).flac" }
        var audio: [String: (samples: [Float], rate: Double)] = [:]
        for file in files { audio[file] = ((0..<8_000).map { _ in Float(rng.nextGaussian() * 0.05) }, 16_000) }
        // f0, f4 and f8 hold a bark; f11 a voice background; the folds are the file number modulo 2.
        let annotations = [0, 4, 8].map { LabelEvent(file: "f\($0).flac", onset: 0.1, offset: 0.3, label: "dogBark") }
        let voices = VoiceBackground(regions: ["f11.flac": [0...0.5]])
        let fold: (String) -> Int = { Int($0.dropFirst().prefix { $0.isNumber })! % 2 }
        let copies = TrainingRun.augmentedCopies(
            of: files, pool: files, annotations: annotations, voiceBackground: voices, audio: audio, copies: 3, seed: 7,
            sameFold: { fold($0) == fold($1) })
        #expect(copies.recordings.count == 36)
        var mixed = 0
        for rec in copies.recordings {
            let item = CrossValidation.item(rec.name)
            guard let background = copies.backgroundOf[rec.name] else { continue }
            mixed += 1
            #expect(background != item && fold(background) == fold(item), "\(rec.name) mixes \(background)")
            #expect(!["f0.flac", "f4.flac", "f8.flac", "f11.flac"].contains(background), "\(rec.name) mixes \(background)")
        }
        // A copy without an entry is its file itself, drawn as its own background (an event-free file only).
        #expect(mixed > 0)
        for rec in copies.recordings where copies.backgroundOf[rec.name] == nil {
            #expect(!["f0.flac", "f4.flac", "f8.flac"].contains(CrossValidation.item(rec.name)))
        }
    }

    @Test(
        "copies over other labels (glassBreak's full-band model) mix in files with other labels' events but never one with its own; other models keep every annotated file out"
    )
    func copiesOverOtherLabels() {
        var rng = SplitMix64(seed: 9)
        let files = (0..<12).map { "f\($0).flac" }
        var audio: [String: (samples: [Float], rate: Double)] = [:]
        for file in files { audio[file] = ((0..<4_000).map { _ in Float(rng.nextGaussian() * 0.05) }, 16_000) }
        // f0 and f1 hold a glass break, f2-f5 a bark or an alarm.
        let annotations =
            [0, 1].map { LabelEvent(file: "f\($0).flac", onset: 0.1, offset: 0.2, label: "glassBreak") }
            + [2, 3].map { LabelEvent(file: "f\($0).flac", onset: 0.1, offset: 0.2, label: "dogBark") }
            + [4, 5].map { LabelEvent(file: "f\($0).flac", onset: 0.1, offset: 0.2, label: "smokeAlarm") }
        #expect(TrainingOptions(label: "glassBreak").copiesOverOtherLabels)
        #expect(!TrainingOptions(label: "glassBreak", lowRate: true).copiesOverOtherLabels)
        #expect(!TrainingOptions(label: "dogBark").copiesOverOtherLabels && !TrainingOptions(label: "personTalking").copiesOverOtherLabels)
        func backgrounds(_ label: String) -> Set<String> {
            let exclusions = TrainingRun.copyBackgroundExclusions(annotations, label: label, options: TrainingOptions(label: label))
            let copies = TrainingRun.augmentedCopies(
                of: files, pool: files, annotations: exclusions,
                voiceBackground: .none, audio: audio, copies: 4, seed: 3, sameFold: { _, _ in true })
            return Set(copies.backgroundOf.values)
        }
        let glass = backgrounds("glassBreak")
        #expect(glass.isDisjoint(with: ["f0.flac", "f1.flac"]))
        #expect(!glass.isDisjoint(with: ["f2.flac", "f3.flac", "f4.flac", "f5.flac"]), "\(glass.sorted())")
        #expect(backgrounds("dogBark").isDisjoint(with: (0..<6).map { "f\($0).flac" }))
    }

    @Test("in the cross-validation, no fold trains on a gain copy whose negative it scores or chooses its decision on")
    func gainCopiesWithHeldOutNegativesAreLeftOut() {
        let (keys, amounts, clips) = Self.items()
        let plan = CrossValidationPlan(keys: keys, amounts: amounts, folds: 4, seed: 3)
        let files = (0..<60).map { "dev\($0).flac" }
        var rng = SplitMix64(seed: 5)
        var audio: [String: (samples: [Float], rate: Double)] = [:]
        for file in files { audio[file] = ((0..<4_000).map { _ in Float(rng.nextGaussian() * 0.05) }, 16_000) }
        let copies = TrainingRun.augmentedCopies(
            of: files, pool: files, annotations: [], voiceBackground: .none, audio: audio, copies: 2, seed: 11,
            sameFold: { plan.foldOf[$0] == plan.foldOf[$1] })
        let recordings = files.map { RecordingFeatures(name: $0, duration: 0.25, sampleRate: 16_000) } + copies.recordings
        var leftOut = 0
        for fold in 0..<4 {
            let inner = plan.innerValidation(outerFold: fold)
            let heldOut: (String) -> Bool = { copies.backgroundOf[$0].map { plan.foldOf[$0] == fold || inner.contains($0) } ?? false }
            let data = CrossValidation.foldData(
                plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips, backgroundOf: copies.backgroundOf)
            #expect(!data.training.contains { heldOut($0.name) }, "fold \(fold) trains on a copy of a held-out negative")
            // Without the map, the fold would train on such copies: those of its training part mixed with a negative of
            // its inner validation part.
            let unmapped = CrossValidation.foldData(plan: plan, fold: fold, label: "dogBark", recordings: recordings, clips: clips)
            leftOut += unmapped.training.filter { heldOut($0.name) }.count
        }
        #expect(leftOut > 0)
    }

    @Test(
        "a fold's model and chosen decision do not change when the scored fold's recordings and annotations change",
        arguments: TrainingOptions.DecisionChoice.allCases)
    func choiceIndependentOfScoredFold(choice: TrainingOptions.DecisionChoice) {
        // Two folds of synthetic files: bursts (positives) and steady noise; the scored fold's copy is then
        // replaced by files whose bursts are annotated elsewhere, which would move the threshold if the
        // fold's data reached the choice.
        var recordings: [RecordingFeatures] = []
        var annotations: [LabelEvent] = []
        var keys: [String: [String]] = [:]
        var generator = SeededGenerator(seed: 11)
        for i in 0..<8 {
            var s = SignalBuffer(sampleRate: 16_000, duration: 4)
            s.addNoise(dBFS: -50, generator: &generator)
            let name = "f\(i)"
            if i % 2 == 0 {
                for h in 1...5 {
                    s.addTone(frequency: 400 * Double(h) + Double(i * 15), start: 1.5, duration: 0.3, dBFS: -18 - Double(h) * 2)
                }
                s.addNoise(dBFS: -26, start: 1.5, duration: 0.3, generator: &generator)
                annotations.append(LabelEvent(file: name, onset: 1.5, offset: 1.8, label: "dogBark"))
            } else {
                s.addTone(frequency: 300 + Double(i) * 100, start: 1, duration: 2, dBFS: -25)
            }
            recordings.append(SoundModelTrainer.extractFeatures(name: name, samples: s.samples, sampleRate: 16_000))
            keys[name] = []
        }
        let amounts = Dictionary(uniqueKeysWithValues: keys.keys.map { ($0, ["files": 1.0]) })
        let plan = CrossValidationPlan(keys: keys, amounts: amounts, folds: 2, seed: 1)
        var options = TrainingOptions(label: "dogBark")
        options.trees.iterations = 10
        options.trees.minSamplesPerLeaf = 2
        options.decisionChoice = choice
        func run(_ recs: [RecordingFeatures], _ events: [LabelEvent]) -> [SoundModel] {
            CrossValidation.run(
                label: "dogBark", plan: plan, recordings: recs, annotations: events, devFiles: Set(keys.keys), clips: [:],
                voiceBackground: .none, seed: 1, options: options
            ).folds.map(\.model)
        }
        let before = run(recordings, annotations)
        // Fold 0's files swapped for silence-free noise with its events moved: only fold 0's score may change.
        let fold0 = Set(plan.foldOf.filter { $0.value == 0 }.keys)
        var changed = recordings
        for i in changed.indices where fold0.contains(changed[i].name) {
            for j in changed[i].matrix.indices { changed[i].matrix[j] = Float(j % 13) }
        }
        let moved = annotations.map { fold0.contains($0.file) ? LabelEvent(file: $0.file, onset: 0.2, offset: 0.4, label: $0.label) : $0 }
        let after = run(changed, moved)
        #expect(before[0].decision == after[0].decision, "fold 0's choice used fold 0's data")
        #expect(before[0].fileText == after[0].fileText, "fold 0's model used fold 0's data")
        // Fold 1 trains on fold 0's files: its model does change (the check can see a difference).
        #expect(before[1].fileText != after[1].fileText)
    }

    @Test("activity regions of a clip-labelled positive lie where its burst is, not over the whole clip")
    func activityRegionsFindTheBurst() {
        var generator = SeededGenerator(seed: 3)
        for rate in [8_000.0, 22_050, 44_100] {
            var s = SignalBuffer(sampleRate: rate, duration: 4)
            s.addNoise(dBFS: -45, generator: &generator)
            for h in 1...5 { s.addTone(frequency: 450 * Double(h), start: 2.2, duration: 0.3, dBFS: -16 - Double(h) * 2) }
            s.addNoise(dBFS: -28, start: 2.2, duration: 0.3, generator: &generator)
            let rec = SoundModelTrainer.extractFeatures(name: "clip:burst.flac", samples: s.samples, sampleRate: rate)
            let events = SoundModelTrainer.activityEvents(rec, label: "dogBark", minimumActivity: 0.3)
            #expect(events.count == 1, "\(rate) Hz: \(events)")
            guard let e = events.first else { continue }
            #expect(e.label == "dogBark" && e.file == "clip:burst.flac")
            #expect(abs(e.onset - 2.2) < 0.1 && abs(e.offset - 2.5) < 0.15, "\(rate) Hz: \(e.onset)-\(e.offset)")
        }
        // A clip of steady noise has no activity region.
        var quiet = SignalBuffer(sampleRate: 16_000, duration: 3)
        quiet.addNoise(dBFS: -30, generator: &generator)
        let rec = SoundModelTrainer.extractFeatures(name: "clip:noise.flac", samples: quiet.samples, sampleRate: 16_000)
        #expect(SoundModelTrainer.activityEvents(rec, label: "dogBark", minimumActivity: 0.3).isEmpty)
    }

    @Test("clips.tsv: read by column name; malformed lines are errors naming the file and the line")
    func clipList() throws {
        let text =
            "filename\tlabel\tcategory\tgroup\tvoices\tseconds\tsample_rate\n"
            + "a.flac\tdogBark\tbark\tfreesound:1\tno\t4.000\t22050\n"
            + "b.flac\tnegative\tchildren_playing\tfreesound:2\tyes\t4.000\t22050\n"
        let clips = try TrainingClips.parse(text, path: "d/clips.tsv")
        #expect(clips.map(\.filename) == ["a.flac", "b.flac"])
        #expect(clips[0].sourceGroup == "us8k:1" && clips[1].voices && clips[1].line == 3)
        #expect(clips[1].isNegative(for: "dogBark") && !clips[1].isNegative(for: "personTalking") && clips[0].isNegative(for: "glassBreak"))
        let header = "filename\tlabel\tcategory\tgroup\tvoices\tseconds\n"
        let cases: [(String, String)] = [
            ("", "d/clips.tsv: empty file"),
            ("filename\tlabel\tvoices\n", "d/clips.tsv:1: header has no 'group' column"),
            (header + "a.flac\tdogBark\tbark\n", "d/clips.tsv:2: 3 fields, expected 6"),
            (header + "a.flac\tbark\tbark\tg\tno\t1\n", "d/clips.tsv:2: unknown label 'bark'"),
            (header + "a.flac\tdogBark\tbark\tg\tmaybe\t1\n", "d/clips.tsv:2: voices 'maybe' is not yes or no"),
            (
                header + "a.flac\tdogBark\tbark\tg\tno\t1\n\na.flac\tdogBark\tbark\tg\tno\t1\n",
                "d/clips.tsv:4: 'a.flac' is already listed on line 2"
            ),
            (header + "a.flac\tdogBark\tbark\t\tno\t1\n", "d/clips.tsv:2: empty group"),
            (header + "a.flac\tdogBark\tbark\tg\tno\tx\n", "d/clips.tsv:2: seconds 'x'"),
            (header, "d/clips.tsv: no clips listed"),
        ]
        for (input, message) in cases {
            #expect {
                _ = try TrainingClips.parse(input, path: "d/clips.tsv")
            } throws: { error in
                "\(error)".hasPrefix(message)
            }
        }
    }
}
