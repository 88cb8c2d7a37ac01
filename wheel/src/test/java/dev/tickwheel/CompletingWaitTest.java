package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A {@code get()} that finds a run's outcome being written (COMPLETING) yields rather than parks, since the run's
 * terminal phase is a release store with no fence before its read of the waiters (see {@code TimerState.await}). It
 * must still keep its timeout and its interrupt if the run stays there: a runner descheduled inside COMPLETING, or
 * one that failed inside its last store. Each test holds a timer in COMPLETING by hand, as a run would leave it.
 */
class CompletingWaitTest {

    private static final Duration GUARD = Duration.ofSeconds(30);

    /** A timer whose run has claimed it, started, and moved to COMPLETING, and stays there. */
    @SuppressWarnings("unchecked")
    private static ScheduledTimer<String> heldInCompleting(WheelTimer timer) {
        ScheduledFuture<String> f = timer.schedule(() -> "value", 1, TimeUnit.MILLISECONDS);
        ScheduledTimer<String> t = (ScheduledTimer<String>) f;
        assertTrue(t.claimRun(false) != ScheduledTimer.NOT_CLAIMED);
        t.taskOrOutcome = Thread.currentThread();
        assertTrue(t.startRun());
        assertTrue(t.casPhase(TimerState.RUNNING, TimerState.COMPLETING));
        assertTrue(t.isDone(), "COMPLETING counts as done, as in FutureTask");
        return t;
    }

    private static WheelTimer manual() {
        return WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS).manualDrive()
                .executor(Runnable::run).build();
    }

    @Test
    void aTimedGetTimesOutWhileTheRunStaysInCompleting() {
        WheelTimer timer = manual();
        ScheduledTimer<String> t = heldInCompleting(timer);
        assertTimeoutPreemptively(GUARD, () -> {
            assertThrows(TimeoutException.class, () -> t.get(20, TimeUnit.MILLISECONDS));
        }, "a timed get() kept its timeout");
        t.taskOrOutcome = "value";
        t.completePhase(TimerState.COMPLETED);
        t.releaseWaiters();
        assertTimeoutPreemptively(GUARD, () -> assertEquals("value", t.get()), "and returns once the run has ended");
        timer.shutdownNow();
    }

    @Test
    void anInterruptedGetThrowsWhileTheRunStaysInCompleting() {
        WheelTimer timer = manual();
        ScheduledTimer<String> t = heldInCompleting(timer);
        assertTimeoutPreemptively(GUARD, () -> {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, t::get);
        }, "an interrupted get() threw");
        timer.shutdownNow();
    }
}
