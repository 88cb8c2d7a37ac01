package dev.tickwheel;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A second reader's findings in the drop-in and split changes (d8d64f7..7c431c5), each pinned by a test that
 * failed before its fix: hand-offs to a new worker out of shutdownNow's and the failure path's reach, a handed-back
 * periodic ended again by a racing shutdown(), a rejected periodic registered for shutdown, a periodic keeping its
 * last worker thread, an owner failure during a periodic run ending it cancelled, and an owner start failure that
 * reached nobody.
 */
class SecondReaderFindingsTest {

    /** A factory whose threads wait at a gate before running what the pool gave them (a worker not yet running). */
    private static ThreadFactory gated(CountDownLatch gate) {
        return r -> new Thread(() -> {
            for (;;) {
                try {
                    gate.await();
                    break;
                } catch (InterruptedException e) {
                    // keep waiting
                }
            }
            r.run();
        });
    }

    /**
     * Finding A. Workers start on demand, so the pool's first hand-offs go to a new worker as its first task, not
     * into the pool's queue. The pool's shutdownNow() returns only its queue: a timer handed to a worker that has
     * not yet started it is neither handed back nor stopped, and the timer runs it after shutdownNow() returned.
     */
    @Test
    void shutdownNowHandsBackATimerGivenToAWorkerThatHasNotStartedIt() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().threadFactory(gated(gate))
                .workerThreads(1).build();
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledFuture<?> f = timer.schedule(() -> ran.set(true), 0, MILLISECONDS);
        OwnerLoop.of(timer).step(); // hands f to the pool, which creates its first worker with f as first task

        List<Runnable> back = timer.shutdownNow();
        gate.countDown();
        assertTrue(timer.awaitTermination(30, SECONDS));

