/// Known weaknesses written into each shipped model's card.
enum ModelWeaknesses {
    static let byLabel: [String: [String]] = [
        "dogBark": [
            "Trained on 33 UrbanSound8K clips from 27 source recordings: small, mostly outdoor/street recordings; unusual dogs (very small or very large) are under-represented.",
            "Confusers not in the data (human shouts, coughs, door knocks, other animals) are untested.",
            "Validation event F1 is well below the 0.85 target: recall is low (short barks, barks at -6 dB under scene backgrounds, and events whose annotated onset is the clip start are missed or found late); precision is high.",
            "Bouts with pauses under the merge gap are one event; the reported offset is approximate.",
        ],
        "glassBreak": [
            "Trained on 35 glass clips from 33 sources (Ring/Infineon test recordings and one small repository), many normalised to -36 dBFS; real windows broken in a home may differ.",
            "Confusers in the data are impacts and dishes only; keys, cutlery, mail-slot clanks and clapping are untested.",
            "Below 32 kHz sampling the shatter band above 8 kHz is missing: the model was trained at 44.1 kHz, so detection at 16 kHz is weaker.",
            "The validation part has 19 glass events and 0.145 h of event-free audio: one event moves F1 by about 0.05 and one false alarm is 6.9 per hour, so the figures are uncertain.",
        ],
        "personTalking": [
            "Speech sources are few (AMI meeting excerpts, spoken digits, two LibriSpeech readers, a device voice): other languages, whispering, shouting and far-field speech are under-represented.",
            "Distant voices in children-playing, room-ambience and street-music material are not labelled and are excluded from training and scoring; the detector may or may not report them.",
            "TV/radio speech and music with vocals are reported as speech (no separate label).",
            "Validation segment F1 is below the 0.90 target: isolated short words (spoken digits, 0.3-0.5 s) and quiet background speech in scenes are missed; onsets of speech after 0.3 s pauses are often merged.",
        ],
    ]

}
