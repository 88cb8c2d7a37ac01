package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The own pool's one-CAS claim of a timer it took from its queue (DISPATCHED &rarr; RUNNING, the thread stored
 * first; {@code ScheduledTimer.claimIntoRun}), step by step on one thread. The races are jcstress's
 * ({@code CancelInterruptVsPoolRunStart}, {@code CancelAndAwaitVsPoolRunStart}, and the broken twin that stores the
 * thread after the CAS).
 */
class PoolRunClaimTest {

    /** A due-now timer running {@code task}, taken from its own pool's queue as a worker takes it (DISPATCHED). */
    private static ScheduledTimer<?> takenFromOwnPool(Runnable task) {
        WheelTimer timer = WheelTimer.builder().timeSource(new ManualTimeSource()).tick(1, TimeUnit.MILLISECONDS)
                .manualDrive().workerThreads(1).build();
        timer.pool().detachedWorker(); // the pool's one worker: the submit's signal starts no thread
        timer.schedule(task, 0, TimeUnit.MILLISECONDS);
        ScheduledTimer<?> t = (ScheduledTimer<?>) timer.pool().queue.poll();
        assertEquals(TimerState.DISPATCHED, t.phase());
        assertTrue(timer.poolQueuesHandOffs);
        return t;
    }

    @Test
    void theRunningTaskSeesItsOwnThreadPublishedAndTheEndClearsIt() throws Exception {
        AtomicReference<ScheduledTimer<?>> self = new AtomicReference<>();
        AtomicReference<Object> seen = new AtomicReference<>();
        AtomicReference<Integer> phase = new AtomicReference<>();
        ScheduledTimer<?> t = takenFromOwnPool(() -> {
            seen.set(self.get().runnerThread());
            phase.set(self.get().phase());
        });
        self.set(t);
        t.runHandedOff();
        assertSame(Thread.currentThread(), seen.get(), "cancel(true) would find the runner's thread");
        assertEquals(TimerState.RUNNING, phase.get());
        assertTrue(t.isDone());
        assertNull(t.get(), "a Runnable's result");
        assertNull(t.runnerThread(), "the outcome replaced the thread");
    }

    @Test
    void aRunThatLostToACancelFromDispatchedNeverStartsAndLeavesNoThreadBehind() throws Exception {
        boolean[] ran = new boolean[1];
        ScheduledTimer<?> t = takenFromOwnPool(() -> ran[0] = true);
        assertTrue(t.cancel(true));
        assertFalse(t.runHandedOff());
        assertFalse(ran[0]);
        assertTrue(t.isCancelled());
        assertNull(t.runnerThread());
        assertFalse(t.runInProgress(), "a cancelAndAwait would not wait for a run that never started");
        assertFalse(Thread.currentThread().isInterrupted());
        assertThrows(CancellationException.class, t::get);
    }

    @Test
    void aClaimWhoseCasLosesToACancelAfterItsReadClearsTheThreadItStored() throws Exception {
        boolean[] ran = new boolean[1];
        ScheduledTimer<?> t = takenFromOwnPool(() -> ran[0] = true);
        long w = t.word(); // the worker read DISPATCHED ...
        Object task = t.task();
        assertTrue(t.cancel(false)); // ... then a cancel won and nulled the field ...
        assertNull(t.task());
        assertFalse(t.claimIntoRun(w, task, false)); // ... and the worker stored its thread, then lost its CAS
        assertFalse(ran[0]);
        assertNull(t.runnerThread(), "the worker cleared the thread it stored");
        assertFalse(t.runInProgress(), "a cancelAndAwait would wait for good on a thread left behind");
        assertFalse(t.cancelAndAwait(1, TimeUnit.SECONDS), "already cancelled; returns without waiting");
    }

    @Test
    void aClaimThatLosesToAnythingButACancelSaysSoInsteadOfPassingForACancel() throws Exception {
        boolean[] ran = new boolean[1];
        ScheduledTimer<?> t = takenFromOwnPool(() -> ran[0] = true);
        long w = t.word();
        Object task = t.task();
        // No such race exists (the queue hands a timer to one taker): if one did, the early store would be unsafe.
        assertTrue(t.fail(new IllegalStateException("failed meanwhile")));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.claimIntoRun(w, task, false));
        assertTrue(e.getMessage().contains("phase " + TimerState.FAILED), e.getMessage());
        assertFalse(ran[0]);
        assertTrue(t.isDone() && !t.isCancelled(), "still failed, not passed off as cancelled by the lost claim");
    }

    @Test
    void cancelTrueFromInsideTheTaskInterruptsItsRunnerAndTheInterruptEndsWithTheRun() {
        AtomicReference<ScheduledTimer<?>> self = new AtomicReference<>();
        boolean[] interrupted = new boolean[1];
        ScheduledTimer<?> t = takenFromOwnPool(() -> {
            assertTrue(self.get().cancel(true));
            interrupted[0] = Thread.currentThread().isInterrupted();
        });
        self.set(t);
        assertFalse(t.runHandedOff());
        assertTrue(interrupted[0], "cancel(true) found the runner's thread (stored before the claim's CAS)");
        assertFalse(Thread.interrupted(), "the run cleared the interrupt before it returned");
        assertTrue(t.isCancelled());
        assertNull(t.runnerThread());
    }
}
