package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's cost model, counted (issue 23): the owner hands a step's due timers to the own pool as one push,
 * however many there are, and wakes at most one worker for it; work due now is one push per task and never reaches
 * the owner. Counted through {@link TimerMetrics#handOffs()} and {@link TimerMetrics#workerWakeups()} on a manually
 * stepped owner (the test thread) and real pool workers.
 */
class HandOffCostTest {

    private static WheelTimer manualPool(ManualTimeSource clock, int workers) {
        return WheelTimer.builder().tick(1, TimeUnit.MILLISECONDS).timeSource(clock).manualDrive()
                .workerThreads(workers).build();
    }

    @Test
    void aStepHandsAllItsDueTimersOffAsOnePushWithAtMostOneWakeUp() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        int steps = 20;
        int perStep = 1_000;
        CountDownLatch ran = new CountDownLatch(steps * perStep);
        WheelTimer timer = manualPool(clock, 4);
        OwnerLoop loop = OwnerLoop.of(timer);
        try {
            for (int s = 0; s < steps; s++) {
                for (int i = 0; i < perStep; i++) {
                    timer.schedule(ran::countDown, 1, TimeUnit.MILLISECONDS);
                }
                loop.step(); // takes the starts into the wheel: nothing due yet
                assertEquals(s, timer.metrics().handOffs(), "no push before the timers are due");
                long wakeupsBefore = timer.metrics().workerWakeups();
                clock.advance(1, TimeUnit.MILLISECONDS);
                loop.step(); // all 1,000 are due at once
                TimerMetrics m = timer.metrics();
                assertEquals(s + 1, m.handOffs(), "one push for the step's " + perStep + " due timers");
                // The owner's signal wakes at most one; a worker that takes a timer and sees more may recruit
                // one more each, so a burst wakes at most the pool (4), never one per timer.
                assertTrue(m.workerWakeups() - wakeupsBefore <= 4, () -> "wake-ups for one step: "
                        + (m.workerWakeups() - wakeupsBefore));
            }
            assertTrue(ran.await(30, TimeUnit.SECONDS), "every timer ran");
            TimerMetrics m = timer.metrics();
            assertEquals((long) steps * perStep, m.fired());
            assertEquals(steps, m.handOffs());
            assertTrue(m.workerWakeups() <= 4L * steps, () -> "wake-ups: " + m.workerWakeups());
        } finally {
            terminate(timer);
        }
    }

    /** Manual drive: shutdown, then the step that lets the owner exit, which shuts the pool down. */
    private static void terminate(WheelTimer timer) throws InterruptedException {
        timer.shutdown();
        OwnerLoop.of(timer).step();
        assertTrue(timer.awaitTermination(30, TimeUnit.SECONDS), "terminated");
    }

    @Test
    void workDueNowIsOnePushPerTaskAndNeverReachesTheOwner() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        int n = 5_000;
        CountDownLatch ran = new CountDownLatch(n);
        WheelTimer timer = manualPool(clock, 2);
        try {
            for (int i = 0; i < n; i++) {
                timer.execute(ran::countDown);
            }
            // Nobody steps the owner (manual drive): the tasks run all the same.
            assertTrue(ran.await(30, TimeUnit.SECONDS), "every task due now ran without an owner step");
            TimerMetrics m = timer.metrics();
            assertEquals(n, m.handOffs());
            assertEquals(n, m.fired());
            assertEquals(n, m.scheduled());
            assertTrue(m.workerWakeups() <= n, () -> "at most one wake-up per push: " + m.workerWakeups());
        } finally {
            terminate(timer);
        }
    }
}
