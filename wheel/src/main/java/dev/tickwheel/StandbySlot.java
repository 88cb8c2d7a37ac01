package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The own pool's standby: one idle worker that parks until the tick of the owner's next due timer, then steps the
 * owner's loop itself and runs that timer, so that a timer firing while the pool is idle waits for one thread's
 * wake-up (as with the JDK's leader thread), not for the owner's and then a worker's in turn.
 *
 * <p>The first worker to go idle while none stands by takes this slot instead of the pool's idle stack
 * ({@link #standBy}). It parks until the tick published by whoever steps the owner's loop as it plans a park
 * ({@link #readyAt}). At that tick it tries the expiry half of the owner's step ({@link Host#standbyStep}: one CAS on
 * the owner's step token ({@link OwnerPark}), only while the owner does not hold it; advance to now, hand off what is
 * due) and then takes the first due timer, with no hand-off wake-up; if the owner stepped first, it is already awake
 * for the owner's push.
 * The costs: the standby's timed wake-up at each due tick (counted in the pool's wake-ups), and an unpark to re-arm
 * it when a plan moves the tick earlier than the one it parked for (also counted); after its step the owner wakes at
 * its backup tick to drain and plan (one wake-up, off the timer's path; sooner only if the next due timer needs it).
 * A waker pops the idle stack first, then takes the standby ({@link #wake}); once the standby's tick has come and it
 * is still in the slot ({@link #due}: a clock read), waiting for a CPU, the waker starts a new worker, if the pool
 * has room, before it takes the standby.
 *
 * <p>The handshakes: with a producer, as the idle stack's (the standby takes the slot, then looks at the queue and
 * the shutdown flag; the producer pushes, then reads the slot); with {@link #readyAt}, a Dekker pair of its own (the
 * standby stores {@link #armedTick}, then re-reads {@link #readyTick}; the publisher stores {@code readyTick}, then
 * reads the slot and {@code armedTick}, and unparks the standby if its tick is earlier). jcstress:
 * HandOffVsStandbyPark, ReadyAtVsStandbyArm, StandbyStepVsOwnerStep.
 *
 * <p>Threads: the worker in the slot (taking, arming, parking, leaving it), wakers (any thread that signals the pool:
 * {@link #due}, {@link #wake}; shutdown's {@code wake}), and the step token's holder ({@link #readyAt}: the owner,
 * or the standby stepping for it). The worker's state word ({@code Worker.state}) and the pool's awake count (kept in
 * {@link IdleWorkers}) are the pool's; this class moves them in the same order the idle stack does.
 */
final class StandbySlot {

    /**
     * How early the standby's timed park aims before its tick: Linux ends a timed park anywhere up to its timer slack
     * (50 µs by default) after the time asked, so the standby asks that much earlier and spins the rest (at most this,
     * per tick it stands by for; usually far less, as the park mostly ends near its slack's end).
     */
    static final long LEAD_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * The nearest tick a worker stands by for at the owner's plan: a timer due sooner (a burst, a tick just after
     * another) is the owner's, so that a standby is not unparked at each of the owner's plans. (After its own step
     * the standby covers the next tick however near: see {@link #readyAt}.)
     */
    static final long MIN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** No due tick to stand by for ({@link #readyTick}, {@link #armedTick}). */
    static final long NO_READY = Long.MAX_VALUE;
    /** {@link #arm}'s answer when the worker is no longer the standby. */
    static final long GONE = Long.MIN_VALUE;
    /** {@link #nanosUntil}'s answer when the time source threw. */
    private static final long CLOCK_FAILED = Long.MIN_VALUE;

    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(StandbySlot.class, "standby", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What a standing-by worker needs from the owner's park ({@link OwnerPark}): the clock, and a step of the loop. */
    interface Host {
        /** @return nanoseconds until the start of {@code tick} by the timer's clock (negative once it began) */
        long nanosUntilTick(long tick);

        /** @return whether the calling worker stepped the owner's loop (see {@code OwnerPark.standbyStep}) */
        boolean standbyStep();
    }

    /** The pool whose workers stand by here. Final. */
    private final WorkerPool pool;
    /**
     * The owner's park ({@link OwnerPark}); null for a pool with no owner thread (manual drive, tests), which then has
     * no standby. Plain: set once before the timer is published.
     */
    Host host;
    /**
     * The id of the worker standing by, or 0. cas 0 -&gt; id by the worker that takes the role, cas id -&gt; 0 by
     * the worker leaving it or by a waker taking it; lv by wakers and by {@link #readyAt}.
     */
    private volatile int standby;
    /**
     * The tick of the owner's next due timer, or {@link #NO_READY}. sv by the step token's holder only (owner or
     * standby, in turn), then it reads {@link #standby} and {@link #armedTick}; lv by the standby after its store of
     * {@code armedTick}.
     */
    private volatile long readyTick = NO_READY;
    /**
     * The tick the standby parks until ({@link #NO_READY}: until woken). sv by the standby before it re-reads
     * {@link #readyTick}; lv by the publisher of a new {@code readyTick} and by wakers.
     */
    private volatile long armedTick = NO_READY;

    StandbySlot(WorkerPool pool) {
        this.pool = pool;
    }

    /** @return whether the pool has an owner loop to stand by for */
    boolean enabled() {
        return host != null;
    }

    /** @return whether a worker holds the slot (a hint for wakers and the watchdog) */
    boolean occupied() {
        return standby != 0;
    }

    /**
     * The step token's holder, as it plans a park: the tick of the next due timer ({@link #NO_READY}: none). For the
     * owner's plan, the standby stands by only for a tick at least {@link #MIN_NANOS} away (or one it is armed for
     * already): nearer ticks, as in a burst, stay the owner's, so that the standby neither spins nor is unparked at
     * each of the owner's plans. For a standby's own step ({@code byStandby}), any later tick: the worker that stepped
     * comes back to the slot once it has run what it took (after a spin, as any idle worker), and arms for it; the
     * owner sleeps on to its backup tick meanwhile. If that worker's task blocks, the owner's backup (at most
     * {@link OwnerPark#STANDBY_BACKUP_NANOS} and the OS's timer slack past the tick the worker stepped) plans for the
     * tick instead. If a worker stands by for a later tick (or none), it is unparked to re-arm.
     *
     * @return whether a worker will stand by for this tick (the owner may then park a little past it)
     */
    boolean readyAt(long tick, boolean byStandby) {
        if (host == null) {
            return false;
        }
        boolean armed = tick != NO_READY && standby != 0 && armedTick == tick;
        long n = tick == NO_READY || armed ? 0 : nanosUntil(tick);
        long nearest = byStandby ? 1 : MIN_NANOS;
        boolean covered = armed || (tick != NO_READY && n != CLOCK_FAILED && n >= nearest);
        long publish = covered ? tick : NO_READY;
        if (publish != readyTick) {
            readyTick = publish; // sv, then lv of the slot and armedTick: the Dekker pair with arm
        }
        if (!covered) {
            return false;
        }
        int s = standby;
        if (s != 0 && publish < armedTick) {
            pool.countWakeup();
            LockSupport.unpark(pool.worker(s).thread);
        }
        // The spinner takes the slot when its spin ends, if no work came; a standby that stepped comes back to it.
        return s != 0 || pool.spinnerComing() || byStandby;
    }

    /**
     * Stands by for the owner's next due timer if no other worker does: parks in the slot until that tick (or until
     * woken), then tries to step the owner's loop and goes back to the queue.
     *
     * @return whether it stood by (false: another worker does, or the pool has no owner loop)
     */
    boolean standBy(WorkerPool.Worker w) {
        if (host == null || standby != 0 || !take(w)) {
            return false;
        }
        boolean interrupted = false;
        try {
            for (;;) {
                long r = arm(w);
                if (r == GONE) {
                    return true; // it saw work or shutdown and left, or a waker took it: back to the queue
                }
                long nanos = r == NO_READY ? Long.MAX_VALUE : nanosUntil(r);
                if (nanos == CLOCK_FAILED) {
                    leave(w); // the user's clock threw: this worker parks on the idle stack instead
                    return false;
                }
                if (nanos <= LEAD_NANOS) {
                    // Woken by the timed park, which the kernel ends up to its timer slack late: the park aimed
                    // LEAD_NANOS early, and the rest is a short spin to the tick, never early.
                    while (nanos > 0 && w.state == WorkerPool.STANDBY) {
                        Thread.onSpinWait();
                        nanos = nanosUntil(r);
                    }
                    w.servedTick = r;
                    if (leave(w)) {
                        pool.countWakeup(); // its timed wake-up: one per due tick it stood by for
                        host.standbyStep();
                    }
                    return true;
                }
                if (r == NO_READY) {
                    LockSupport.park(pool);
                } else {
                    LockSupport.parkNanos(pool, nanos - LEAD_NANOS);
                }
                if (Thread.interrupted()) {
                    interrupted = true; // a stray interrupt must not spin this loop; a stop one is kept
                }
            }
        } finally {
            if (interrupted && pool.stopping()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Takes the slot: STANDBY, off the awake count, then the slot's CAS.
     *
     * @return whether it holds the slot (false: another worker took it first)
     */
    boolean take(WorkerPool.Worker w) {
        w.state = WorkerPool.STANDBY; // before the slot's CAS: a waker's ACTIVE store comes after it
        pool.addAwake(-1);
        if (!SLOT.compareAndSet(this, 0, w.id)) {
            pool.addAwake(1);
            w.state = WorkerPool.ACTIVE;
            return false;
        }
        return true;
    }

    /**
     * The standby's look before each park: which tick to park until, by the Dekker pair with {@link #readyAt}
     * ({@link #armedTick} stored, then {@link #readyTick} read again), then the pair with producers (the slot was
     * taken, then the queue and the shutdown flag are read). A tick it already woke for is not armed again.
     *
     * @return the tick to park until, {@link #NO_READY} to park until woken, or {@link #GONE} if it left the slot
     *         (work or shutdown seen) or a waker took it out
     */
    long arm(WorkerPool.Worker w) {
        for (;;) {
            if (w.state != WorkerPool.STANDBY) {
                return GONE;
            }
            long published = readyTick;
            long r = w.servedTick != NO_READY && published <= w.servedTick ? NO_READY : published;
            armedTick = r; // sv, then re-read readyTick: the Dekker pair with readyAt
            if (readyTick != published) {
                continue;
            }
            if (pool.workOrShutdown()) {
                leave(w);
                return GONE;
            }
            pool.nudgeForHeld(); // in the slot, as on the idle stack: the owner's watchdog covers a held batch
            return r;
        }
    }

    /**
     * The standby leaves the slot by itself. If a waker took it first, waits for the waker's ACTIVE store (a few
     * instructions) so that no later state of its own is overwritten.
     *
     * @return whether it left by itself (false: a waker took it)
     */
    boolean leave(WorkerPool.Worker w) {
        if (SLOT.compareAndSet(this, w.id, 0)) {
            pool.addAwake(1);
            w.state = WorkerPool.ACTIVE;
            return true;
        }
        for (int spins = 0; w.state == WorkerPool.STANDBY; spins++) {
            if ((spins & 63) == 63) {
                Thread.yield(); // the waker was descheduled between its CAS and its store
            } else {
                Thread.onSpinWait();
            }
        }
        return false;
    }

    /** Any thread: takes the standby out of the slot, marks it ACTIVE and unparks it. */
    boolean wake() {
        int s = standby;
        if (s == 0 || !SLOT.compareAndSet(this, s, 0)) {
            return false;
        }
        WorkerPool.Worker w = pool.worker(s);
        if (w.state == WorkerPool.EXITED) {
            return false; // left the slot by dying (an Error): never revive it
        }
        pool.addAwake(1);
        w.state = WorkerPool.ACTIVE;
        LockSupport.unpark(w.thread);
        return true;
    }

    /** A worker that dies (an Error out of its loop) gives the slot up, so that no waker takes a dead worker. */
    void vacate(WorkerPool.Worker w) {
        SLOT.compareAndSet(this, w.id, 0);
    }

    /**
     * Whether the standby's tick has come while it is still in the slot. A standby that runs leaves the slot at its
     * tick (after a spin of at most {@link #LEAD_NANOS} from its timed wake-up), so one still here is waiting for a
     * CPU: a waker then wakes a parked worker, or starts one, before it takes the standby ({@code IdleWorkers.signal}).
     * Measured (session 29): with the standby taken first, the owner's hand-offs at its backup tick waited behind that
     * same standby's wake-up, for 1-3.5 ms, on a 2-core machine with nothing else running but the JVM's own threads.
     */
    boolean due() {
        long r = armedTick;
        return standby != 0 && r != NO_READY && nanosUntil(r) <= 0;
    }

    /**
     * The host's clock, read on a worker or a waker: a user's time source that throws must not kill a worker or a
     * producer here (the owner's own reads fail the owner, as before).
     *
     * @return nanoseconds until the tick, or {@link #CLOCK_FAILED}
     */
    private long nanosUntil(long tick) {
        try {
            return host.nanosUntilTick(tick);
        } catch (Throwable e) {
            return CLOCK_FAILED;
        }
    }

    // ---- test seams ----

    /** @return the tick published for the standby ({@link #NO_READY}: none; tests) */
    long readyTick() {
        return readyTick;
    }

    /** @return the worker in the slot, or null (jcstress arbiters) */
    WorkerPool.Worker worker() {
        int s = standby;
        return s == 0 ? null : pool.worker(s);
    }

    /**
     * jcstress only ({@code BrokenHandOffVsStandbyPark}): takes the slot after its look at the queue, to show why
     * {@link #arm} looks after the slot's CAS. Never called by the library.
     *
     * @return whether it stays the standby (would park)
     */
    boolean takeLookingFirst(WorkerPool.Worker w) {
        boolean work = pool.workOrShutdown();
        if (!take(w)) {
            return false;
        }
        if (work) {
            leave(w);
        }
        return w.state == WorkerPool.STANDBY;
    }

    /**
     * jcstress only ({@code BrokenReadyAtVsStandbyArm}): arms without reading {@link #readyTick} again after the
     * store of {@link #armedTick}, to show why {@link #arm} does. Never called by the library.
     */
    long armWithoutRecheck(WorkerPool.Worker w) {
        long published = readyTick;
        long r = w.servedTick != NO_READY && published <= w.servedTick ? NO_READY : published;
        armedTick = r;
        return r;
    }
}
