package dev.tickwheel;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link WorkerPool}'s owner's side: what the holder of the owner's step token ({@link OwnerPark}) does to the
 * pool. It builds each step's chain of due timers (in batches, then pushed as one chain: {@link #add},
 * {@link #pushStep}), and, on the owner thread only, it is the pool's watchdog ({@link #watch}): it adds a worker past the pool's awake cap when the
 * queue stalls behind blocked or slow tasks. The workers' side, the producers' push and the pool's lifecycle are
 * {@link WorkerPool}'s.
 *
 * <h2>Threading</h2>
 * Only the step token's holder calls it: the owner thread, or a standby worker stepping for it (which builds and
 * pushes a chain but never runs the watchdog). The token's CAS and release store order its plain fields between the
 * two. What it reads of the pool's shared state goes through the pool's accessors, the queue's and, for the
 * watchdog's signal, {@link IdleWorkers#signal()} (their orderings are documented there), and the watchdog reads each
 * started worker's {@code state} (volatile) and {@code thread} (plain, published through the pool's volatile count
 * of started workers).
 *
 * <h2>Layout</h2>
 * The chain is written once per due timer, so its fields live apart from the pool's shared fields (the spinner flag,
 * the idle stack and the awake count, in {@link IdleWorkers}; the standby slot), which every worker reads on each
 * take and every producer on each push: on the same cache line, each of those reads would miss on a line the owner
 * had just written. Padded on both sides, as JCTools pads its indexes, so that no neighbouring object shares the line
 * either ({@code PoolOwnerSideLayoutTest}).
 *
 * <h2>Costs (the README's cost model counts them)</h2>
 * A step's hand-off of k due timers: k plain reference stores into its batches (16 to a line; a lone due timer is
 * pushed itself), then one getAndSet of the queue's tail and one release store for the whole chain; when its recycled
 * batches run out, one getAndSet of the queue's free list. The watchdog: once a step, an opaque load of the queue's
 * count of nodes handed out, a volatile load of its held hint, and, while the hint is set (a batch was taken since its
 * last look, or its last look found one with timers left), a volatile load of each worker's slot and of each held
 * batch's claim word and two stores of the hint; never a spin on them. Once the queue has stalled (nothing handed out
 * for {@link #STALL_NANOS} with work waiting), each look also reads every started worker's state and run count and
 * asks the JVM for the state of each one inside a task: O(workers) at a stall, nothing per step before it.
 */
final class PoolOwnerSide extends PoolOwnerSideFields {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q10, q11, q12, q13, q14, q15, q16, q17;

    /**
     * How long the queue may hand nothing out, with work queued, before the watchdog wakes one more worker past the
     * pool's awake cap (a task that blocks, or runs long, while timers wait behind it).
     */
    static final long STALL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * How long the queue may hand nothing out before the watchdog adds a worker although an awake one will come back
     * by itself: one between tasks (taking, spinning, or woken and not yet running: on a machine with few cores such a
     * worker often waits longer than {@link #STALL_NANOS} for a CPU, and one more thread would only wait beside it),
     * or one whose runnable task the watchdog's looks have not yet seen last a whole stall. A worker seen inside the
     * same runnable task at looks a stall or more apart does not count (see {@link #anyAwakeComing}): a CPU-bound task
     * holds its worker as a blocked one does. Nor, then, does a worker that only waited for a CPU inside a short task
     * for that long: the watchdog cannot tell the two apart, and one more worker is what the timers behind either
     * need (measured beside two busy processes: a parked worker woken by the owner starts within 0.1-0.2 ms at p99).
     */
    static final long RUNNABLE_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * Batches kept for reuse: enough for {@code 1,024 x 64} timers handed off and not yet taken (about 300 KB, made
     * only as a burst needs them: a timer whose pool keeps up holds one or two); a burst with more in flight makes
     * the others as garbage, one per 64 timers, rather than keep them for good.
     */
    static final int POOLED_BATCHES = 1024;

    PoolOwnerSide(WorkerPool pool) {
        super(pool);
    }

    // ---- the step's chain ----

    /**
     * Adds a due timer (DISPATCHED) to this step's batch (plain stores); a full batch joins the step's chain, and
     * {@link #pushStep} hands the chain off.
     */
    void add(ScheduledTimer<?> t) {
        count++;
        HandOffBatch b = filling;
        if (b == null) {
            b = freshBatch();
            if (b == null) {
                chain(t); // no memory for a batch: the timer joins the chain itself (its state is DISPATCHED)
                return;
            }
            filling = b;
        }
        b.items[b.count++] = t;
        if (b.count == HandOffBatch.CAPACITY) {
            chain(b);
            filling = null;
        }
    }

    /**
     * An empty batch, recycled if one came back, else a new one (pooled while fewer than the bound); null if the heap
     * has no room for one. The timer being added is DISPATCHED already, and only the pool's queue can end it now: it
     * must reach the queue, batch or not, or it would never run nor be handed back.
     */
    private HandOffBatch freshBatch() {
        HandOffBatch b = spare;
        if (b == null) {
            b = queue.takeFreeBatches();
        }
        if (b != null) {
            spare = b.freeNext;
            b.freeNext = null;
            return b;
        }
        boolean keep = pooledBatches < POOLED_BATCHES;
        HandOffBatch fresh;
        try {
            fresh = new HandOffBatch(keep);
        } catch (OutOfMemoryError e) {
            return null;
        }
        if (keep) {
            pooledBatches++;
        }
        return fresh;
    }

    private void chain(TimingWheel.Node n) {
        if (first == null) {
            first = n;
        } else {
            last.next = n;
        }
        last = n;
    }

    /**
     * After a step's hand-offs: pushes the step's whole chain to the pool's queue (one getAndSet, one release store).
     * A lone due timer (an isolated fire, the latency path) is pushed itself, as a task due now is, and its batch
     * stays for the next step; so does an empty batch (a step that dispatched nothing).
     *
     * @return how many timers were pushed (0: none, nothing was pushed)
     */
    int pushStep() {
        HandOffBatch b = filling;
        if (b != null && b.count > 0) {
            if (first == null && b.count == 1) {
                chain(b.items[0]);
                b.items[0] = null;
                b.count = 0;
            } else {
                chain(b);
                filling = null;
            }
        }
        TimingWheel.Node head = first;
        if (head == null) {
            return 0;
        }
        TimingWheel.Node tail = last;
        int pushed = count;
        first = null;
        last = null;
        count = 0;
        queue.pushChain(head, tail);
        return pushed;
    }

    // ---- the watchdog (owner thread only) ----

    /**
     * Once a step: if work has waited (queued, or left in a batch a worker holds) with nothing handed out for
     * {@link #STALL_NANOS} while no awake worker will come back by itself (each blocked in its task, or seen inside
     * one runnable task for a whole stall), or for {@link #RUNNABLE_STALL_NANOS} in any case, wake or start one more
     * worker, past the cap: it takes what is queued or steals what is held. Reads the queue's count of nodes handed
     * out ({@link HandOffQueue#taken()}) once a step, and, only while the queue's hint says a batch is held, each
     * worker's slot and its batch's claim word; once the queue has stalled, each started worker's state (see
     * {@link #anyAwakeComing}). Never spins on any of them.
     *
     * @return whether work is waiting (the owner then parks at most {@link #STALL_NANOS}, to look again)
     */
    boolean watch(long nowNanos) {
        WorkerPool p = pool;
        boolean queued = !queue.isEmpty();
        long progress = 0;
        int held = 0;
        if (queue.heldHint()) {
            queue.clearHeldHint(); // before the look: a batch armed after it sets the hint again
            int n = p.startedWorkers();
            for (int id = 0; id <= n; id++) {
                BatchHolder h = id == 0 ? queue.loose : p.worker(id);
                HandOffBatch b = h == null ? null : h.held;
                if (b != null) {
                    long c = b.claim;
                    int left = HandOffBatch.left(c);
                    if (left > 0) {
                        held += left;
                        progress += c;
                    }
                }
            }
            if (held > 0) {
                queue.setHeldHint(); // still held: look again next step
            }
        }
        if (!queued && held == 0) {
            watchedTaken = -1;
            return false;
        }
        if (!p.canAddWorker()) {
            watchedTaken = -1;
            return false; // every worker is awake already: nothing to add; they come back to the work themselves
        }
        progress += queue.taken();
        if (progress != watchedTaken) {
            watchedTaken = progress;
            watchedSinceNanos = nowNanos;
        } else {
            long stalled = nowNanos - watchedSinceNanos;
            if (stalled >= RUNNABLE_STALL_NANOS || (stalled >= STALL_NANOS && !anyAwakeComing(nowNanos))) {
                watchedSinceNanos = nowNanos;
                stalls.increment();
                p.idleWorkers.signal();
            }
        }
        return true;
    }

    /**
     * Whether an awake worker will come back to the queue by itself: one between tasks (taking, spinning, or woken
     * and not yet running), or one in a runnable task (only waiting for a CPU, or a task that has not yet run long)
     * that the watchdog's looks have not seen last a whole stall. Then only a longer stall adds a worker. One blocked
     * in its task (waiting, parked, sleeping) does not count, nor one that the watchdog's looks found inside the same
     * runnable task ({@link WorkerPool.Worker#taskSeqHint}, odd and unchanged) {@link #STALL_NANOS} or more apart: a
     * CPU-bound task of seconds holds its worker as a blocked one does, and the timers queued behind it get another
     * worker within about two stalls, not {@link #RUNNABLE_STALL_NANOS}. Every awake worker is looked at (no early
     * answer), so that each runnable task's first sighting is noted: from the stall on, each of the owner's steps
     * reads every started worker's state (and the run count and thread state of those in a task) until the queue
     * moves or a worker is added. Owner only, and only when the queue has stalled.
     */
    private boolean anyAwakeComing(long nowNanos) {
        WorkerPool p = pool;
        int n = p.startedWorkers();
        boolean coming = false;
        for (int id = 1; id <= n; id++) {
            WorkerPool.Worker w = p.worker(id);
            if (w == null || w.state != WorkerPool.ACTIVE || w.thread == null) {
                continue; // parked, standing by, exited, or a test's detached worker (blocked, as far as we know)
            }
            int seq = w.taskSeqHint();
            if ((seq & 1) == 0) {
                coming = true; // between tasks
            } else if (w.thread.getState() == Thread.State.RUNNABLE && !inOneTaskForAStall(id, seq, nowNanos)) {
                coming = true;
            }
        }
        return coming;
    }

    /**
     * Whether the watchdog saw worker {@code id} inside the task {@code seq} (odd) a stall or more ago; if this is
     * the first look at that task, notes it and answers false.
     */
    private boolean inOneTaskForAStall(int id, int seq, long nowNanos) {
        if (seenTask == null) {
            try {
                // Once per pool, at its first stall behind a runnable task (the pool's workers array does not exist
                // yet when this object is made).
                seenTaskNanos = new long[pool.size() + 1];
                seenTask = new int[pool.size() + 1];
            } catch (OutOfMemoryError e) {
                return false; // no room to remember sightings: the worker counts as coming back, as before the rule
            }
        }
        if (seenTask[id] == seq) {
            return nowNanos - seenTaskNanos[id] >= STALL_NANOS;
        }
        seenTask[id] = seq;
        seenTaskNanos[id] = nowNanos;
        return false;
    }
}

/** The owner's fields, between the two paddings. */
abstract class PoolOwnerSideFields extends PoolOwnerSidePad {
    /** The pool. Final. */
    final WorkerPool pool;
    /** The pool's queue, which the owner's side pushes to and takes its recycled batches from. Final. */
    final HandOffQueue queue;
    /** Times the watchdog found the queue stalled and signalled past the cap (metrics; added by the owner only). */
    final LongAdder stalls = new LongAdder();
    /**
     * The current step's chain, linked through {@code next}: full batches, then (at the push) the last, partial one
     * or a lone timer, and any timer chained itself when no batch could be allocated; and its number of timers in all.
     */
    TimingWheel.Node first;
    TimingWheel.Node last;
    int count;
    /** The batch being filled, not yet in the chain (null: none). */
    HandOffBatch filling;
    /** Recycled batches taken back from the queue's free list, through {@code freeNext}. */
    HandOffBatch spare;
    /** Batches made to be pooled (at most {@link PoolOwnerSide#POOLED_BATCHES}). */
    int pooledBatches;
    /**
     * The watchdog's last look: the queue's count of nodes handed out plus the claim words of the batches held with
     * timers left (a sum that moves with every claim), and when it saw it change.
     */
    long watchedTaken = -1;
    long watchedSinceNanos;
    /**
     * The watchdog's sightings of runnable tasks (owner only): per worker id, the task ({@code taskSeq}, odd) it
     * first saw and when. Null until the first stall behind a runnable task.
     */
    int[] seenTask;
    long[] seenTaskNanos;

    PoolOwnerSideFields(WorkerPool pool) {
        this.pool = pool;
        // The pool makes its queue before its owner's side (field order): a reordering fails here, not later.
        this.queue = java.util.Objects.requireNonNull(pool.queue, "the pool's queue, made before its owner's side");
    }
}

abstract class PoolOwnerSidePad {
    /**
     * Fills the 4 bytes after a compressed object header: left empty, the JVM packs a subclass's int or reference
     * there (it put {@code count} there), before the padding, next to whatever object precedes this one.
     */
    int gap;
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
