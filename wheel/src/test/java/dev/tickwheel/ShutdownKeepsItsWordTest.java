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
 * Issue 21: {@code shutdown()} keeps its word. A periodic timer whose run is in progress reads not done until that
 * run returns, then cancelled, on every kind of dispatch, and termination waits for that run; a reschedule racing a
 * shutdown loses nothing. Each window is staged deterministically on a manual clock: a reschedule paused between its
 * CAS to MOVING and its move command is the test's own CAS on the state word, and the command, offered later, is
 * {@link CommandPort#offerMove}. Every test here but the two that pin what already held (a linked MOVING timer is
 * handed back; close() from a periodic run does not wait for itself) and the limit's failed on the code before.
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

    /**
     * A periodic run in progress on the user's executor when shutdown() returns: not done until it returns, then
     * cancelled with no further run; the owner may exit meanwhile, but the timer is not terminated and
     * awaitTermination does not return until that run has. It used to read cancelled while running, and the timer
     * terminated around the run.
     */
    @Test
    void aPeriodicRunOnTheUsersExecutorKeepsItsFutureNotDoneAndTerminationWaiting() throws Exception {
        List<Runnable> handedOut = new ArrayList<>();
        WheelTimer w = WheelTimer.builder().timeSource(now::get).tick(1, MILLISECONDS).manualDrive()
                .executor(handedOut::add).build();
        OwnerLoop loop = OwnerLoop.of(w);
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = w.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            inRun.countDown();
            ScheduledExecutorContractTest.awaitInTask(release);
        }, 1, 1, MILLISECONDS);
        stepTo(loop, 0, 1);
        assertEquals(1, handedOut.size());
        Thread worker = new Thread(handedOut.get(0));
        worker.start();
        try {
            assertTrue(inRun.await(30, SECONDS));
            w.shutdown();
            assertFalse(f.isDone(), "done while its run is in progress: " + f);
            stepTo(loop, 2, 5); // the owner finds nothing left and exits
            assertFalse(w.isTerminated(), "terminated while a periodic run is in progress");
            assertFalse(w.awaitTermination(20, MILLISECONDS));
            assertFalse(f.isDone());
        } finally {
            release.countDown();
        }
        worker.join(30_000);
        assertTrue(w.awaitTermination(30, SECONDS));
        assertTrue(w.isTerminated());
        assertTrue(f.isCancelled());
        stepTo(loop, 6, 10);
        assertEquals(1, handedOut.size(), "handed out again after shutdown");
        assertEquals(1, runs.get());
        assertEquals(0, w.metrics().pending());
    }

    /** The same on the owner thread (runTasksOnOwnerThread): shutdown() from another thread during the run. */
    @Test
    void aPeriodicRunOnTheOwnerThreadKeepsItsFutureNotDone() throws Exception {
        WheelTimer w = WheelTimer.builder().tick(1, MILLISECONDS).runTasksOnOwnerThread().build();
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = w.scheduleWithFixedDelay(() -> {
            runs.incrementAndGet();
            inRun.countDown();
            ScheduledExecutorContractTest.awaitInTask(release);
        }, 0, 1, MILLISECONDS);
        try {
            assertTrue(inRun.await(30, SECONDS));
            w.shutdown();
            assertFalse(f.isDone(), "done while its run is in progress: " + f);
            assertFalse(w.awaitTermination(20, MILLISECONDS));
        } finally {
            release.countDown();
        }
        assertTrue(w.awaitTermination(30, SECONDS));
        assertTrue(f.isCancelled());
        assertEquals(1, runs.get());
    }

    /** close() from inside a periodic run on the user's executor does not wait for that run (it would never end). */
    @Test
    void closeFromAPeriodicRunOnTheUsersExecutorDoesNotWaitForItself() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            WheelTimer w = WheelTimer.builder().tick(1, MILLISECONDS).executor(pool).build();
            CountDownLatch closed = new CountDownLatch(1);
            ScheduledFuture<?> f = w.scheduleAtFixedRate(() -> {
                w.close();
                closed.countDown();
            }, 0, 1, MILLISECONDS);
            assertTrue(closed.await(30, SECONDS), "close() from the run waited for itself");
            assertTrue(w.awaitTermination(30, SECONDS));
            assertTrue(f.isCancelled());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * shutdownNow() after shutdown() still interrupts a periodic run in progress on the timer's own pool and hands
     * back exactly the timers not started (not the running one); the run then ends the timer cancelled, and
     * awaitTermination returns once it has.
     */
    @Test
    void shutdownNowAfterShutdownInterruptsTheRunningPeriodicAndDoesNotHandItBack() throws Exception {
        WheelTimer w = WheelTimer.builder().tick(1, MILLISECONDS).workerThreads(2).build();
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ScheduledFuture<?> f = w.scheduleAtFixedRate(() -> {
            inRun.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        }, 0, 1, MILLISECONDS);
        ScheduledFuture<?> later = w.schedule(() -> { }, 1, java.util.concurrent.TimeUnit.HOURS);
        assertTrue(inRun.await(30, SECONDS));
        w.shutdown();
        assertFalse(f.isDone(), "done while its run is in progress");
        List<Runnable> back = w.shutdownNow();
        assertEquals(List.of(later), back, "handed back: exactly the timers not started");
        assertTrue(interrupted.await(30, SECONDS), "the run in progress was not interrupted");
        assertTrue(w.awaitTermination(30, SECONDS));
        assertTrue(f.isCancelled());
        assertEquals(0, w.metrics().pending());
    }

    /**
     * A third reader's finding: close() from inside a periodic run on a user executor, after shutdown() marked that
     * run and a cancel took the timer out of the timer's registry, waited for itself (termination waits for the
     * marked run, which only this thread can end). It must return, as close() from a timer thread does.
     */
    @Test
    void closeFromAMarkedRunCancelledMeanwhileDoesNotWaitForItself() throws Exception {
        java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newSingleThreadExecutor();
        WheelTimer timer = WheelTimer.builder().executor(executor).build();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch marked = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<ScheduledFuture<?>> self =
                new java.util.concurrent.atomic.AtomicReference<>();
        try {
            self.set(timer.scheduleAtFixedRate(() -> {
                running.countDown();
                ScheduledExecutorContractTest.awaitUninterruptibly(marked);
                self.get().cancel(false); // out of the registry, still running, still marked
                timer.close(); // from inside the run: must not wait for itself
                closed.countDown();
            }, 0, 1, java.util.concurrent.TimeUnit.HOURS));
            assertTrue(running.await(30, SECONDS), "the periodic run started");
            timer.shutdown(); // marks the run in progress
            marked.countDown();
            assertTrue(closed.await(30, SECONDS), "close() from the marked, cancelled run returned");
            assertTrue(timer.awaitTermination(30, SECONDS));
        } finally {
            marked.countDown();
            executor.shutdownNow();
        }
    }

    /** A third reader's finding: termination, once seen, stays seen, though a later shutdown() takes a hold. */
    @Test
    void terminationOnceSeenStaysSeenAcrossALaterShutdown() throws Exception {
        WheelTimer timer = WheelTimer.create();
        timer.schedule(() -> { }, 1, MILLISECONDS).get(30, SECONDS);
        timer.shutdown();
        assertTrue(timer.awaitTermination(30, SECONDS));
        assertTrue(timer.isTerminated());
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread shutter = new Thread(() -> {
            while (!stop.get()) {
                timer.shutdown(); // each call takes and gives back a hold of its own
            }
        }, "repeated-shutdown");
        shutter.start();
        int falses = 0;
        try {
            for (int i = 0; i < 200_000; i++) {
                if (!timer.isTerminated()) {
                    falses++;
                }
            }
        } finally {
            stop.set(true);
            shutter.join(30_000);
        }
        assertEquals(0, falses, "isTerminated() read false after termination, while shutdown() ran beside it");
        timer.close();
        assertTrue(timer.isTerminated());
    }
}