        assertEquals(List.of(f), back, "the timer had not started: shutdownNow() must hand it back");
        assertFalse(ran.get(), "the timer ran after shutdownNow() returned without handing it back");
    }

    /** Finding A, owner-failure side: the same first-task hand-off is not failed and runs after the failure. */
    @Test
    void ownerFailureFailsATimerGivenToAWorkerThatHasNotStartedIt() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().threadFactory(gated(gate))
                .workerThreads(1).build();
        AtomicBoolean ran = new AtomicBoolean();
        ScheduledFuture<?> f = timer.schedule(() -> ran.set(true), 0, MILLISECONDS);
        OwnerLoop.of(timer).step();

        OwnerLoop.of(timer).fail(new Error("injected owner failure"));
        gate.countDown();
        assertTrue(timer.awaitTermination(30, SECONDS));

        assertThrows(ExecutionException.class, () -> f.get(0, SECONDS), "a hand-off the pool had not started");
        assertFalse(ran.get(), "the task ran after the owner failed");
    }

    /**
     * Finding B. endByShutdown ignores HANDED_BACK: a concurrent shutdown() whose registry iterator had already
     * fetched the periodic (ConcurrentHashMap iterators read one element ahead) ends the run the shutdownNow()
     * caller is making of its handed-back timer, and releases the timer's pending count a second time.
     * Steps: (1) S: shutdown() stores SHUTDOWN, reads SHUTDOWN, its iterator fetches p; (2) N: shutdownNow() stores
     * STOP, stopNow claims p (RETURNED|HANDED_BACK), removes it from the registry, releaseEnded; (3) N runs p:
     * CLAIMED, RUNNING; (4) S: endByShutdown(p) RUNNING -> CANCELLED, releaseEnded again. Simulated here by
     * putting p back in the registry (what S's iterator still holds) and running shutdown()'s end from the task.
     */
    @Test
    void shutdownsEndOfPeriodicTimersSkipsOneHandedBackToShutdownNow() {
        ManualTimeSource clock = new ManualTimeSource();
        List<Runnable> handedOff = new ArrayList<>();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(handedOff::add).build();
        AtomicReference<PeriodicTimer> self = new AtomicReference<>();
        AtomicInteger endedFrom = new AtomicInteger(Integer.MIN_VALUE);
        self.set((PeriodicTimer) timer.scheduleAtFixedRate(() -> {
            timer.periodics.add(self.get()); // what shutdown()'s iterator fetched before stopNow removed it
            endedFrom.set(self.get().endByShutdown(timer.termination)); // shutdown()'s end, as endPeriodicTimers calls it
        }, 1, 1, HOURS));
        OwnerLoop.of(timer).step();
        List<Runnable> back = timer.shutdownNow();
        assertEquals(List.of(self.get()), back);
        assertEquals(0, timer.metrics().pending(), "precondition");

        back.get(0).run(); // the caller of shutdownNow runs what it got back

        assertEquals(-1, endedFrom.get(), "endByShutdown must answer -1 for a timer handed back by shutdownNow");
    }

    /** Finding B, the accounting it causes: pending reads -1 once shutdown()'s end counts the handed-back timer. */
    @Test
    void shutdownsEndOfPeriodicTimersDoesNotCountAHandedBackTimerAgain() {
        ManualTimeSource clock = new ManualTimeSource();
        List<Runnable> handedOff = new ArrayList<>();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(handedOff::add).build();
        AtomicReference<PeriodicTimer> self = new AtomicReference<>();
        self.set((PeriodicTimer) timer.scheduleAtFixedRate(() -> {
            timer.periodics.add(self.get());
            timer.endPeriodicTimers(); // the body of shutdown() after its SHUTDOWN read, with p still fetched
        }, 1, 1, HOURS));
        OwnerLoop.of(timer).step();
        List<Runnable> back = timer.shutdownNow();
        back.get(0).run();
        assertEquals(0, timer.metrics().pending(), timer.metrics()::toString);
    }

    /**
     * Finding C. A periodic timer was registered for shutdown() before accept's first runState check and its
     * pending reservation: a schedule then rejected (shut down, or maxPending full) left a registered timer that
     * shutdown() ended and counted although it was never accepted (pending -1). It is now registered inside accept,
     * after its reservation: a rejected periodic schedule is never registered nor counted.
     */
    @Test
    void aRejectedPeriodicScheduleIsNeverRegisteredNorCounted() {
        ManualTimeSource clock = new ManualTimeSource();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().maxPending(1).build();
        timer.schedule(() -> { }, 1, HOURS); // fills the limit
        assertThrows(RejectedExecutionException.class, () -> timer.scheduleAtFixedRate(() -> { }, 1, 1, HOURS));
        assertTrue(timer.periodics.isEmpty(), "a periodic rejected by maxPending was registered");

        timer.shutdown();
        assertThrows(RejectedExecutionException.class, () -> timer.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS));
        assertTrue(timer.periodics.isEmpty(), "a periodic rejected after shutdown was registered");
        assertEquals(1, timer.metrics().pending(), timer.metrics()::toString);
    }

    /**
     * Finding D. A periodic's runner field is left set between runs and cleared only when a run ends it; a timer
     * ended between runs (cancel, the common way a periodic ends) keeps a reference to the last worker thread.
     */
    @Test
    void aPeriodicEndedBetweenRunsForgetsItsLastRunner() throws Exception {
        ManualTimeSource clock = new ManualTimeSource();
        List<Runnable> handedOff = new ArrayList<>();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(handedOff::add).build();
        ScheduledFuture<?> f = timer.scheduleAtFixedRate(() -> { }, 1, 1, MILLISECONDS);
        clock.advance(1, MILLISECONDS);
        OwnerLoop.of(timer).step();
        Thread worker = new Thread(handedOff.remove(0));
        worker.start();
        worker.join();

        assertTrue(f.cancel(false));

        Field runner = PeriodicTimer.class.getDeclaredField("runner");
        runner.setAccessible(true);
        assertNull(runner.get(f), "a cancelled periodic still references its last (dead) worker thread");
    }

    /**
     * Finding E. An owner failure while a fixed-delay run is in progress can end that periodic cancelled instead
     * of failed: the runner read no failure, then the owner fails (failure, then STOP), then the runner moves the
     * timer back to NEW and resubmit's re-read of runState revokes it. Here the failure lands in the runner's
     * read of the clock for the next delay (a user TimeSource), the window between the two.
     */
    @Test
    void aPeriodicRunInProgressWhenTheOwnerFailsEndsFailed() {
        AtomicBoolean failOnNextRead = new AtomicBoolean();
        AtomicReference<WheelTimer> ref = new AtomicReference<>();
        ManualTimeSource base = new ManualTimeSource();
        TimeSource clock = () -> {
            if (failOnNextRead.getAndSet(false)) {
                OwnerLoop.of(ref.get()).fail(new Error("injected owner failure"));
            }
            return base.nanoTime();
        };
        List<Runnable> handedOff = new ArrayList<>();
        WheelTimer timer = WheelTimer.builder().timeSource(clock).manualDrive().executor(handedOff::add).build();
        ref.set(timer);
        ScheduledFuture<?> f = timer.scheduleWithFixedDelay(() -> failOnNextRead.set(true), 1, 1, MILLISECONDS);
        base.advance(1, MILLISECONDS);
        OwnerLoop.of(timer).step();
        handedOff.remove(0).run();

        assertTrue(f.isDone());
        assertFalse(f.isCancelled(), "the owner failed while the run was in progress: the timer must end failed");
    }

    /**
     * Finding F. The owner thread is started by the first schedule; if Thread.start() fails (no native thread),
     * the timer fails every pending future, but the schedule that started it returns normally: execute() drops its
     * task silently and the Error reaches nobody.
     */
    @Test
    void anOwnerThatCannotBeStartedFailsTheScheduleThatStartsIt() {
        ThreadFactory cannotStart = r -> new Thread(r) {
            @Override
            public synchronized void start() {
                throw new OutOfMemoryError("unable to create native thread: injected");
            }
        };
        WheelTimer timer = WheelTimer.builder().threadFactory(cannotStart).executor(Runnable::run).build();
        AtomicBoolean ran = new AtomicBoolean();
        Throwable thrown = null;
        try {
            timer.execute(() -> ran.set(true));
        } catch (Throwable e) {
            thrown = e;
        }
        assertFalse(ran.get());
        assertTrue(timer.isTerminated(), "precondition: the start failure failed the timer");
        assertTrue(thrown != null, "execute() returned normally, yet its task will never run");
    }
}
