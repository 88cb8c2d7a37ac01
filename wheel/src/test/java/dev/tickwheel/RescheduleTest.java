package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link TimerFuture#reschedule}: on a manual clock with a 1 ms tick (tasks run inside {@code step()}, or are
 * collected by a capturing executor), every rule: later and earlier, across the wheel's level boundaries, to a
 * deadline already past, many reschedules costing one move, after the fire or a cancel, racing a dispatch, with
 * shutdown and shutdownNow; and once with the real clock and pool, never early.
 */
class RescheduleTest {

    private static WheelTimer manual(ManualTimeSource clock) {
        return WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive().executor(Runnable::run)
                .build();
    }

    private static void stepAt(WheelTimer t, ManualTimeSource clock, long ms) {
        clock.advanceTo(0, MILLISECONDS.toNanos(ms));
        OwnerLoop.of(t).step();
    }

    @Test
    void aLaterDeadlineMovesTheRunThere() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        stepAt(t, clock, 5);
        assertTrue(f.reschedule(20, MILLISECONDS)); // due at 25
        assertEquals(20, f.getDelay(MILLISECONDS), "getDelay reads the new deadline while it moves");
        stepAt(t, clock, 10);
        stepAt(t, clock, 24);
        assertEquals(0, runs.get(), "not at the old deadline, not before the new one");
        assertEquals(1, f.getDelay(MILLISECONDS));
        stepAt(t, clock, 25);
        assertEquals(1, runs.get());
        stepAt(t, clock, 100);
        assertEquals(1, runs.get(), "once");
        assertFalse(f.reschedule(5, MILLISECONDS), "it ran: too late to move it");
        assertEquals(1, t.metrics().scheduled(), "a move is not a new timer");
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void anEarlierDeadlineWakesAndRunsEarlier() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(runs::incrementAndGet, 1, HOURS);
        OwnerLoop.of(t).step();
        OwnerPark.of(t).planPark(); // parked until the hour's cascade
        assertTrue(f.reschedule(5, MILLISECONDS));
        assertTrue(OwnerPark.of(t).isAwake(), "a reschedule before the owner's planned wake-up wakes it");
        stepAt(t, clock, 4);
        assertEquals(0, runs.get());
        stepAt(t, clock, 5);
        assertEquals(1, runs.get());
    }

    @Test
    void movesAcrossEveryLevelBoundaryAreNeverEarlyAndOnTime() {
        long[] delays = {2, 63, 64, 65, 4095, 4096, 4097, 262_143, 262_144, 262_145, 16_777_215, 16_777_216,
                16_777_217, Integer.MAX_VALUE - 1000L};
        for (long from : delays) {
            for (long to : new long[] {1, 64, 4096, 262_145, 16_777_217, Integer.MAX_VALUE - 2000L}) {
                ManualTimeSource clock = new ManualTimeSource(0);
                WheelTimer t = manual(clock);
                AtomicLong ranAt = new AtomicLong(-1);
                TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), from, MILLISECONDS);
                OwnerLoop.of(t).step();
                stepAt(t, clock, 1); // one tick on: the move is made with the wheel and the clock at 1 ms
                assertTrue(f.reschedule(to, MILLISECONDS), from + " -> " + to);
                long due = 1 + to;
                stepAt(t, clock, due - 1);
                assertEquals(-1, ranAt.get(), "early: scheduled " + from + " ms, moved to " + to + " ms");
                stepAt(t, clock, due);
                assertEquals(MILLISECONDS.toNanos(due), ranAt.get(), "scheduled " + from + ", moved to " + to);
            }
        }
    }

    @Test
    void aDeadlineAlreadyPastRunsAtTheNextStep() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(runs::incrementAndGet, 1, HOURS);
        OwnerLoop.of(t).step();
        stepAt(t, clock, 7);
        assertTrue(f.reschedule(-5, SECONDS));
        OwnerLoop.of(t).step();
        assertEquals(1, runs.get());
    }

    @Test
    void laterReschedulesSendNothingAndTheOwnerMovesTheTimerOnceWhenItsOldKeyExpires() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertEquals(10, OwnerPark.of(t).planPark(), "the owner plans to sleep until the old key");
        for (int i = 1; i <= 100; i++) {
            assertTrue(f.reschedule(10 + i, MILLISECONDS));
        }
        assertEquals(0, t.counters.moves.sum(), "a later deadline only defers the timer: no command");
        assertFalse(OwnerPark.of(t).isAwake(), "and no wake-up");
        assertEquals(110, f.getDelay(MILLISECONDS), "getDelay reads the deferred deadline");
        assertEquals(10, OwnerLoop.of(t).wheel().minKey(), "still linked at its old key");
        stepAt(t, clock, 9);
        assertEquals(0, OwnerLoop.of(t).moves());
        stepAt(t, clock, 10);
        assertEquals(1, OwnerLoop.of(t).moves(), "one move, when the old key expired");
        assertEquals(-1, ranAt.get(), "not at the old deadline");
        assertEquals(110, OwnerLoop.of(t).wheel().minKey());
        stepAt(t, clock, 109);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 110);
        assertEquals(MILLISECONDS.toNanos(110), ranAt.get(), "the last reschedule's deadline");
        assertEquals(1, OwnerLoop.of(t).moves());
        assertEquals(1, t.metrics().scheduled(), "a move is not a new timer");
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void manyEarlierReschedulesBetweenTwoStepsCostOneMoveAndTheLastOneCounts() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 1000, MILLISECONDS);
        OwnerLoop.of(t).step();
        for (int i = 1; i <= 100; i++) {
            assertTrue(f.reschedule(500 - i, MILLISECONDS));
        }
        assertEquals(1, t.counters.moves.sum(), "one move command for the whole burst");
        OwnerLoop.of(t).step();
        assertEquals(1, OwnerLoop.of(t).moves());
        stepAt(t, clock, 399);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 400);
        assertEquals(MILLISECONDS.toNanos(400), ranAt.get(), "the last reschedule's deadline");
    }

    @Test
    void aDeferredTimerMovedEarlierThanItsDeferralButNotThanItsLinkStaysDeferred() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(50, MILLISECONDS));
        assertTrue(f.reschedule(30, MILLISECONDS), "earlier than 50, later than the linked 10: still deferred");
        assertEquals(0, t.counters.moves.sum());
        stepAt(t, clock, 10);
        stepAt(t, clock, 29);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 30);
        assertEquals(MILLISECONDS.toNanos(30), ranAt.get());
    }

    @Test
    void aDeferredTimerMovedBeforeItsLinkedKeyIsMovedAtOnce() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(50, MILLISECONDS)); // deferred, still linked at 10
        assertTrue(f.reschedule(5, MILLISECONDS), "before the linked key: a move command");
        assertEquals(1, t.counters.moves.sum());
        assertTrue(OwnerPark.of(t).isAwake());
        stepAt(t, clock, 4);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 5);
        assertEquals(MILLISECONDS.toNanos(5), ranAt.get());
    }

    @Test
    void aDeferralWhoseNewKeyHasAlsoPassedWhenTheOldOneExpiresRunsOnceAtThatStep() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> {
            runs.incrementAndGet();
            ranAt.set(clock.nanoTime());
        }, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        stepAt(t, clock, 5);
        assertTrue(f.reschedule(7, MILLISECONDS)); // 12
        stepAt(t, clock, 40); // a late owner: both keys are behind it
        assertEquals(1, runs.get(), "moved and taken as due in the same step");
        assertEquals(MILLISECONDS.toNanos(40), ranAt.get());
        stepAt(t, clock, 100);
        assertEquals(1, runs.get(), "once");
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void aDeferralBeforeTheOwnerFirstTakesTheTimerIsKept() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 10, MILLISECONDS);
        assertTrue(f.reschedule(20, MILLISECONDS), "the start command is still queued");
        stepAt(t, clock, 10);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 20);
        assertEquals(MILLISECONDS.toNanos(20), ranAt.get());
    }

    @Test
    void aDeferredTimerIsPendingToEveryoneElse() throws Exception {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> a = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        TimerFuture<?> b = t.schedule(runs::incrementAndGet, 20, MILLISECONDS);
        TimerFuture<?> c = t.schedule(runs::incrementAndGet, 30, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(a.reschedule(40, MILLISECONDS));
        assertTrue(b.reschedule(40, MILLISECONDS));
        assertTrue(c.reschedule(40, MILLISECONDS));
        assertFalse(a.isDone());
        assertFalse(a.isCancelled());
        assertTrue(a.toString().contains("pending"), a.toString());
        assertTrue(a.compareTo(b) == 0 && b.compareTo(c) == 0, "compared by their new deadlines");
        assertTrue(b.cancel(false), "cancel takes a deferred timer as pending");
        assertTrue(c.cancelIfNotStarted(), "and so does the strict cancel");
        List<Runnable> back = t.shutdownNow();
        assertEquals(List.of(a), back, "shutdownNow hands a deferred timer back");
        assertEquals(0, runs.get());
        assertEquals(0, t.metrics().pending());
        assertEquals(2, t.metrics().cancelled());
        back.get(0).run(); // the caller runs what was handed back
        assertEquals(1, runs.get());
    }

    @Test
    void afterShutdownADeferredTimerRunsAtItsNewDeadline() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(20, MILLISECONDS));
        t.shutdown();
        stepAt(t, clock, 10);
        assertEquals(-1, ranAt.get());
        assertFalse(t.isTerminated(), "the deferred timer is still pending");
        stepAt(t, clock, 20);
        assertEquals(MILLISECONDS.toNanos(20), ranAt.get());
        assertTrue(t.isTerminated());
    }

    @Test
    void aRescheduleBetweenTheOwnersMoveAndItsReturnToNewIsNotLost() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 100, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(30, MILLISECONDS));
        OwnerLoop.of(t).step(); // moved to 30, NEW again
        assertTrue(f.reschedule(20, MILLISECONDS)); // a second command
        assertEquals(2, t.counters.moves.sum());
        stepAt(t, clock, 19);
        assertEquals(-1, ranAt.get());
        stepAt(t, clock, 20);
        assertEquals(MILLISECONDS.toNanos(20), ranAt.get());
    }

    @Test
    void aKeyResolvesInsideItsWindowAroundTheResolvingTick() {
        long now = 5_000_000_000L; // past 2^32: the low bits alone say nothing
        for (long to : new long[] {now, now + 1, now + Integer.MAX_VALUE, now - (1L << 30) + 1}) {
            assertEquals(to, ScheduledTimer.resolveKey((int) to, now), "key " + to + " at tick " + now);
        }
        // The owner's step read its tick before the rescheduling thread read a later one, by a little.
        long to = now + 10 + Integer.MAX_VALUE;
        assertEquals(to, ScheduledTimer.resolveKey((int) to, now), "a key 2^31 - 1 ahead of a later reading");
    }

    @Test
    void aRescheduleAfterTheOwnerHandedTheTimerOffLosesAndTheTaskRunsAtTheOldDeadline() {
        ManualTimeSource clock = new ManualTimeSource(0);
        List<Runnable> handedOff = new ArrayList<>();
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(handedOff::add).build();
        AtomicLong ranAt = new AtomicLong(-1);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(() -> {
            runs.incrementAndGet();
            ranAt.set(clock.nanoTime());
        }, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        stepAt(t, clock, 10); // handed to the "pool", not yet claimed by a worker
        assertEquals(1, handedOff.size());
        assertFalse(f.reschedule(5, MILLISECONDS), "handed off: too late to move it");
        assertFalse(f.isDone(), "not started yet");
        clock.advanceTo(0, MILLISECONDS.toNanos(11));
        handedOff.remove(0).run(); // the worker, a little later
        assertEquals(1, runs.get());
        assertEquals(MILLISECONDS.toNanos(11), ranAt.get());
        stepAt(t, clock, 30);
        assertEquals(1, runs.get(), "once");
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void aTimerMovedByItsOwnStartCommandIsNotPlacedAgainByTheStaleMoveCommand() {
        // The start command finds the timer MOVING and moves it (due now); the move command behind it is then stale
        // and used to put the timer in the due buffer a second time. A reschedule landing between the two entries
        // (here: made by the executor while it takes the timer due before them) deferred the first entry, and the
        // second then ran the task 50 ms early.
        ManualTimeSource clock = new ManualTimeSource(0);
        List<Runnable> handedOff = new ArrayList<>();
        AtomicLong ranAt = new AtomicLong(-1);
        AtomicInteger runs = new AtomicInteger();
        Object[] cell = new Object[2]; // the timer due first, and the one it reschedules
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(r -> {
                    if (r == cell[0]) {
                        assertTrue(((TimerFuture<?>) cell[1]).reschedule(50, MILLISECONDS), "pending: deferred");
                    }
                    handedOff.add(r);
                }).build();
        OwnerLoop.of(t).step(); // the wheel's earliest key is now 1
        cell[0] = t.schedule(() -> { }, 0, MILLISECONDS); // due now: taken as due first
        TimerFuture<?> f = t.schedule(() -> {
            runs.incrementAndGet();
            ranAt.set(clock.nanoTime());
        }, 10, SECONDS);
        cell[1] = f;
        assertTrue(f.reschedule(0, MILLISECONDS), "to now, before the owner took the start: start, then move");
        OwnerLoop.of(t).step();
        assertEquals(1, handedOff.size(), "only the first timer: the other was deferred before its turn");
        handedOff.remove(0).run();
        assertEquals(0, runs.get(), "not early");
        for (int ms = 1; ms <= 49; ms++) {
            stepAt(t, clock, ms);
        }
        assertTrue(handedOff.isEmpty(), "not before its new deadline");
        stepAt(t, clock, 50);
        assertEquals(1, handedOff.size());
        handedOff.remove(0).run();
        assertEquals(1, runs.get());
        assertEquals(MILLISECONDS.toNanos(50), ranAt.get());
        stepAt(t, clock, 100);
        assertTrue(handedOff.isEmpty(), "once");
        assertEquals(0, OwnerLoop.of(t).wheel().size(), "nothing left linked");
    }

    @Test
    void aRescheduleOfATimerAlreadyMovingWakesTheOwnerForItsOwnKey() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicLong ranAt = new AtomicLong(-1);
        t.schedule(() -> { }, 64, MILLISECONDS); // the owner plans to wake for this one
        TimerFuture<?> f = t.schedule(() -> ranAt.set(clock.nanoTime()), 100, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertEquals(64, OwnerPark.of(t).planPark());
        assertTrue(f.reschedule(70, MILLISECONDS), "earlier than its key: a move command");
        assertFalse(OwnerPark.of(t).isAwake(), "70 is after the plan: no wake-up needed");
        assertTrue(f.reschedule(1, MILLISECONDS), "still moving: the key changes in place");
        assertTrue(OwnerPark.of(t).isAwake(), "1 is before the plan: the owner is woken");
        stepAt(t, clock, 1);
        assertEquals(MILLISECONDS.toNanos(1), ranAt.get());
    }

    @Test
    void aCallersEarlyRunOfARescheduledTimerRunsItNowAndOnce() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> deferred = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        TimerFuture<?> moving = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(deferred.reschedule(50, MILLISECONDS));
        assertTrue(moving.reschedule(5, MILLISECONDS));
        ((Runnable) deferred).run();
        ((Runnable) moving).run();
        assertEquals(2, runs.get(), "run() runs a pending timer now, as the JDK's does");
        assertTrue(deferred.isDone() && moving.isDone());
        assertFalse(deferred.reschedule(60, MILLISECONDS));
        for (int ms = 1; ms <= 60; ms++) {
            stepAt(t, clock, ms);
        }
        assertEquals(2, runs.get(), "and never again at their deadlines");
        assertEquals(0, OwnerLoop.of(t).wheel().size());
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void aCustomTimerNotYetScheduledCannotBeRescheduled() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        CountingCustomTimer c = new CountingCustomTimer(t, runs);
        assertFalse(c.reschedule(100, MILLISECONDS), "nothing to move before schedule");
        c.start(10);
        stepAt(t, clock, 10);
        assertEquals(1, runs.get(), "at its own deadline, not at the refused reschedule's");
    }

    @Test
    void aCancelWhileMovingWinsAndTheTimerLeavesTheWheel() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(50, MILLISECONDS));
        assertTrue(f.cancelIfNotStarted(), "MOVING is pending: the strict cancel wins");
        assertFalse(f.reschedule(60, MILLISECONDS));
        OwnerLoop.of(t).step();
        stepAt(t, clock, 100);
        assertEquals(0, runs.get());
        assertEquals(0, OwnerLoop.of(t).wheel().size());
        assertEquals(0, t.metrics().pending());
        assertEquals(1, t.metrics().cancelled());
    }

    @Test
    void shutdownNowHandsBackAMovingTimer() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        TimerFuture<?> f = t.schedule(() -> { }, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        assertTrue(f.reschedule(50, MILLISECONDS));
        List<Runnable> back = t.shutdownNow();
        assertEquals(List.of(f), back);
        assertFalse(f.reschedule(5, MILLISECONDS));
        assertEquals(0, t.metrics().pending());
    }

    @Test
    void afterShutdownATimerKeepsItsTime() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        AtomicInteger runs = new AtomicInteger();
        TimerFuture<?> f = t.schedule(runs::incrementAndGet, 10, MILLISECONDS);
        OwnerLoop.of(t).step();
        t.shutdown();
        assertFalse(f.reschedule(50, MILLISECONDS), "shut down: no moves");
        stepAt(t, clock, 10);
        assertEquals(1, runs.get());
    }

    @Test
    void badInputIsRejectedNamingTheValueAndTheRule() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = manual(clock);
        TimerFuture<?> f = t.schedule(() -> { }, 10, MILLISECONDS);
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> f.reschedule(Integer.MAX_VALUE + 1L, MILLISECONDS));
        assertTrue(far.getMessage().contains("2147483648 MILLISECONDS") && far.getMessage().contains("2^31 - 1"),
                far.getMessage());
        assertThrows(NullPointerException.class, () -> f.reschedule(1, null));
        TimerFuture<?> p = t.scheduleAtFixedRate(() -> { }, 1, 1, SECONDS);
        UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class,
                () -> p.reschedule(5, SECONDS));
        assertTrue(u.getMessage().contains("periodic"), u.getMessage());
        assertTrue(f.reschedule(Integer.MAX_VALUE, MILLISECONDS), "the longest move is accepted");
    }

    @Test
    void withTheRealClockAndPoolARescheduledTimerIsNeverEarly() throws Exception {
        try (WheelTimer timer = WheelTimer.create()) {
            int n = 200;
            CountDownLatch done = new CountDownLatch(n);
            List<String> early = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                AtomicLong notBefore = new AtomicLong();
                TimerFuture<?> f = timer.schedule(() -> {
                    if (System.nanoTime() < notBefore.get()) {
                        synchronized (early) {
                            early.add("early by " + (notBefore.get() - System.nanoTime()) + " ns");
                        }
                    }
                    done.countDown();
                }, 1, TimeUnit.MILLISECONDS);
                long delay = 2 + i % 5;
                long before = System.nanoTime(); // the new deadline is at least this + delay
                if (f.reschedule(delay, MILLISECONDS)) {
                    notBefore.set(before + MILLISECONDS.toNanos(delay)); // else it ran at its old time: allowed
                }
            }
            assertTrue(done.await(30, SECONDS));
            assertTrue(early.isEmpty(), early.toString());
        }
    }
}
