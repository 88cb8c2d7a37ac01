package dev.tickwheel;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The interleavings second and third readers found in the deferred reschedule, each staged deterministically on a
 * manual clock (the readers' probes, tidied). Each failed on the code before its fix.
 */
class RescheduleReviewFindingsTest {

    /**
     * Two real moves of one timer take it as due twice (the first in a park plan's drain, the second after a
     * reschedule whose clock reading was older than the owner's step, so its key was earlier than the one the first
     * move linked). A deferral landing before the due entries are handed out made the first relink the timer at
     * its new key, and the second hand it off at once: 50 ms early. A due entry is never linked, so the owner now
     * skips an entry whose timer is.
     */
    @Test
    void aSecondDueEntryOfATimerLinkedSinceIsNotHandedOff() {
        AtomicLong now = new AtomicLong(0);
        List<Runnable> handedOff = new ArrayList<>();
        TimerFuture<?>[] target = new TimerFuture<?>[1];
        AtomicBoolean deferred = new AtomicBoolean();
        AtomicLong ranAt = new AtomicLong(-1);
        WheelTimer w = WheelTimer.builder().timeSource(now::get).tick(1, MILLISECONDS).manualDrive()
                .executor(r -> {
                    if (r != target[0] && !deferred.get()) {
                        // another thread's reschedule, landing between the drain and the target's due entries
                        deferred.set(target[0].reschedule(50, MILLISECONDS));
                    }
                    handedOff.add(r);
                }).build();
        OwnerLoop loop = OwnerLoop.of(w);
        TimerFuture<?> t = w.schedule(() -> ranAt.set(now.get()), 10, SECONDS);
        target[0] = t;
        loop.step();
        now.set(MILLISECONDS.toNanos(96));
        loop.step(); // the wheel's earliest key is 97
        w.schedule(() -> { }, 0, MILLISECONDS); // due at 96: taken as due first, at the next drain
        assertTrue(t.reschedule(0, MILLISECONDS)); // 96, earlier than 10 s: a move command
        assertEquals(CommandPort.AWAKE, loop.ownerPark.planPark()); // its drain: due = [other, t]
        now.set(MILLISECONDS.toNanos(90)); // a rescheduler that read its clock at 90 ms
        assertTrue(t.reschedule(0, MILLISECONDS)); // 90, earlier than the linked 96: a second move command
        now.set(MILLISECONDS.toNanos(96));
        loop.step(); // due = [other, t, t]; handing out the other defers t to 146 ms
        assertTrue(deferred.get());
        for (Runnable r : new ArrayList<>(handedOff)) {
            r.run();
        }
        handedOff.clear();
        assertEquals(-1, ranAt.get(), "not before the newest reschedule's deadline, 146 ms");
        for (long ms = 97; ms <= 146; ms++) {
            now.set(MILLISECONDS.toNanos(ms));
            loop.step();
            handedOff.forEach(Runnable::run);
            handedOff.clear();
        }
        assertEquals(MILLISECONDS.toNanos(146), ranAt.get());
    }

    /**
     * A stale move command still in the start queue (left by the drain's batch limit) names a timer the owner has
     * already handed to the user's executor. shutdownNow's collection claimed it from the queue and handed it back,
     * though the executor still held it and ran it: run and handed back. Only the pool's own hand-back may take a
     * handed-off timer back.
     */
    @Test
    void shutdownNowDoesNotHandBackATimerAlreadyGivenToTheUsersExecutor() {
        ManualTimeSource clock = new ManualTimeSource(0);
        List<Runnable> handedOff = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        WheelTimer w = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive().ownerBatch(1)
                .executor(handedOff::add).build();
        OwnerLoop loop = OwnerLoop.of(w);
        clock.advanceTo(0, MILLISECONDS.toNanos(5));
        loop.step(); // the wheel's earliest key is 6
        TimerFuture<?> t = w.schedule(runs::incrementAndGet, 10, SECONDS); // start command
        assertTrue(t.reschedule(0, MILLISECONDS)); // MOVING: a move command behind the start
        loop.step(); // batch 1: the start only, which moves it, takes it as due and hands it off
        assertEquals(1, handedOff.size());
        List<Runnable> back = w.shutdownNow(); // finds the stale move command in the queue
        assertEquals(List.of(), back, "the executor holds it: not handed back");
        handedOff.get(0).run(); // the executor runs what it was given
        assertEquals(1, runs.get());
        assertTrue(t.isDone());
    }

    /**
     * A deferred timer whose old key the owner reaches more than 2^30 ticks after the new key (a process stopped
     * for 20 minutes, at the default 1 µs tick) resolved the new key around the clock and landed 2^32 ticks (71.6
     * minutes) late, where a timer never rescheduled runs at once. A deferral's key now resolves around the key
     * the timer is linked at.
     */
    @Test
    void aDeferredTimerReachedLongAfterItsNewDeadlineRunsAtOnce() {
        ManualTimeSource clock = new ManualTimeSource(0);
        AtomicLong ranA = new AtomicLong(-1);
        AtomicLong ranB = new AtomicLong(-1);
        WheelTimer w = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run).build();
        TimerFuture<?> a = w.schedule(() -> ranA.set(clock.nanoTime()), 1, SECONDS);
        w.schedule(() -> ranB.set(clock.nanoTime()), 2, SECONDS);
        OwnerLoop.of(w).step();
        assertTrue(a.reschedule(2, SECONDS)); // deferred
        assertEquals(2, a.getDelay(SECONDS));
        long late = SECONDS.toNanos(2) + MINUTES.toNanos(20);
        clock.advanceTo(0, late); // the process was stopped for 20 minutes
        OwnerLoop.of(w).step();
        OwnerLoop.of(w).step();
        assertEquals(late, ranB.get(), "the timer never rescheduled runs at once");
        assertEquals(late, ranA.get(), "and so does the deferred one");
    }

    /**
     * A third reader's finding against the fix above: a deferral made long after the key the timer is linked at
     * (a thread rescheduling before the owner has caught up after a stopped process) resolved around that key
     * wrapped into the past and ran at once, early. A deferral more than 2^31 ticks past the linked key now goes
     * as a move command.
     */
    @Test
    void aDeferralMadeLongAfterTheLinkedKeyIsNeverEarly() {
        for (long[] stopAndDelayMinutes : new long[][] {{60, 0}, {20, 34}}) {
            ManualTimeSource clock = new ManualTimeSource(0);
            AtomicLong ran = new AtomicLong(-1);
            WheelTimer w = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run).build();
            TimerFuture<?> a = w.schedule(() -> ran.set(clock.nanoTime()), 1, SECONDS);
            OwnerLoop.of(w).step();
            long resume = MINUTES.toNanos(stopAndDelayMinutes[0]);
            clock.advanceTo(0, resume); // stopped; a thread reschedules before the owner steps
            long delay = stopAndDelayMinutes[1] == 0 ? SECONDS.toNanos(30) : MINUTES.toNanos(stopAndDelayMinutes[1]);
            assertTrue(a.reschedule(delay, java.util.concurrent.TimeUnit.NANOSECONDS));
            assertEquals(delay, a.getDelay(java.util.concurrent.TimeUnit.NANOSECONDS), "getDelay right after");
            OwnerLoop.of(w).step();
            assertEquals(-1, ran.get(), "not before the new deadline");
            clock.advanceTo(0, resume + delay);
            OwnerLoop.of(w).step();
            OwnerLoop.of(w).step(); // a cascade, then the run
            assertEquals(resume + delay, ran.get(), "at the new deadline");
        }
    }

    /**
     * A CustomTimer whose schedule was rejected (maxPending) stayed NEW: a reschedule then linked it and it ran,
     * and its pending place (never reserved) was released. A rejected custom timer is now ended (cancelled).
     */
    @Test
    void aRejectedCustomTimerNeverRunsAndCountsNothing() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer w = WheelTimer.builder().timeSource(clock).manualDrive().executor(Runnable::run).maxPending(1)
                .build();
        w.schedule(() -> { }, 1, MINUTES);
        AtomicInteger runs = new AtomicInteger();
        CountingCustomTimer c = new CountingCustomTimer(w, runs);
        assertThrows(java.util.concurrent.RejectedExecutionException.class, () -> c.start(10_000));
        assertFalse(c.reschedule(0, MILLISECONDS), "rejected: nothing to move");
        assertFalse(c.cancel(false), "rejected: already ended");
        OwnerLoop.of(w).step();
        OwnerLoop.of(w).step();
        assertEquals(0, runs.get());
        assertEquals(1, w.metrics().pending(), "the one accepted timer");
    }
}
