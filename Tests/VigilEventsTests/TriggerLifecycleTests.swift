import Testing
import VigilEvents

@Suite("TriggerLifecycle")
struct TriggerLifecycleTests {
    private func timing(_ initial: Double, _ augmentation: Double, _ max: Double, _ blind: Double) -> LifecycleTiming {
        LifecycleTiming(initialDuration: initial, augmentationDuration: augmentation, maxDuration: max, blindDuration: blind)
    }

    @Test func startAugmentAbsorbAndStop() {
        var lifecycle = TriggerLifecycle(timing: timing(10, 5, 30, 30))
        #expect(lifecycle.observe(at: 2).response == .started)
        #expect(lifecycle.scheduledStop == 12)
        #expect(lifecycle.observe(at: 3).response == .augmented(duration: 15))
        #expect(lifecycle.observe(at: 12).response == .absorbed)  // t == previous D (10)
        #expect(lifecycle.observe(at: 12.25).response == .augmented(duration: 20))
        #expect(lifecycle.expire(before: 22) == nil)  // stop time 22 is not strictly before 22
        let stop = lifecycle.expire(before: 22.5)
        #expect(stop == TriggerLifecycle.Stop(activationStart: 2, time: 22, reason: .actionStopped))
        #expect(lifecycle.state == .blind(stoppedAt: 22, until: 52))
    }

    @Test func blindZeroGoesIdleAndNegativeDurationsCountAsZero() {
        var lifecycle = TriggerLifecycle(timing: timing(5, -3, 20, -1))
        #expect(lifecycle.timing == timing(5, 0, 20, 0))
        _ = lifecycle.observe(at: 0)
        #expect(lifecycle.observe(at: 1).response == .augmented(duration: 5))
        let (stop, response) = lifecycle.observe(at: 5.5)
        #expect(stop?.time == 5)
        #expect(response == .started)
    }

    @Test(arguments: [1e308, Double.infinity])
    func hugeBlindNeverOverflowsOrEnds(blind: Double) {
        var lifecycle = TriggerLifecycle(timing: timing(10, 5, 30, blind))
        _ = lifecycle.observe(at: 100)
        let (stop, response) = lifecycle.observe(at: 1e300)
        #expect(stop?.time == 110)
        #expect(response == .blind(stoppedAt: 110, until: 110 + blind))
        #expect(lifecycle.observe(at: 1e307).response == .blind(stoppedAt: 110, until: 110 + blind))
    }

    @Test func timeoutWhenDurationPassesMax() {
        var lifecycle = TriggerLifecycle(timing: timing(10, 10, 15, 0))
        _ = lifecycle.observe(at: 0)
        _ = lifecycle.observe(at: 1)  // D = 20 > max 15
        #expect(lifecycle.scheduledStop == 15)
        #expect(lifecycle.finish() == TriggerLifecycle.Stop(activationStart: 0, time: 15, reason: .timeout))
        #expect(lifecycle.state == .idle)
    }

    @Test func finishClosesAtTheScheduledStopAndNothingWhenIdle() {
        var lifecycle = TriggerLifecycle(timing: timing(10, 5, 30, 30))
        #expect(lifecycle.finish() == nil)
        _ = lifecycle.observe(at: 7)
        #expect(lifecycle.finish()?.time == 17)
        #expect(lifecycle.isActive == false)
    }

    @Test func blindEndsAtItsBoundary() {
        var lifecycle = TriggerLifecycle(timing: timing(10, 5, 30, 5))
        _ = lifecycle.observe(at: 0)
        _ = lifecycle.expire(before: 11)
        #expect(lifecycle.state == .blind(stoppedAt: 10, until: 15))
        _ = lifecycle.expire(before: 14.9)
        #expect(lifecycle.state == .blind(stoppedAt: 10, until: 15))
        _ = lifecycle.expire(before: 15)
        #expect(lifecycle.state == .idle)
    }
}
