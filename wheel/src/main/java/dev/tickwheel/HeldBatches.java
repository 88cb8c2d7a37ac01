package dev.tickwheel;

import java.util.function.Consumer;

/**
 * The {@link WorkerPool}'s view of the batches its workers hold ({@link BatchHolder}): a worker's steal from another
 * (one look at every worker's slot, then an announced steal), the looks a parking or exiting worker takes at them,
 * and the hand-back's claim of what they have left (shutdownNow, the owner's failure). The batch's own claims and the
 * steal's CAS are {@link HandOffQueue}'s; this class decides whom to steal from and when, and keeps the hand-back from
 * missing a steal in flight.
 *
 * <h2>Threading</h2>
 * Any worker calls {@link #steal}, {@link #anyLeft} and {@link #anyLeftAtExit}; the hand-back runs on the thread of
 * shutdownNow or the owner's failure. What they read of the workers (each slot's {@code held}, volatile; each held
 * batch's claim word, volatile) is written by the holders; the only write here is the steal's announcement, an
 * atomic on the queue's consumer line, once or twice per steal.
 */
final class HeldBatches {

    private final WorkerPool pool;
    private final HandOffQueue queue;

    HeldBatches(WorkerPool pool) {
        this.pool = pool;
        // The pool makes its queue before this (field order): a reordering fails here, not later.
        this.queue = java.util.Objects.requireNonNull(pool.queue, "the pool's queue, made before its held batches");
    }

    /**
     * One look at what the other workers hold, from where this worker's last look stopped: steals from the first with
     * timers left (see {@link #stealFrom}). Never a spin: a worker looks once each time it finds the queue empty, so
     * once per wake-up or run of work, reading each worker's slot once.
     *
     * @return a timer, or null if no worker holds any left (or the pool is stopping: the hand-back takes them)
     */
    TimingWheel.Node steal(WorkerPool.Worker w) {
        int n = pool.startedWorkers();
        if (n <= 1 || pool.stopping()) {
            return null;
        }
        int from = w.nextVictim;
        for (int i = 0; i < n; i++) {
            int v = from + i < n ? from + i : from + i - n;
            WorkerPool.Worker victim = pool.slot(v);
            if (victim == w || victim == null) {
                continue;
            }
            HandOffBatch b = victim.held;
            if (b == null || HandOffBatch.left(b.claim) == 0) {
                continue; // nothing to steal: no announcement, no write
            }
            TimingWheel.Node t = stealFrom(w, victim);
            if (t != null) {
                w.nextVictim = v;
                return t;
            }
        }
        return null;
    }

    /**
     * A steal, announced: the thief counts itself in ({@link HandOffQueue#announceSteal}, an atomic), then reads the
     * pool's {@code stop} ({@link WorkerPool#stopping()}); the hand-back stores {@code stop}, drains the queue, then
     * waits for the count to be 0 before it looks at the holders. Either the thief sees {@code stop} and steals nothing, or the hand-back waits until what
     * the thief stole is published as its batch, and takes what is left of it: a timer a thief has taken out of its
     * victim's range but not yet published is never missed (jcstress: StealVsHandBack; BrokenStealVsHandBack steals
     * without the announcement). An exiting worker waits the same way before its last look.
     *
     * @return the first timer stolen, claimed; null if none
     */
    TimingWheel.Node stealFrom(WorkerPool.Worker thief, WorkerPool.Worker victim) {
        queue.announceSteal();
        try {
            if (pool.stopping()) {
                return null;
            }
            return queue.steal(thief, victim);
        } finally {
            queue.endSteal();
        }
    }

    /**
     * Whether a worker holds a batch with timers left, read only while the queue's held hint is set: a parking or
     * standing-by worker's second look, beside the queue's.
     */
    boolean anyLeft() {
        return queue.heldHint() && anyHolderHasLeft();
    }

    /**
     * An exiting worker's last look, hint or not: whether any worker holds timers left (a steal would take them), false
     * once the pool is stopping (the hand-back has taken them).
     */
    boolean anyLeftAtExit() {
        return !pool.stopping() && anyHolderHasLeft();
    }

    /** Reads each started worker's slot, and the claim word of the batch it holds. */
    private boolean anyHolderHasLeft() {
        int n = pool.startedWorkers();
        for (int i = 0; i < n; i++) {
            WorkerPool.Worker w = pool.slot(i);
            HandOffBatch b = w == null ? null : w.held;
            if (b != null && HandOffBatch.left(b.claim) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Claims every timer queued, then every timer left in a batch a worker (or the loose consumer) holds: each took
     * its batch under the turn, before this drain's last turn, so each slot read after the drain shows it; a thief
     * publishes its half before its announced steal ends, which this waits for ({@link #stealFrom}); a claim or
     * steal since is exact (the batch's CAS), so each timer comes here once or is run once by a worker. For
     * shutdownNow, which sets {@code stop} first, no steal starts after; for the owner's failure, one may, and the
     * timers it takes from a batch this has not reached yet run.
     */
    void handBack(Consumer<ScheduledTimer<?>> claim) {
        BatchHolder mine = new BatchHolder() { };
        for (TimingWheel.Node n; (n = queue.pollWaiting(mine)) != null; ) {
            claim.accept((ScheduledTimer<?>) n);
        }
        queue.awaitSteals(); // a steal announced before stop was set publishes its half before this looks
        handBackHeld(queue.loose, claim);
        for (int i = 0, n = pool.size(); i < n; i++) {
            WorkerPool.Worker w = pool.slot(i); // every slot: a worker may hold a batch before started is published
            if (w != null) {
                handBackHeld(w, claim);
            }
        }
    }

    private void handBackHeld(BatchHolder h, Consumer<ScheduledTimer<?>> claim) {
        for (TimingWheel.Node t; (t = queue.stealOne(h)) != null; ) {
            claim.accept((ScheduledTimer<?>) t);
        }
    }

}
