package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link WorkerPool}'s idle workers: the one spinner, the Treiber stack of parked workers, the count of awake
 * workers and its cap, and both halves of the wake-up handshake between a worker that parks and a thread that signals
 * after a push. The workers' take-and-run loop, the producers' push, a worker's start and the lifecycle are
 * {@link WorkerPool}'s; the standby for the next due timer is {@link StandbySlot}'s, which moves the awake count
 * ({@link #addAwake}) in the same order the idle stack does.
 *
 * <h2>Threading</h2>
 * A worker calls {@link #spin}, {@link #park}, {@link #announcePark} and {@link #pushIdle} for itself only (it
 * writes its own {@code state} PARKED and its {@code idleNext} before its push; the waker that pops it writes its
 * {@code state} ACTIVE).
 * {@link #signal} and {@link #wakeOne} run on any thread: the owner after its step's push, a producer of work due
 * now, a worker that recruits, the owner's watchdog, and shutdown's wake-all. The shared fields are the spinner flag,
 * the idle stack's top and the awake count; each says at its declaration who writes it and how. The pool's queue and
 * shutdown flag are read, and its worker start called, through the pool's accessors, and the standby slot through its
 * own methods; their orderings are documented there.
 *
 * <h2>Idle workers cost nothing; at most one spins</h2>
 * A worker that finds the queue empty may become the one <em>spinner</em> ({@link #spinning}, by CAS) and watch
 * the queue for {@link #spinRounds} rounds; every other idle worker parks at once, on a Treiber stack of parked
 * workers ({@link #idle}). So no idle thread polls a line that others write per hand-off, except that one spinner,
 * briefly. How briefly adapts: a spin that saw work lets the next one spin up to {@link #MAX_SPINS} rounds (a few
 * microseconds: hand-offs are coming back to back, as in a burst or a chain of tasks), one that saw nothing halves
 * the next, down to {@link #MIN_SPINS}; so an isolated fire, after which no work comes, costs a few dozen rounds
 * of spinning, not thousands.
 * A producer, after its push, wakes nobody if a worker is spinning (the spinner will see the push), else pops one
 * parked worker and unparks it, else starts one more worker if the pool is not full (all started workers are busy).
 * For the owner's batches, for work due now submitted from outside the pool, and for a worker that takes a timer and
 * sees more queued, the same holds only while fewer than {@link #awakeCap} workers are awake (max(1, CPUs - 1)):
 * past the cores, each runnable worker only takes CPU from the owner. Past the cap, the owner's watchdog
 * ({@link PoolOwnerSide#watch}) adds a worker when the queue stalls behind blocked tasks, or behind tasks it sees
 * running through a whole stall (CPU-bound ones); a capped push from outside the owner, and a take that leaves work
 * queued past the cap, nudge the owner for it (a wake-up only if the owner is parked longer than the watchdog's
 * stall). Work due now submitted from one of the pool's own tasks is not capped: as the JDK's pool does, it wakes an
 * idle worker whenever none is spinning, so a task that waits for one it submitted finds it run at once.
 *
 * <h2>The wake-up handshake</h2>
 * A parking worker marks itself PARKED, pushes itself on the idle stack (an atomic), then looks at the queue
 * ({@link HandOffQueue#isEmpty}: volatile loads) and the shutdown flag; if it sees work it wakes one parked worker
 * (possibly itself) before it parks. A producer swaps the queue's tail (an atomic), then loads {@link #spinning} and
 * {@link #idle}. Both sides write, then read what the other writes, all sequentially consistent: either the worker
 * sees the push, or the producer sees the worker on the stack (or a spinner, which clears {@code spinning} before it
 * parks in the same way). jcstress: HandOffVsPark, HandOffVsSpinnerPark.
 *
 * <h2>Layout</h2>
 * The spinner flag, the idle stack and the awake count are written at each spin, park and wake-up and read by every
 * push, and the JVM may place any object next to this one (the timer makes its owner's loop right after its pool):
 * they are padded on both sides, as {@link PoolOwnerSide} is, so that no neighbouring object shares their line
 * ({@code PoolOwnerSideLayoutTest}).
 */
final class IdleWorkers extends IdleWorkersFields {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q10, q11, q12, q13, q14, q15, q16, q17;

    /** The most rounds a spinner watches an empty queue before it parks: a few microseconds. */
    static final int MAX_SPINS = 1 << 10;
    /** The fewest: what a spin shrinks to after spins that saw nothing (isolated fires). */
    static final int MIN_SPINS = 1 << 4;

    private static final VarHandle SPINNING;
    private static final VarHandle IDLE;
    private static final VarHandle AWAKE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SPINNING = lookup.findVarHandle(IdleWorkersFields.class, "spinning", int.class);
            IDLE = lookup.findVarHandle(IdleWorkersFields.class, "idle", long.class);
            AWAKE = lookup.findVarHandle(IdleWorkersFields.class, "awake", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @param pool     the pool, whose standby slot is made already
     * @param workers  the pool's worker slots
     * @param awakeCap see {@link #awakeCap}; at least 1
     */
    IdleWorkers(WorkerPool pool, WorkerPool.Worker[] workers, int awakeCap) {
        super(pool, workers, awakeCap);
    }

    // ---- producers and wakers ----

    /** {@link #signal(int)} with no cap but the pool's size. */
    boolean signal() {
        return signal(Integer.MAX_VALUE);
    }

    /**
     * After a push (by a producer) or a take that left work queued (by a worker): unless a worker is spinning, or
     * {@code cap} workers are awake already, wake a parked one (from the idle stack, else the standby); if none is
     * parked and the pool is not full, start one (every started worker is busy). Once the standby's tick has come
     * ({@link StandbySlot#due}), a new worker is started before the standby is taken: the standby is then waiting for
     * a CPU.
     *
     * @return whether a worker is spinning, was woken or was started by this call (false: the cap held it back, the
     *         pool is full and every worker awake, another thread was starting a worker, or the start failed; the
     *         caller then has the owner's watchdog look, as the other thread's worker may take other work first)
     */
    boolean signal(int cap) {
        if (spinning != 0) {
            return true;
        }
        if (cap != Integer.MAX_VALUE && awake >= cap) {
            return false;
        }
        if (standbySlot.due()) {
            // The standby's tick has come and it is still in the slot: a standby that runs leaves the slot at its
            // tick, so its timed wake-up is waiting for a CPU (behind a busy process, a JIT compile, a collector).
            // A parked worker, or a new one, is woken instead: its wake-up can take a CPU that is free now (often
            // this thread's, as the owner parks after its push), where the standby's waits behind whatever holds
            // its own. The standby stays in the slot and steps, or finds nothing due, when it gets its CPU. Only if
            // no other worker can be had is the standby taken out for the work.
            if (wakeOne()) {
                pool.countWakeup();
                return true;
            }
            if (pool.startedWorkers() < workers.length && pool.tryStartWorker()) {
                return true;
            }
            if (standbySlot.wake()) {
                pool.countWakeup();
                return true;
            }
            return false;
        }
        if (wakeOne() || standbySlot.wake()) {
            pool.countWakeup(); // counted here only: not a parker waking itself, nor shutdown's wake-all
            return true;
        }
        return pool.startedWorkers() < workers.length && pool.tryStartWorker();
    }

    /**
     * Any thread: pops one parked worker, marks it ACTIVE and unparks it.
     *
     * @return whether one was woken (false: no worker is parked)
     */
    boolean wakeOne() {
        for (;;) {
            long top = idle;
            int id = (int) top;
            if (id == 0) {
                return false;
            }
            WorkerPool.Worker w = workers[id - 1];
            long below = (top & 0xFFFF_FFFF_0000_0000L) | w.idleNext;
            if (IDLE.compareAndSet(this, top, below)) {
                AWAKE.getAndAdd(this, 1);
                w.state = WorkerPool.ACTIVE;
                LockSupport.unpark(w.thread);
                return true;
            }
        }
    }

    // ---- a worker going idle ----

    /**
     * Becomes the spinner if nobody is, and watches the queue for {@link #spinRounds} rounds; then sets the next
     * spin's length: the most if this one saw work, else half of this one (at least {@link #MIN_SPINS}).
     *
     * @return whether it saw work (or shutdown) and should look again; false if it did not spin or saw nothing
     */
    boolean spin() {
        if (spinning != 0 || !SPINNING.compareAndSet(this, 0, 1)) {
            return false;
        }
        int rounds = spinRounds;
        boolean saw = false;
        try {
            for (int i = 0; i < rounds; i++) {
                if (pool.workOrShutdown()) {
                    saw = true;
                    return true;
                }
                Thread.onSpinWait();
            }
            return false;
        } finally {
            spinRounds = saw ? MAX_SPINS : Math.max(MIN_SPINS, rounds >>> 1);
            spinning = 0; // before the park's announcement: see the handshake in the class comment
        }
    }

    /**
     * Parks until a waker pops this worker off the idle stack. The park's blocker is the pool, as for the standby's
     * park.
     */
    void park(WorkerPool.Worker w) {
        if (!announcePark(w)) {
            return;
        }
        boolean interrupted = false;
        while (w.state == WorkerPool.PARKED) {
            LockSupport.park(pool);
            if (Thread.interrupted()) {
                interrupted = true; // a stray interrupt must not spin this loop; a stop one is kept
            }
        }
        if (interrupted && pool.stopping()) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The worker's half of the handshake: PARKED, onto the idle stack, then a look at the queue and the shutdown
     * flag; if it sees either, it wakes one parked worker (the top: itself, or one that will look in its place).
     * Package-private so that the jcstress tests can race it against a push and {@link #signal()}.
     *
     * @return whether it may park (false: it was woken already)
     */
    boolean announcePark(WorkerPool.Worker w) {
        pushIdle(w);
        if (pool.workOrShutdown()) {
            wakeOne();
        } else {
            pool.nudgeForHeld();
        }
        return w.state == WorkerPool.PARKED;
    }

    /** PARKED, then onto the idle stack (a CAS that counts pushes, against ABA). */
    void pushIdle(WorkerPool.Worker w) {
        w.state = WorkerPool.PARKED;
        AWAKE.getAndAdd(this, -1); // before the push: a waker's pop adds it back after
        for (;;) {
            long top = idle;
            w.idleNext = (int) top;
            if (IDLE.compareAndSet(this, top, ((top >>> 32) + 1) << 32 | w.id)) {
                return;
            }
        }
    }

    // ---- for the pool and its standby slot ----

    /**
     * Adds to the awake count: a worker starts, exits, or takes or leaves the standby slot (the idle stack's push and
     * pop do their own).
     */
    void addAwake(int delta) {
        AWAKE.getAndAdd(this, delta);
    }

    /** @return whether a worker spins now: it takes the standby slot when its spin ends, if no work came */
    boolean spinnerComing() {
        return spinning != 0;
    }

    /** @return whether a worker is on the idle stack (a hint for the watchdog; jcstress arbiters) */
    boolean anyParked() {
        return (int) idle != 0;
    }

    // ---- test seams ----

    /** @return the rounds the next spinner will watch the queue (tests; read by the test's thread after the spins) */
    int spinRounds() {
        return spinRounds;
    }

    /**
     * jcstress only ({@code BrokenHandOffVsParkBehindBatch}): the second look at the queue only, not at the batches
     * workers hold, as before the batch-owning take. Never called by the library.
     */
    boolean announceParkLookingAtQueueOnly(WorkerPool.Worker w) {
        pushIdle(w);
        if (pool.workOrShutdown()) {
            wakeOne();
        }
        return w.state == WorkerPool.PARKED;
    }

    /**
     * jcstress only ({@code BrokenHandOffVsCappedPark}): a park announcement that takes itself off the awake count
     * only after its second look, to show why {@link #pushIdle} counts first. Never called by the library.
     */
    boolean announceParkCountingLate(WorkerPool.Worker w) {
        w.state = WorkerPool.PARKED;
        for (;;) {
            long top = idle;
            w.idleNext = (int) top;
            if (IDLE.compareAndSet(this, top, ((top >>> 32) + 1) << 32 | w.id)) {
                break;
            }
        }
        boolean work = pool.workOrShutdown();
        AWAKE.getAndAdd(this, -1);
        if (work) {
            wakeOne();
        }
        return w.state == WorkerPool.PARKED;
    }

    /** Makes the calling test actor the spinner (jcstress: the spinner's own park). */
    void becomeSpinner() {
        spinning = 1;
    }

    /** Ends the calling test actor's spin, as {@link #spin()} does before {@link #park} (jcstress). */
    void stopSpinning() {
        spinning = 0;
    }

    /** @return the awake count (jcstress arbiters) */
    int awakeWorkers() {
        return awake;
    }

    /**
     * jcstress only ({@code BrokenHandOffVsStalledStandby}): {@link #signal()} as it was before session 29, taking a
     * standby whose tick has come before the idle stack, to show the outcome its test forbids. Never called by the
     * library.
     */
    boolean signalTakingADueStandbyFirst() {
        if (spinning != 0) {
            return true;
        }
        return (standbySlot.due() && standbySlot.wake()) || wakeOne() || standbySlot.wake();
    }
}

/** The idle workers' fields, between the two paddings. */
abstract class IdleWorkersFields extends IdleWorkersPad {
    /**
     * The pool: its queue and shutdown flag (the spin's look and the second look), its worker start and count of started
     * workers, its stop flag, its count of wake-ups and its nudge for held batches. Final.
     */
    final WorkerPool pool;
    /**
     * The pool's worker slots: the idle stack names a worker by its slot + 1. Final; a slot is published as the pool
     * documents ({@code WorkerPool.workers}): a popped id's slot was written before that worker's thread started,
     * and its push's CAS came after.
     */
    final WorkerPool.Worker[] workers;
    /**
     * The pool's standby, which a waker takes when no worker is parked; once its tick has come (it is then waiting for
     * a CPU), only when no worker is parked and none can be started. Final.
     */
    final StandbySlot standbySlot;
    /**
     * Awake workers the pool grows to by itself for the owner's batches and a worker's recruiting: max(1, CPUs - 1),
     * leaving a core to the owner, since each runnable worker past the cores only takes CPU from the owner and the
     * others. Past it, a worker is woken only by a task due now (as the JDK's pool would), or by the owner's watchdog
     * when the queue stalls behind blocked or slow tasks. Final.
     */
    final int awakeCap;
    /** 1 while a worker is the spinner. cas 0 -&gt; 1 by the worker that becomes it, sv 0 by it; lv by producers. */
    volatile int spinning;
    /**
     * Rounds the next spinner watches the queue ({@link IdleWorkers#MIN_SPINS} to {@link IdleWorkers#MAX_SPINS}): set
     * to the most by a spin that saw work, halved by one that saw nothing. Plain: read and written only by the
     * spinner, between its CAS of {@link #spinning} (which acquires what the spinner before it wrote) and its store of
     * 0 there (which releases).
     */
    int spinRounds = IdleWorkers.MAX_SPINS;
    /**
     * Workers started and not on the idle stack: running a task, taking, spinning, or blocked in a task. getAndAdd
     * on each start, park and wake (never per timer); lv by the owner's batch signal and by a recruiting worker.
     * A hint, not part of any handshake: a stale read only wakes one worker too many or leaves the work to the
     * watchdog.
     */
    volatile int awake;
    /**
     * The idle stack's top: (push count &lt;&lt; 32) | (worker index + 1), 0 when empty. cas by a parking worker
     * (push, counting pushes against ABA) and by wakers (pop); lv by producers.
     */
    volatile long idle;

    IdleWorkersFields(WorkerPool pool, WorkerPool.Worker[] workers, int awakeCap) {
        this.pool = pool;
        this.workers = workers;
        // The pool makes its standby slot before this (its field, then its constructor): a reordering fails here.
        this.standbySlot = java.util.Objects.requireNonNull(pool.standbySlot, "the pool's standby slot, made first");
        this.awakeCap = awakeCap;
    }
}

abstract class IdleWorkersPad {
    /**
     * Fills the 4 bytes after a compressed object header: left empty, the JVM packs a subclass's int or reference
     * there, before the padding, next to whatever object precedes this one.
     */
    int gap;
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
