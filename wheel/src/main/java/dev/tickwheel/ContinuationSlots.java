package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Each worker's continuation slot: where work due now submitted from one of the pool's own tasks waits for the
 * worker that submitted it, instead of going through the pool's queue to another thread. A chain of async steps
 * ({@code CompletableFuture.thenApplyAsync} on the timer) then stays on one worker, as on the JDK's pool when its
 * other workers are parked: no wake-up, no shared line, and no idle spinner taking each step from the thread about
 * to run it (measured before this: a chain of 1,000 steps changed thread 110 to 229 times in its slow JVMs).
 *
 * <h2>The slot</h2>
 * One reference per worker ({@code WorkerFields.next}), null when empty. Only its worker fills it, from
 * {@link WorkerPool#submitNow} inside one of the pool's tasks, when the slot is empty, the pool's queue is empty and
 * no worker holds a batch with timers left (the queue's held hint): if work waits, the continuation goes behind it,
 * so that {@code execute}'s FIFO order holds for a single worker and timers due before it run before it. A second
 * submit from the same task is a fan-out, not a chain: the first is moved from the slot to the queue, and the second
 * pushed behind it with its signal (the worker that takes the first recruits one for the second, as after any take
 * that leaves work queued). A fill wakes
 * nobody. Each of four takers empties it with one CAS from the timer to null, so exactly one of them has it:
 * <ul>
 *   <li>its worker, after the task that filled it returns, before it looks at the queue: it runs it;</li>
 *   <li>the owner's watchdog ({@link #watch}), when the worker was seen inside the same task (its run count odd and
 *       unchanged) at looks {@link PoolOwnerSide#STALL_NANOS} apart: the submitter is blocked or busy, perhaps
 *       waiting for this very timer; it pushes the timer to the queue and wakes a worker, uncapped;</li>
 *   <li>{@code get()} on the timer from its own worker ({@link #beforeAwait}): it is moved to the queue with an
 *       uncapped wake-up before the caller blocks, as the JDK's pool gives such a task an idle thread at once;</li>
 *   <li>shutdownNow's hand-back and the owner's failure ({@link #handBack}), and a worker that dies of an Error with
 *       its slot full ({@link #exit}), which pushes it to the queue.</li>
 * </ul>
 * A move to the queue is announced as a steal from a held batch is ({@link HandOffQueue#announceSteal}): it reads
 * {@code stop} after the announcement, and the hand-back sets {@code stop}, waits for announced moves to end, and only
 * then looks at the slots and drains the queue: a timer moved out of a slot is in the queue by the time the drain
 * looks, or was never moved.
 *
 * <h2>The watchdog must look while a slot is full</h2>
 * A filled slot has no wake-up of its own, so the owner must look within a stall. The filler stores the timer
 * (volatile), reads {@link #hint} and sets it if clear (a write only when clear: at most one per watchdog look), then
 * reads the owner's plan (the nudge, {@code CommandPort.nudgeForWatch}: it wakes the owner only if the plan sleeps
 * past a stall). The watchdog clears the hint, then reads the slots (volatile), and sets it again if one was full;
 * the owner publishes its plan and then reads the hint ({@link WorkerPool#backlogToWatch}). Either the filler's read
 * of the hint came before the clear (then the watchdog's look after the clear sees the slot full), or the hint the
 * filler read or wrote is still set when the owner reads it after its plan (the owner then looks again within a
 * stall), or the nudge read the plan and woke the owner (jcstress: SlotFillVsOwnerPark). While fills keep coming, the
 * owner wakes once a stall to look; when they stop, one look finds the hint clear and the owner parks as before.
 *
 * <h2>Costs (the README's cost model counts them)</h2>
 * A continuation: on its worker's own line, one volatile store (the fill) and one CAS (the take); volatile loads of
 * the queue's head, tail and held hint, of the slots' hint (set: a line written once a stall at most) and of the
 * owner's plan; no atomic on a line shared with other workers, no wake-up.
 *
 * <h2>What a user can tell</h2>
 * A task that submits one task and then waits for it other than through its future's {@code get()} (a latch, a
 * {@code CompletableFuture}'s {@code join()}, a {@code FutureTask} of {@code invokeAll}), or keeps computing, holds
 * it in its slot until the watchdog's second look: 100 to 200 µs, or up to two ticks with a coarse tick, where the
 * JDK's pool would give it an idle thread at once (one wake-up, itself some 50 µs on a small machine). Nothing
 * waits for ever that the JDK's pool would run; and a chain of async steps, the common case, runs without a thread
 * change. The watchdog, while the hint is set: a volatile load of each worker's slot, and of the
 * run count of each whose slot is full; a move is an announcement, a CAS, the queue's push and one signal.
 */
final class ContinuationSlots extends ContinuationSlotsFields {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q10, q11, q12, q13, q14, q15, q16, q17;

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(WorkerPool.WorkerFields.class, "next", ScheduledTimer.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    ContinuationSlots(WorkerPool pool) {
        super(pool);
    }

    // ---- the worker's side ----

    /**
     * Worker {@code w}, inside a task: keeps {@code t} (DISPATCHED) for itself if its slot is empty, the pool's queue
     * is empty and no worker holds a batch with timers left, and has the watchdog look (the hint, then the owner's
     * plan). If the slot holds an earlier submit of the same task, that one is moved to the queue first (a fan-out).
     *
     * @return whether the timer is in the slot (false: the caller pushes it to the queue, with its signal)
     */
    boolean fill(WorkerPool.Worker w, ScheduledTimer<?> t) {
        if ((w.taskSeq & 1) == 0) {
            return false;
        }
        ScheduledTimer<?> earlier = w.next; // plain: only this worker makes it non-null
        if (earlier != null) {
            // A second submit from the same task: a fan-out, not a chain. The first goes to the queue ahead of this
            // one, so that both get a worker and start in the order they were submitted. (If the watchdog moved it
            // already, it is queued ahead anyway; if shutdownNow has begun, its hand-back takes it from the slot.)
            moveToQueue(w, earlier);
            return false;
        }
        HandOffQueue queue = pool.queue;
        if (w.left > 0 || !queue.isEmpty() || queue.heldHint()) {
            // Work waits (queued, or left in a batch a worker holds, perhaps blocked): the continuation goes behind
            // it, and the push's signal gets that work a worker now, as it did before slots.
            return false;
        }
        NEXT.setVolatile(w, t); // volatile: the store-load pair with the watchdog's clear of the hint, then its look
        if (!hint) {
            hint = true;
        }
        pool.nudgeOwnerForSlot();
        return true;
    }

    /**
     * Worker {@code w}, after its task: takes what its slot holds (one CAS: a steal or the hand-back may take it
     * first).
     *
     * @return the continuation to run next, or null
     */
    ScheduledTimer<?> take(WorkerPool.Worker w) {
        ScheduledTimer<?> t = w.next; // plain: only this worker makes it non-null
        return t != null && NEXT.compareAndSet(w, t, null) ? t : null;
    }

    /**
     * {@code get()} on {@code t}, not yet done, about to block: if it waits in the caller's own slot, moves it to the
     * queue and wakes a worker, uncapped (the caller may block until it runs).
     */
    void beforeAwait(WorkerPool.Worker caller, ScheduledTimer<?> t) {
        if (caller.next == t && moveToQueue(caller, t)) {
            pool.wakeForMoved();
        }
    }

    /**
     * A worker leaving its loop (shutdown, or an Error escaped it): a continuation still in its slot goes to the
     * queue, for another worker or the hand-back.
     */
    void exit(WorkerPool.Worker w) {
        ScheduledTimer<?> t = w.next;
        if (t != null && moveToQueue(w, t)) {
            pool.wakeForMoved();
        }
    }

    /**
     * Takes {@code t} out of {@code w}'s slot and pushes it to the pool's queue, announced (see the class comment);
     * nothing once shutdownNow has begun (its hand-back takes the slot).
     *
     * @return whether this call moved it
     */
    private boolean moveToQueue(WorkerPool.Worker w, ScheduledTimer<?> t) {
        HandOffQueue queue = pool.queue;
        queue.announceSteal();
        try {
            // After the announcement (an atomic), the looks at stop and at the owner's failure: shutdownNow sets stop,
            // and a failing owner stores its failure, before their claim of the slots waits for announced moves;
            // either this sees the flag and leaves the timer in the slot for that claim, or the claim waits for this
            // push and the drain after it finds the timer queued.
            if (pool.stopping() || t.timer().ownerFailure() != null || !NEXT.compareAndSet(w, t, null)) {
                return false;
            }
            queue.push(t);
            return true;
        } finally {
            queue.endSteal();
        }
    }

    // ---- the owner's watchdog ----

    /**
     * Owner, once a step, while the hint is set: clears it, then looks at each worker's slot. A continuation
     * whose worker was inside the same task at a look a stall or more before is moved to the queue (its submitter is
     * blocked, or busy for long), with an uncapped wake-up. The hint is set again while any slot is full.
     *
     * @return whether the hint was set (fills come in streams: the owner looks again within a stall)
     */
    boolean watch(long nowNanos) {
        if (!hint) {
            return false;
        }
        hint = false; // before the look: a fill after it sets the hint again
        WorkerPool p = pool;
        // A worker's first task may fill its slot while its starter is still inside the thread's start, before the
        // count of started workers is published: while a start is in progress the hint stays set, so the owner looks
        // again. Read before the count (the starter publishes the count, then clears the flag): a clear flag means
        // every worker started so far is counted, and its slot in the array is published with the count.
        boolean full = p.startingWorker();
        for (int id = 1, n = p.startedWorkers(); id <= n; id++) {
            WorkerPool.Worker w = p.worker(id);
            ScheduledTimer<?> t = w == null ? null : (ScheduledTimer<?>) NEXT.getVolatile(w);
            if (t == null) {
                continue;
            }
            int seq = w.taskSeqHint();
            if (stalledSince(id, seq, nowNanos) && moveToQueue(w, t)) {
                moved.increment();
                p.wakeForMoved();
            } else {
                full = true;
            }
        }
        if (full) {
            hint = true;
        }
        return true;
    }

    /**
     * Whether the watchdog saw worker {@code id} inside the task {@code seq} (odd) a stall or more ago, by the
     * watchdogs' clock ({@code nowNanos}: {@code OwnerLoop.watchNanos}, which follows real time while a custom clock
     * stands still, so that a frozen clock does not hold a task's continuation until it moves). Notes the first
     * sighting of a task. A worker between tasks (even) takes its slot by itself.
     */
    private boolean stalledSince(int id, int seq, long nowNanos) {
        if ((seq & 1) == 0) {
            return false;
        }
        if (seenTask == null) {
            try {
                seenTask = new int[pool.size() + 1];
                seenNanos = new long[pool.size() + 1];
            } catch (OutOfMemoryError e) {
                return true; // no room to remember sightings: move it now (the queue is the safe way)
            }
        }
        if (seenTask[id] == seq) {
            return nowNanos - seenNanos[id] >= PoolOwnerSide.STALL_NANOS;
        }
        seenTask[id] = seq;
        seenNanos[id] = nowNanos;
        return false;
    }

    /** @return whether a slot may be full: the owner then keeps looking (a volatile load) */
    boolean hint() {
        return hint;
    }

    /** @return continuations the watchdog moved out of a stalled worker's slot (metrics, tests) */
    long moved() {
        return moved.sum();
    }

    // ---- shutdownNow and the owner's failure ----

    /**
     * Claims every continuation still in a slot. For shutdownNow, {@code stop} is set before: this waits for moves
     * announced before it (their timers are queued, for the drain after this), and no move starts after.
     */
    void handBack(Consumer<ScheduledTimer<?>> claim) {
        pool.queue.awaitSteals();
        for (int i = 0, n = pool.size(); i < n; i++) {
            WorkerPool.Worker w = pool.slot(i); // every slot: a worker may fill before started is published
            ScheduledTimer<?> t = w == null ? null : (ScheduledTimer<?>) NEXT.getVolatile(w);
            if (t != null && NEXT.compareAndSet(w, t, null)) {
                claim.accept(t);
            }
        }
    }

    // ---- jcstress seams: the real steps, and the broken ones their twins use ----

    /** The watchdog's or get()'s move of what {@code w}'s slot holds (announced). @return whether it moved one */
    boolean move(WorkerPool.Worker w) {
        ScheduledTimer<?> t = w.next;
        return t != null && moveToQueue(w, t);
    }

    /** BROKEN (jcstress twins only): the move without its announcement or its look at {@code stop}. */
    boolean moveUnannounced(WorkerPool.Worker w) {
        ScheduledTimer<?> t = (ScheduledTimer<?>) NEXT.getVolatile(w);
        if (t == null || !NEXT.compareAndSet(w, t, null)) {
            return false;
        }
        pool.queue.push(t);
        return true;
    }

    /** BROKEN (jcstress twins only): the worker's take as a plain read and a plain write, no CAS. */
    ScheduledTimer<?> takeUnclaimed(WorkerPool.Worker w) {
        ScheduledTimer<?> t = w.next;
        w.next = null;
        return t;
    }

    /** BROKEN (jcstress twins only): a fill that neither sets the hint nor is a volatile store; it still nudges. */
    void fillWithoutHint(WorkerPool.Worker w, ScheduledTimer<?> t) {
        NEXT.setRelease(w, t);
        pool.nudgeOwnerForSlot();
    }

    /**
     * BROKEN (jcstress twins only): the fill with its hint and nudge, but the hint read before the slot is stored:
     * a hint still set lets the watchdog's clear and look come between the two and miss the slot. (A release store
     * in the right order, which the hardware may let the read pass, is the same bug in the memory model's terms;
     * on x86 jcstress did not catch it in 28 configurations, so this twin shows the order.)
     */
    void fillHintFirst(WorkerPool.Worker w, ScheduledTimer<?> t) {
        if (!hint) {
            hint = true;
        }
        NEXT.setVolatile(w, t);
        pool.nudgeOwnerForSlot();
    }
}

/** The slots' shared fields, between two paddings (the hint is read on every fill). */
abstract class ContinuationSlotsFields extends ContinuationSlotsPad {
    /** The pool. Final. */
    final WorkerPool pool;
    /**
     * A slot may be full: set (volatile, only if clear) by a filler after its fill, cleared by the owner's watchdog
     * before its look at the slots and set again if the look found one full; read by the owner after it publishes its
     * plan ({@code WorkerPool.backlogToWatch}). See the class comment.
     */
    volatile boolean hint;
    /** Continuations the watchdog moved (added by the owner only). */
    final LongAdder moved = new LongAdder();
    /** The watchdog's sightings (owner only): per worker id, the task (odd run count) it saw with a full slot, and when. */
    int[] seenTask;
    long[] seenNanos;

    ContinuationSlotsFields(WorkerPool pool) {
        this.pool = pool;
    }
}

abstract class ContinuationSlotsPad {
    int gap;
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
