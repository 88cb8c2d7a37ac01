package dev.tickwheel;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: {@code shutdown()} keeps its word. A reschedule racing a shutdown loses nothing. Each window is staged deterministically on a manual clock: a reschedule paused between its
 * CAS to MOVING and its move command is the test's own CAS on the state word, and the command, offered later, is
 * {@link CommandPort#offerMove}. Each test here failed on the code before the fix.
 */
class ShutdownKeepsItsWordTest {

    private final AtomicLong now = new AtomicLong();

    private WheelTimer manualTimer() {
        return WheelTimer.builder().timeSource(now::get).tick(1, MILLISECONDS).manualDrive().executor(Runnable::run)
                .build();
    }

    /** The first half of {@code reschedule(to)}: NEW -> MOVING with the key, by CAS; its offer comes later. */
    private static void moveWithoutItsCommand(ScheduledTimer<?> t, long toKey) {
        long s = t.word();
        assertEquals(ScheduledTimer.NEW, ScheduledTimer.phaseOf(s));
        assertTrue(t.casWord(s, ScheduledTimer.withKey(s, ScheduledTimer.MOVING, toKey)));
    }

    private void stepTo(OwnerLoop loop, long fromMs, long toMs) {
        for (long ms = fromMs; ms <= toMs; ms++) {
            now.set(MILLISECONDS.toNanos(ms));
            loop.step();
        }
    }

    /**
     * Window 1: the rescheduling thread's command lands after shutdown() while the owner is alive and the timer is
     * still linked at its old key. The producer re-read the run state after its offer and, seeing SHUTDOWN, ended
     * the timer cancelled (reschedule false), although the owner would have moved it: the timer never ran.
     */
    @Test
    void anEarlierRescheduleWhoseCommandLandsAfterShutdownStillRunsAtItsNewTime() {
        WheelTimer w = manualTimer();
        OwnerLoop loop = OwnerLoop.of(w);
        AtomicLong ranAt = new AtomicLong(-1);
        ScheduledTimer<?> t = (ScheduledTimer<?>) w.schedule(() -> ranAt.set(now.get()), 10, SECONDS);
        loop.step();
        moveWithoutItsCommand(t, 50);
        w.shutdown();
        w.offerMove(t, 50); // the paused reschedule goes on
        assertFalse(t.isDone(), "ended by the racing shutdown: " + t);
        stepTo(loop, 1, 60);
        assertEquals(MILLISECONDS.toNanos(50), ranAt.get(), "ran at its new deadline, 50 ms");
        assertFalse(t.isCancelled());
        assertTrue(w.isTerminated());
        assertEquals(0, w.metrics().pending());
    }

    /**
     * Window 2: the owner meets the MOVING timer as due at its old key before the move command is offered. It used
     * to skip it (trusting the command), so the timer was out of the wheel with no command yet: after shutdown()
     * the owner found nothing left and exited, and the producer then saw the shutdown and cancelled the timer. Lost.
     */
    @Test
    void aMovingTimerTheOwnerMeetsAsDueBeforeItsCommandRunsAndTheOwnerWaitsForIt() {
        WheelTimer w = manualTimer();
        OwnerLoop loop = OwnerLoop.of(w);
        AtomicInteger runs = new AtomicInteger();
        ScheduledTimer<?> t = (ScheduledTimer<?>) w.schedule(runs::incrementAndGet, 100, MILLISECONDS);
        loop.step();
        moveWithoutItsCommand(t, 50);
        w.shutdown();
        now.set(MILLISECONDS.toNanos(100));
        loop.step(); // the old key: the timer is met as due, MOVING, its command not yet offered
        w.offerMove(t, 50);
        stepTo(loop, 101, 110);
        assertEquals(1, runs.get(), "runs: " + t);
        assertFalse(t.isCancelled());
        assertTrue(w.isTerminated());
        assertEquals(0, w.metrics().pending());
    }

    /** Window 2 against shutdownNow: the timer is handed back or runs, exactly once; it is never cancelled. */
    @Test
    void aMovingTimerMetAsDueBeforeItsCommandIsRunOrHandedBackByShutdownNow() {
        WheelTimer w = manualTimer();
        OwnerLoop loop = OwnerLoop.of(w);
        AtomicInteger runs = new AtomicInteger();
        ScheduledTimer<?> t = (ScheduledTimer<?>) w.schedule(runs::incrementAndGet, 100, MILLISECONDS);
        loop.step();
        moveWithoutItsCommand(t, 50);
        now.set(MILLISECONDS.toNanos(100));
        loop.step();
        List<Runnable> back = w.shutdownNow();
        w.offerMove(t, 50);
        int handedBack = back.contains(t) ? 1 : 0;
        assertEquals(1, runs.get() + handedBack, "ran " + runs.get() + ", handed back " + handedBack + ": " + t);
        assertFalse(t.isCancelled());
        assertEquals(0, w.metrics().pending());
    }

    /** The move's command lands after shutdownNow collected the still-linked MOVING timer: handed back, once. */
    @Test
    void aMovingTimerStillLinkedIsHandedBackByShutdownNow() {
        WheelTimer w = manualTimer();
        OwnerLoop loop = OwnerLoop.of(w);
        AtomicInteger runs = new AtomicInteger();
        ScheduledTimer<?> t = (ScheduledTimer<?>) w.schedule(runs::incrementAndGet, 100, MILLISECONDS);
        loop.step();
        moveWithoutItsCommand(t, 50);
        List<Runnable> back = w.shutdownNow();
        w.offerMove(t, 50);
        assertEquals(List.of(t), back);
        assertEquals(0, runs.get());
        assertFalse(t.isCancelled());
    }

    /**
     * The limit as documented: a delay of 2^31 - 2 ticks is accepted from any clock reading; one of exactly 2^31 - 1
     * ticks only when the clock reads exactly on a tick, since the deadline rounds up to the next tick.
     */
    @Test
    void rescheduleAcceptsTwoToThe31MinusTwoTicksFromAnyReadingAndTheLastTickOnlyOnATick() {
        WheelTimer w = manualTimer();
        TimerFuture<?> f = w.schedule(() -> { }, 10, MILLISECONDS);
        OwnerLoop.of(w).step();
        now.set(MILLISECONDS.toNanos(5) + 1); // just after a tick
        assertTrue(f.reschedule(Integer.MAX_VALUE - 1L, MILLISECONDS));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> f.reschedule(Integer.MAX_VALUE, MILLISECONDS));
        assertTrue(e.getMessage().contains("2^31 - 2"), e.getMessage());
        now.set(MILLISECONDS.toNanos(6)); // exactly on a tick
        assertTrue(f.reschedule(Integer.MAX_VALUE, MILLISECONDS));
    }
}
