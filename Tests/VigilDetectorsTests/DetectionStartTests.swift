import Testing
import VigilCore
import VigilDSP
import VigilDetectors
import VigilSynth
import VigilTestSupport

/// Runs `detector` like the live stream does: `reportStarts` after every frame. Returns every
/// detection with the centre time of the frame after which it was appended.
private func runStreaming(_ detector: any SpectralDetector, samples: [Float], rate: Double) -> [(detection: Detection, at: Double)] {
    let stft = ShortTimeFourierTransform(configuration: .standard(sampleRate: rate))
    var out: [(Detection, Double)] = []
    var batch: [Detection] = []
    func frame(_ f: SpectralFrame) {
        detector.process(f, into: &batch)
        detector.reportStarts(into: &batch)
        out += batch.map { ($0, f.centerTime) }
        batch.removeAll()
    }
    samples.withUnsafeBufferPointer { buffer in stft.process(buffer) { frame($0) } }
    stft.finish { frame($0) }
    let end = Double(samples.count) / rate
    detector.finish(at: end, into: &batch)
    out += batch.map { ($0, end) }
    return out
}

@Suite("Started detections (reportStarts)")
struct DetectionStartTests {
    static let rate = 16_000.0

    @Test("a sound is reported as started at its confirmation, then complete after the hangover")
    func soundStartsAtConfirmation() throws {
        var generator = SeededGenerator(seed: 4)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 10)
        signal.addNoise(dBFS: -50, generator: &generator)
        signal.addNoise(dBFS: -12, start: 3, duration: 2, generator: &generator)
        signal.addTone(frequency: 900, start: 7, duration: 0.4, dBFS: -15)
        let configuration = STFTConfiguration.standard(sampleRate: Self.rate)
        let streamed = runStreaming(
            SoundLevelDetector(configuration: configuration, sensitivity: .medium), samples: signal.samples, rate: Self.rate)
        let started = streamed.filter { $0.detection.phase == .started }
        let complete = streamed.filter { $0.detection.phase == .complete }
        try #require(started.count == 2 && complete.count == 2)
        for (s, c) in zip(started, complete) {
            // Reported on the frame that confirmed it, long before the sound ended.
            #expect(s.at == s.detection.detectedAt)
            #expect(s.detection.detectedAt == c.detection.detectedAt && s.detection.start == c.detection.start)
            #expect(s.at < c.detection.end && c.at > c.detection.end)
            #expect(s.detection.end <= c.detection.end && s.detection.trigger == .sound)
        }
        #expect(abs(started[0].at - 3) < 0.2)
        // Batch callers (no reportStarts) get exactly the complete detections.
        let batch = runDetector(
            SoundLevelDetector(configuration: configuration, sensitivity: .medium), samples: signal.samples, rate: Self.rate)
        #expect(batch == complete.map(\.detection))
    }

    @Test("an alarm is reported as started when its pattern is confirmed, complete when it stops", arguments: [false, true])
    func alarmStartsAtConfirmation(coAlarm: Bool) throws {
        var generator = SeededGenerator(seed: 5)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: coAlarm ? 30 : 24)
        signal.addNoise(dBFS: -55, generator: &generator)
        let span = coAlarm ? signal.addTemporalFour(start: 2, cycles: 4) : signal.addTemporalThree(start: 2, cycles: 4)
        let configuration = STFTConfiguration.standard(sampleRate: Self.rate)
        func make() -> any SpectralDetector {
            coAlarm
                ? AlarmPatternDetector.coAlarm(configuration: configuration, settings: DetectorSettings())
                : AlarmPatternDetector.smokeAlarm(configuration: configuration, settings: DetectorSettings())
        }
        let streamed = runStreaming(make(), samples: signal.samples, rate: Self.rate)
        let started = streamed.filter { $0.detection.phase == .started }
        let complete = streamed.filter { $0.detection.phase == .complete }
        try #require(started.count == 1 && complete.count == 1, "\(streamed.map(\.detection))")
        let s = started[0], c = complete[0]
        #expect(s.at == s.detection.detectedAt && s.detection.detectedAt == c.detection.detectedAt)
        #expect(s.detection.start == c.detection.start && abs(s.detection.start - span.start) < 0.1)
        // Confirmed after the second cycle, while two more cycles still ring.
        #expect(s.at < span.end - 4 && c.at > span.end)
        #expect(s.detection.evidence["pattern"] == c.detection.evidence["pattern"])
        let batch = runDetector(make(), samples: signal.samples, rate: Self.rate)
        #expect(batch == complete.map(\.detection))
    }

    @Test("a learned glass break is reported as started at its confirmation, complete when it ends")
    func learnedGlassBreakStartsAtConfirmation() throws {
        // Loud noise bursts over pink noise (each an impact followed by broadband shatter energy), through a
        // glassBreak model trained on such bursts (the shipped one is trained to take them for noise).
        var generator = SeededGenerator(seed: 6)
        var signal = SignalBuffer(sampleRate: Self.rate, duration: 12)
        signal.addPinkNoise(dBFS: -60, generator: &generator)
        for start in [1.0, 4.0, 7.0] { signal.addNoise(dBFS: -14, start: start, duration: 0.3, generator: &generator) }
        let configuration = STFTConfiguration.standard(sampleRate: Self.rate)
        func make() -> LearnedSoundDetector {
            LearnedSoundDetector(
                trigger: .glassBreak, model: BurstTrainedGlassModel.model, configuration: configuration, sensitivity: .medium)
        }
        let streamed = runStreaming(make(), samples: signal.samples, rate: Self.rate)
        let started = streamed.filter { $0.detection.phase == .started }
        let complete = streamed.filter { $0.detection.phase == .complete }
        try #require(!complete.isEmpty && started.count == complete.count, "\(streamed.map(\.detection))")
        let hop = configuration.hopDuration
        for (s, c) in zip(started, complete) {
            // Reported on the frame whose decision confirmed it (a decision is available at a
            // frame's centre, within a hop), before the complete detection.
            #expect(s.at >= s.detection.detectedAt - 1e-9 && s.at - s.detection.detectedAt <= hop + 1e-9)
            #expect(s.at < c.at && s.detection.trigger == .glassBreak)
            #expect(s.detection.detectedAt == c.detection.detectedAt && s.detection.start == c.detection.start)
            #expect(s.detection.evidence["impactTime"] != nil && s.detection.end <= c.detection.end)
            // Confirmed at the decision that had the evidence, not at the end of the event.
            #expect(c.detection.detectedAt < c.at)
        }
        // Batch callers (no reportStarts) get exactly the complete detections.
        #expect(runDetector(make(), samples: signal.samples, rate: Self.rate) == complete.map(\.detection))
    }
}
