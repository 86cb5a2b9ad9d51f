import VigilCore
import VigilInference

/// How the model of one learned label is trained, and what its card says it cannot do: the one
/// place that holds per-label training settings. ``SoundModelTrainer``, ``TrainingOptions``,
/// ``SoundModelCard``, ``CrossValidation``, ``TrainingClip`` and ``TrainingRun`` read it.
package struct SoundModelRecipe: Sendable {
    /// The label (trigger) the recipe trains.
    package var trigger: EventTriggerType
    /// Decisions merge into one event across gaps up to this long (seconds).
    package var mergeGapSeconds: Double
    /// The impact-then-shatter evidence the events need, if any (glassBreak).
    package var gate: ImpactShatterGate?
    /// Whether the decision settings are chosen on segment F1 (else event F1).
    package var segmentObjective: Bool
    /// The pause at which an event may be split (seconds; the annotation convention).
    package var splitPauseSeconds: Double
    /// Whether splitting at pauses is among the decision settings tried.
    package var splitsAtPauses: Bool
    /// Onset activity levels tried (nil: none).
    package var onsetActivities: [Double?]
    /// Minimum active decisions per event tried.
    package var minActiveDecisions: [Int]
    /// Longest event reported (seconds), if limited.
    package var maxEventSeconds: Double?
    /// Positive decisions whose nearby frames never rise this far over the background are left out
    /// (mean relative band level, log10 units).
    package var positiveActivity: Float
    /// Whether the abrupt noise bursts and steady tones are training negatives (the steady noises always are).
    package var syntheticConfusers: Bool
    /// Augmented copies per training file by default (gain and a mixed event-free file).
    package var augmentedCopies: Int
    /// Room-augmented copies (``TrainingAugmentation``) of every recording of the label in the training part by default.
    package var roomAugmentedCopies = 0
    /// Where the decision is chosen by default.
    package var decisionChoice = TrainingOptions.DecisionChoice.validationPart
    /// Whether voice-background regions are neither taught nor scored as negatives, and clips with
    /// voices are left out (personTalking).
    package var ignoresVoiceBackground: Bool
    /// Whether the trees may split on the bands above 8 kHz, the HF share and the centroid.
    package var usesHighBand: Bool
    /// Whether the trees may split on the burst values.
    package var usesBurstValues: Bool
    /// Whether the shipped model trains with the music rendered by `make training-music` as extra negatives.
    package var trainsWithRenderedMusic = false
    /// Whether the shipped model trains with the words made by `make training-words` as extra positives.
    package var trainsWithGeneratedWords = false
    /// The known weaknesses written into the shipped model's card, one per item.
    package var knownWeaknesses: [String]

    /// The recipe of `trigger`'s model; a trigger without a learned model gets the generic recipe.
    package static func of(_ trigger: EventTriggerType) -> SoundModelRecipe {
        table[trigger] ?? generic(trigger)
    }

    /// The recipe of the label named `label`, or the generic recipe of an unknown label (as used by tests).
    package static func of(label: String) -> SoundModelRecipe {
        EventTriggerType(rawValue: label).map(of) ?? generic(.sound)
    }

    /// The labels that have a model recipe (the learned detectors), in declaration order.
    package static var trainable: [EventTriggerType] { EventTriggerType.allCases.filter { table[$0] != nil } }

    /// The settings of a label without its own recipe.
    static func generic(_ trigger: EventTriggerType) -> SoundModelRecipe {
        SoundModelRecipe(
            trigger: trigger, mergeGapSeconds: 0.4, gate: nil, segmentObjective: false, splitPauseSeconds: 0.5, splitsAtPauses: true,
            onsetActivities: [nil, 0.5, 1.0, 1.5], minActiveDecisions: [1, 2], maxEventSeconds: nil, positiveActivity: 0.3,
            syntheticConfusers: true, augmentedCopies: 0, ignoresVoiceBackground: false, usesHighBand: false, usesBurstValues: false,
            knownWeaknesses: [])
    }

    /// The recipes of the shipped models.
    package static let table: [EventTriggerType: SoundModelRecipe] = {
        var dogBark = generic(.dogBark)
        // The burst values (features v4) help dogBark only; glass breaks and speech keep the inputs
        // of features v3 (with the burst values their validation figures fell: personTalking segment
        // F1 0.902 -> 0.895).
        dogBark.usesBurstValues = true
        dogBark.trainsWithRenderedMusic = true
        dogBark.knownWeaknesses = [
            "Trained on 33 UrbanSound8K clips from 27 source recordings: small, mostly outdoor/street recordings; unusual dogs (very small or very large) are under-represented.",
            "Confusers not in the data (human shouts, coughs, door knocks, other animals) are untested.",
            "Its operating point favours no false alarms over recall: trained with 40 pieces of generated music as extra negatives, the trainer's objective picks threshold 0.99, where the validation part has no false alarm; validation event F1 is 0.474 (P 0.90, R 0.32; TP 9, FP 1, FN 19), below the 0.85 target. Lower thresholds bring back a false alarm on a street-music clip in scene_neg_058 (6.9 per hour of validation negatives); the model has it from sensitivity 8. Users who want more barks raise the sensitivity: its step (1.14 in logit per level) puts level 10 at threshold 0.25, with validation event F1 0.667 (R 0.61) and that one false alarm; levels 1-2 report only the clearest barks.",
            "8 of the 28 validation barks come from two source clips the model does not find at all: a clip of tonal whines whose annotated events are three short blips (isolated and in a scene: 6 events) and a clip that is mostly broadband noise (isolated and in a scene: 2 events); these carry 0.00-0.09 of their energy between 200 Hz and 2 kHz, where shared/spec/sound-signatures.md puts a bark, every other validation bark 0.92-1.00. Barks under a loud background (scene_027, scene_049, scene_010) score below 0.99 and are missed at sensitivity 5. Shouts and loud speech syllables are the nearest confusers among the sounds in the data. Tree settings, gain/background and low-SNR copies, no synthetic confusers, synthetic sirens and synthetic music as negatives, bout-context features, per-event weights, resampled copies, ignoring the 50-200 Hz bands and half-row subsampling were tried: none reached 0.75 (docs/experiments.md).",
            "Unseen negative material is its weak point. Scored cross-fitted over the whole development set (each file by a model that did not train on it), it reports 2 false alarms in 0.41 h of event-free audio at this threshold (4.8 per hour: an impact clip and a street excerpt), with event F1 0.426; the recipe without the music negatives, at its threshold of 0.40, reports 14 (34 per hour), mostly on music (docs/sound-models.md, \"Decisions and their reasons\"). Expect false alarms on background sounds the training data does not have, and more than the validation part shows.",
            "Barks of dogs it has not heard are mostly missed at the default sensitivity. On the bark sound effects of nine Debian packages (15 clips from games, educational software and desktop sound themes, each played as a bout of three over development-set backgrounds at 20 and 6 dB SNR; `make bark-check`) it finds 4 of 90 barks at sensitivity 5, 9 at sensitivity 8 and 17 at sensitivity 10, nearly all at 20 dB. The recipe without the music negatives finds about three times as many at sensitivity 5 (24 of 84 against 7 of 84 for this model, in a variant of the check with 14 of the clips resampled to 44.1 kHz), at the cost of its false alarms on music; this model at sensitivity 10 finds about as many as that one at 5. Training with half of these clips' sources as extra positives and scoring on the other half did not give a model that keeps the validation figures (docs/experiments.md).",
            "On five other validation parts drawn by the same rules, the recipe without the music negatives reached event F1 0.38-0.76: with 0.145 h of validation negatives one false alarm outweighs many barks, so the chosen threshold climbs when a part's negatives hold a bark-like sound (docs/sound-models.md, \"Other validation parts\").",
            "A bark that follows the previous one after a pause of 0.5-0.7 s is often reported as part of it: the split at 0.5 s pauses needs that much quiet between the barks, and reverberation or background fills part of the pause. On the whole development set 9 barks are missed this way (iso_dog_125523, 128240, 51024, 54545 and the scenes they are mixed into); a 0.4 s split pause finds 3 of them on the training part but splits single bouts on the validation part (docs/experiments.md).",
            "Features above 8 kHz are not used (their scale differs between the sources and at 16 kHz they do not exist); using them raised the validation frame AUC from 0.931 to 0.945 on this data but would tie the model to the sources' bandwidth.",
        ]

        var glassBreak = generic(.glassBreak)
        glassBreak.mergeGapSeconds = 0.5
        glassBreak.gate = ImpactShatterGate()
        // glassBreak keeps the grid its shipped model was chosen on (a retrain reproduces it).
        glassBreak.splitsAtPauses = false
        glassBreak.onsetActivities = [nil, 1.0, 1.5]
        glassBreak.minActiveDecisions = [2]
        glassBreak.maxEventSeconds = 6
        // With the bursts and tones its validation recall fell (event F1 0.889 -> 0.800).
        glassBreak.syntheticConfusers = false
        glassBreak.augmentedCopies = 2
        // The shatter band lies above 8 kHz.
        glassBreak.usesHighBand = true
        glassBreak.knownWeaknesses = [
            "Trained on 35 glass clips from 33 sources (Ring/Infineon test recordings and one small repository), many normalised to -36 dBFS; real windows broken in a home may differ.",
            "Confusers in the data are impacts and dishes only; keys, cutlery, mail-slot clanks and clapping are untested. On 3.6 h of released game soundtracks (92 tracks from Debian's packages) it reports 7 events (1.9 per hour), on percussive passages.",
            "Trained without the synthetic noise bursts and tones (steady noises only). It reports none of the abrupt white-noise bursts of the test \"abrupt white-noise bursts are not glass breaks\", but a loud abrupt burst of white noise after a settled background can still pass the thud-then-shatter gate and the model.",
            "Below 32 kHz sampling the shatter band above 8 kHz is missing: the model was trained at 44.1 kHz, so detection at 16 kHz is weaker.",
            "The threshold at sensitivity 5 (0.99) is the top of the trainer's grid: lower thresholds admit a false alarm on an impact clip, and quieter glass inside scenes scores 0.94-0.97 and is missed. On five other validation parts the same recipe reached event F1 0.88-0.92, three of them with one false alarm on an impact.",
            "The validation part has 19 glass events and 0.145 h of event-free audio: one event moves F1 by about 0.05 and one false alarm is 6.9 per hour, so the figures are uncertain.",
        ]

        var personTalking = generic(.personTalking)
        personTalking.mergeGapSeconds = 0.3
        personTalking.segmentObjective = true
        personTalking.splitPauseSeconds = 0.3
        // Positives down to 1 dB over the background: quiet consonants and unvoiced syllables are
        // speech too. Over six training seeds its validation segment F1 was 0.899-0.911 (mean 0.904)
        // against 0.890-0.902 (mean 0.896) with 0.3, higher or equal at every seed (docs/sound-models.md).
        personTalking.positiveActivity = 0.1
        personTalking.ignoresVoiceBackground = true
        personTalking.trainsWithGeneratedWords = true
        personTalking.knownWeaknesses = [
            "Speech sources are few (AMI meeting excerpts, spoken digits of three speakers, two LibriSpeech readers, a device voice): other languages, whispering, shouting and far-field speech are under-represented.",
            "Distant voices in children-playing, room-ambience and street-music material are not labelled: the model is neither trained on those regions as negatives nor scored there (VoiceBackground), so it may or may not report them.",
            "TV/radio speech and music with vocals are reported as speech (no separate label). Instrumental music is often reported too: on 3.6 h of released game soundtracks (92 tracks from Debian's packages, mostly instrumental) it reports 125 events (35 per hour), so music in a room will cause false alarms. Training with the 40 generated music pieces that dogBark uses halved the reports of the recipe without the words (245 to 121) but lowered the validation segment F1 to 0.854, below the target; 20 or 10 of the pieces, or all 40 at -20 dB, gave 240, 290 or 132 with 0.883, 0.892 or 0.859 (docs/experiments.md).",
            "Single words of speakers it was not trained on are its largest risk: the development set's short utterances are spoken digits of three speakers (8 kHz recordings). It therefore also trains on 48 generated recordings of 100 single words of other voices (Debian's qabcs-data, seven languages, every other file band-limited to 3.9 kHz as an 8 kHz recording; `make training-words`). Retrained with the same recipe on other validation parts (docs/sound-models.md, \"Other validation parts\"), segment F1 is 0.880 with two of the three digit speakers held out (0.810 without the words) and 0.818 with all three held out (0.440 without); the shipped part reads 0.901 (0.902 without). Single words remain the weakest kind of speech: with all three digit speakers held out, 11 of 29 of their events are missed.",
            "Validation segment F1 meets the 0.90 target by one segment (0.901: TP 77, FP 5, FN 12; one more missed segment gives 0.894), so the margin is within what one segment changes. With the generated words the chosen threshold is 0.95 (0.65 without them): fewer false segments (5 against 12) and more missed ones (12 against 6), and event F1 at the 0.5 s collar is 0.656 (0.740 without; the event objective is not this label's target). The misses are single spoken digits (mostly unvoiced ones such as \"six\") and digits under a scene's background; many of the false segments are the second before or after a clip whose edge falls within a few hundredths of a whole second (one 1 s segment each), and unlabelled voices (the device voice of the smoke-alarm recording).",
        ]
        return [.dogBark: dogBark, .glassBreak: glassBreak, .personTalking: personTalking]
    }()
}
