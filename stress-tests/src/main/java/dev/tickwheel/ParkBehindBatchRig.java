package dev.tickwheel;

import java.util.ArrayList;
import java.util.List;

/**
 * The state and steps of {@link HandOffVsParkBehindBatch} and {@link BrokenHandOffVsParkBehindBatch}, which differ
 * only in worker B's second look: a batch of three due timers queued, worker A taking it, worker B announcing its
 * park, and a record of the owner nudges (a test's pool has no owner).
 */
final class ParkBehindBatchRig {

    /** Two workers, cap 1: A's recruit is held back (A itself counts as awake); only a nudge reaches the watchdog. */
    private final WorkerPool pool = new WorkerPool(2, r -> {
        throw new AssertionError("no thread is started in this test");
    }, 1);
    /** Worker A, awake, taking the batch. */
    private final WorkerPool.Worker a = pool.detachedWorker();
    /** Worker B, awake until it announces its park. The pool is full: no start. */
    private final WorkerPool.Worker b = pool.detachedWorker();
    private final ScheduledTimer<?>[] timers = {Rigs.handedOff(), Rigs.handedOff(), Rigs.handedOff()};
    /** Written by the actors, read by the arbiter. */
    private TimingWheel.Node tookA;
    private boolean parks;
    /** Set by the pool's owner nudge: the owner would have been woken. */
    private volatile boolean nudged;

    ParkBehindBatchRig() {
        pool.ownerNudge = () -> nudged = true;
        for (ScheduledTimer<?> t : timers) {
            pool.dispatch(t); // the owner's step: three due timers into one batch
        }
        pool.afterBatch(false); // one push of the batch; its capped signal finds both workers awake: wakes nobody
    }

    /** A: the worker loop's take (the batch out whole, its first claimed, then the capped recruit and the nudge). */
    void takeOne() {
        tookA = pool.take(a);
    }

    /** B: the library's park announcement, or (the broken twin) one whose second look reads the queue only. */
    void announcePark(boolean queueOnly) {
        parks = queueOnly ? pool.idleWorkers.announceParkLookingAtQueueOnly(b) : pool.idleWorkers.announcePark(b);
    }

    /**
     * After both: {B parks (1), B's state, the owner nudged (1), 1 if A took the first timer, each timer was claimed
     * exactly once (A's, then what is queued or left in A's batch) and the held hint is set}.
     */
    int[] settle() {
        boolean hint = pool.queue.heldHint();
        List<TimingWheel.Node> left = new ArrayList<>(Rigs.drain(pool.queue));
        for (TimingWheel.Node t; left.size() < 10 && (t = pool.queue.stealOne(a)) != null; ) {
            left.add(t);
        }
        return new int[] {parks ? 1 : 0, b.state, nudged ? 1 : 0,
            hint && Rigs.firstTakenThenEachOnce(timers, tookA, left) ? 1 : 0};
    }
}
