package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The command port between the producers (any thread that schedules or cancels) and the owner thread: the start and
 * cancel queues, the run state, the owner's wake-up plan, and both halves of both handshakes. {@link WheelTimer}
 * extends it, so that a schedule and a cancel stay calls on one object; the owner's half is called by
 * {@link OwnerLoop} (its drains and collections) and {@link OwnerPark} (the plan it publishes, re-checks and
 * withdraws).
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Lost wake-ups</b>: a Dekker handshake. The owner stores its planned wake-up tick ({@link #wakeupTick},
 *   sv, in {@link #publishPlan}), drains the queues once more and then loads their producer indexes
 *   ({@link #commandsInFlight}) before parking; a producer claims its queue index with an atomic add (the offer)
 *   and then loads {@code wakeupTick} ({@link #wakeIfEarlier}, {@link #wakeForCancel}, {@link #wakeNow}). These are
 *   all volatile accesses, so at least one side sees the other: either the owner finds the index claimed and does
 *   not park, or the producer sees the plan, and if the plan would sleep past what its command changes it CASes the
 *   plan to AWAKE and unparks the owner (only the CAS winner unparks). The owner judges by the index, not the
 *   element, because the element is stored after the index with only a release.</li>
 *   <li><b>Schedule vs shutdown</b>: the same handshake on {@link #runState}. A shutdown stores the new state and
 *   then ends the periodic timers and wakes the owner; a producer offers and then re-reads the state
 *   ({@link #accept}), and if it changed, revokes its timer by the NEW &rarr; CANCELLED CAS, offers a cancel
 *   command so that the owner unlinks it, wakes the owner (a revoked timer may be all that keeps a shut-down owner
 *   from terminating) and throws. If the revoke CAS fails, the owner already took the timer (it ran, or was handed
 *   back), so the producer returns it normally. A periodic timer is registered in {@link #periodics} before its
 *   offer, so a shutdown either finds it there and ends it, or the producer sees the shutdown and revokes it.</li>
 *   <li><b>Start</b>: the owner thread is created with the timer and started by the first producer (or shutdown)
 *   that finds {@code wakeupTick} UNSTARTED and wins its CAS to AWAKE; the start happens-before everything the
 *   owner does, so it sees every earlier offer.</li>
 * </ul>
 */
abstract class CommandPort extends AbstractExecutorService {

    static final long AWAKE = Long.MIN_VALUE;
    /** {@code wakeupTick} before the owner thread is started: the first producer (or shutdown) starts it. */
    static final long UNSTARTED = Long.MIN_VALUE + 1;
    static final long NO_EVENT = Long.MAX_VALUE;
    static final int ACTIVE = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;
    /** How long an idle owner may leave cancelled timers in the wheel before a cancel wakes it. */
    static final long REAP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** The unit of the command queues' size: a ring holds a whole number of these; an overflow chunk is one. */
    static final int CHUNK = 1024;
    /**
     * Chunks of ring each command queue allocates up front (8 x 1024 references: 32 KB a queue with compressed
     * references), or the whole room if that is less.
     */
    static final int FIRST_RING_CHUNKS = 8;
    /**
     * Chunks of rings each command queue may keep by default: 8, the first ring alone. A larger
     * {@code pooledQueueChunks} adds spare rings, allocated when a backlog first reaches them and kept (see
     * {@link CommandQueue}). Why not by default (session 23, Intel Xeon, 2 vCPUs): with 1,024 chunks a saturated
     * schedule + cancel at a million pending allocates 48.0 B per operation instead of 48.5-49.5, but a burst of a
     * million starts fires 12-23% slower (the kept rings' lines are cold where fresh chunks are zeroed in the cache
     * just before use), and the rings stay after the backlog (0.2 B per pending timer in the retained-memory run, 2.3 B
     * per timer after cancelling a million).
     */
    static final int POOLED_CHUNKS = 8;
    /**
     * Commands a queue may gather behind a parked owner before the producer that offers the next one wakes it: one
     * chunk, which leaves the owner the rest of the first ring as slack to wake up in before producers spill.
     */
    static final long WAKE_BACKLOG = CHUNK;

    private static final VarHandle WAKEUP_TICK;
    private static final VarHandle RUN_STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WAKEUP_TICK = lookup.findVarHandle(CommandPort.class, "wakeupTick", long.class);
            RUN_STATE = lookup.findVarHandle(CommandPort.class, "runState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ---- final: safely published with the timer ----
    final TickClock clock;
    final TimerCounters counters;
    final Termination termination = new Termination();
    /** Ticks an idle owner may leave cancelled timers linked (REAP_NANOS, at least one tick). */
    final long reapTicks;
    /** The owner thread, created (not started) with the timer; null in manual drive, where a test steps it. */
    final Thread owner;
    /** MPSC: any thread offers; only the owner (or, once it is gone, the shutdownNow winner) polls. */
    final CommandQueue<ScheduledTimer<?>> starts;
    final CommandQueue<ScheduledTimer<?>> cancels;
    /**
     * The periodic timers not yet ended, so that {@code shutdown()} can end them before it returns, from its own
     * thread. Added by the scheduling thread before its start offer and its re-read of runState; removed by
     * whichever thread ends the timer. A concurrent set: periodic timers are few, and the one-shot path never
     * touches it.
     */
    final Set<PeriodicTimer> periodics = ConcurrentHashMap.newKeySet();

    // ---- shared state ----
    /** ACTIVE, SHUTDOWN or STOP; only increases. cas by shutdown callers and the failing owner; lv by everyone. */
    private volatile int runState;
    /**
     * The tick the parked owner plans to wake at, AWAKE, or UNSTARTED until the owner thread is started. sv by the
     * owner (plan, then AWAKE after waking); cas to AWAKE by the producer that wakes (or starts) it; lv by producers
     * after their offer.
     */
    private volatile long wakeupTick;
    /** The tick at which the owner planned its park. Plain: written by the owner before the sv of wakeupTick. */
    private long parkedAtTick;
    /**
     * The start and cancel queues' consumer indexes when the owner planned its park (before its last drains, so at
     * or behind where it stopped). Plain, as parkedAtTick: a producer that reads a stale one only wakes the owner
     * a little early or late; no wake-up depends on it for correctness.
     */
    private long parkedStartsIndex;
    private long parkedCancelsIndex;

    /**
     * The command queues' shape where a test sets it (see WheelTimer.Builder's seams): the first ring's capacity and
     * the rings' room (0: the default rule below), the overflow's chunk, whether the queues have their chains
     * ({@link TimerChain}), and the flaw jcstress's broken variants use.
     */
    record QueueShape(int firstRing, int ringRoom, int overflowChunk, boolean chains, CommandQueue.Flaw flaw) {
        static final QueueShape DEFAULT = new QueueShape(0, 0, CHUNK, true, CommandQueue.Flaw.NONE);
    }

    /**
     * @param shape {@link QueueShape#DEFAULT}, or a test's
     * @param ownerFactory makes the owner thread, or null for manual drive (no owner thread)
     * @throws IllegalStateException if the factory fails (see {@link TimerThreads#newOwner})
     * @throws IllegalArgumentException if a test's first ring is larger than the rings' room
     */
    CommandPort(TickClock clock, TimerCounters counters, int pooledChunks, QueueShape shape,
                ThreadFactory ownerFactory, String ownerRole) {
        this.clock = clock;
        this.counters = counters;
        this.reapTicks = Math.max(1, REAP_NANOS / clock.tickNanos);
        int room = shape.ringRoom() != 0 ? shape.ringRoom()
                : Integer.highestOneBit(pooledChunks * CHUNK - 1) << 1; // a power of two, at least the chunks asked
        if (shape.firstRing() > room) {
            throw new IllegalArgumentException("first ring " + shape.firstRing() + " is larger than the rings' room "
                    + room);
        }
        int first = shape.firstRing() != 0 ? shape.firstRing() : Math.min(room, FIRST_RING_CHUNKS * CHUNK);
        // The start queue's chain is open only while cancels flow (see CommandQueue#spillLending): the cancel queue
        // first, as the start queue looks at it; a test's shape keeps the chain open, so that its rig reaches it with
        // a few starts.
        this.cancels = new CommandQueue<>(first, room, shape.overflowChunk(),
                shape.chains() ? new TimerChain.ThroughTask() : null, null, shape.flaw());
        this.starts = new CommandQueue<>(first, room, shape.overflowChunk(),
                shape.chains() ? new TimerChain.ThroughNext() : null, shape == QueueShape.DEFAULT ? cancels : null,
                shape.flaw());
        if (ownerFactory == null) {
            this.owner = null;
            this.wakeupTick = AWAKE;
        } else {
            this.owner = TimerThreads.newOwner(ownerFactory, ownerRole, this::runOwner);
            this.wakeupTick = UNSTARTED;
        }
    }

    /** The owner thread's body. */
    abstract void runOwner();

    /** The owner thread could not be started: nothing will ever poll the queues, so fail loudly now. */
    abstract void ownerStartFailed(Throwable e);

    final int runState() {
        return runState;
    }

    final boolean advanceRunState(int target) {
        for (;;) {
            int rs = runState;
            if (rs >= target) {
                return false;
            }
            if (RUN_STATE.compareAndSet(this, rs, target)) {
                return true;
            }
        }
    }

    // ==========================================================================================================
    // The producers' half: offer, wake, re-check, revoke

    /**
     * Accepts a timer: reserve its place, offer its start command, wake the owner if needed, re-read the run state
     * and revoke the timer if a shutdown raced. A periodic timer ({@code periodic}, a constant at each call site)
     * is registered once its place is reserved and before the offer and the re-read, so that a shutdown either
     * finds it in {@link #periodics} and ends it, or is seen here.
     */
    final <T extends ScheduledTimer<?>> T accept(T t, boolean periodic) {
        if (runState != ACTIVE) {
            throw rejected("the timer is shut down");
        }
        if (!counters.reservePending()) {
            throw rejected("maxPending " + counters.maxPending + " timers are already pending");
        }
        if (periodic) {
            periodics.add((PeriodicTimer) t);
        }
        long key = t.key; // read before the offer: the owner may rewrite it afterwards
        try {
            starts.offerLending(t); // a new timer: its next is free (TimerChain). Counts it as scheduled (the index)
        } catch (Throwable e) {
            // An OutOfMemoryError allocating a spare ring or an overflow chunk: the offer claimed nothing (JCTools
            // rolls a failed resize back), so the timer was never accepted; free its place and let the error out.
            if (periodic) {
                periodics.remove(t);
            }
            counters.releaseCancelled();
            throw e;
        }
        wakeIfEarlier(key);
        if (runState != ACTIVE && t.revoke()) {
            // A shutdown raced this schedule and nobody took the timer: it is rejected.
            if (periodic) {
                periodics.remove(t);
            }
            offerRevocation(t);
            counters.revokedAccepts.increment();
            counters.releaseCancelled();
            throw rejected("the timer was shut down while scheduling");
        }
        return t;
    }

    /**
     * Accepts a timer due now that goes straight to the pool ({@link TaskDispatch#takesWorkDueNow()}), never through
     * the owner: the same handshake as {@link #accept}, with the pool's push in place of the start offer. A shutdown
     * seen after the push revokes the timer (DISPATCHED &rarr; CANCELLED) unless a worker or shutdownNow's hand-back
     * took it first; the pool's workers exit only once its queue is empty after shutdown, so a push whose producer
     * saw ACTIVE after it is taken (see WorkerPool's handshake).
     */
    final <T extends ScheduledTimer<?>> T acceptNow(T t, TaskDispatch pool) {
        if (runState != ACTIVE) {
            throw rejected("the timer is shut down");
        }
        if (!counters.reservePending()) {
            throw rejected("maxPending " + counters.maxPending + " timers are already pending");
        }
        t.initHandedOff();
        // Counted as scheduled and handed off before anyone can end it (by the pool, before its fill or push: in the
        // submitting worker's own count from a pool task, else in the shared adder); the push is an atomic swap: the
        // store-load pair with the re-read below.
        pool.submitNow(t, counters.submittedNow);
        if (runState != ACTIVE && t.revokeHandedOff()) {
            counters.revokedAccepts.increment();
            counters.revokedNow.increment();
            counters.releaseCancelled();
            throw rejected("the timer was shut down while scheduling");
        }
        return t;
    }

    final RejectedExecutionException rejected(String why) {
        counters.rejected();
        Throwable f = termination.failure();
        if (f != null) {
            return new RejectedExecutionException("the timer's owner thread failed: " + f, f);
        }
        return new RejectedExecutionException(why);
    }

    /**
     * A revoked timer: the owner must unlink it if it reached the wheel, and must not sleep past that, since it may
     * be all that keeps a shut-down owner from terminating (a revoked hour-long timer would otherwise hold
     * termination for its cascade; one of Long.MAX_VALUE, forever).
     */
    private void offerRevocation(ScheduledTimer<?> t) {
        cancels.offerLending(t); // revoked before any run: its task field is free (TimerChain)
        counters.nonCancelOffers.increment();
        wakeNow();
    }

    /** A standby's step failed: wake (or start) the owner, which fails with the cause. */
    final void nudgeOwner() {
        wakeNow();
    }

    /**
     * The pool held a wake-up back (work due now, or a take that left work queued, with the awake cap reached):
     * have the owner's watchdog look at the queue within about {@code watchTicks}. Nothing to do if the owner is
     * awake (its next step watches, and as it plans a park it looks at the queue after publishing the plan: the
     * Dekker pair with this read), or parked with a plan that ends within {@code watchTicks} of when it made it
     * (it wakes and watches by itself; in a burst that is the next due tick, so a worker's takes do not wake the
     * owner once per take). A stale {@code parkedAtTick} belongs to a newer plan, whose own look saw the push.
     */
    final void nudgeForWatch(long watchTicks) {
        long planned = wakeupTick;
        if (planned == AWAKE || (planned != UNSTARTED && planned - parkedAtTick <= watchTicks)) {
            return;
        }
        wakeNow();
    }

    /**
     * A standby worker, after its step: wakes the owner if its plan is still {@code plan}, the one the worker read
     * under the step token. A plan made since (the owner woke at its backup and planned again, from the wheel the
     * step left) is left alone.
     */
    final void wakeIfPlan(long plan) {
        if (plan != AWAKE && plan != UNSTARTED && WAKEUP_TICK.compareAndSet(this, plan, AWAKE)) {
            unparkOwner();
        }
    }

    /** Wakes (or starts) the owner unless it is awake already; only the CAS winner unparks. */
    private void wakeNow() {
        long planned = wakeupTick;
        if (planned == UNSTARTED) {
            startOwner();
        } else if (planned != AWAKE && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
            unparkOwner();
        }
    }

    /** After a start offer: wake the owner if its plan would sleep past this deadline, or a chunk is waiting. */
    private void wakeIfEarlier(long key) {
        // The backlog test is a heuristic on top: it keeps a parked owner from letting the queue outgrow its pooled
        // chunks (a producer's index load reads the line its own add just wrote).
        long planned = wakeupTick;
        if (planned != AWAKE) {
            if (planned == UNSTARTED) {
                startOwner();
            } else if ((key < planned || starts.producerIndex() - parkedStartsIndex >= WAKE_BACKLOG)
                    && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
                unparkOwner();
            }
        }
    }

    /**
     * After a cancel offer: wake an owner that plans a long sleep, so that a cancelled timer is unlinked within
     * about REAP_NANOS, that has a chunk of cancel commands waiting, or that is shutting down (the unlink may be the
     * last thing that keeps it from terminating).
     */
    private void wakeForCancel() {
        long planned = wakeupTick;
        if (planned != AWAKE && planned != UNSTARTED && (planned - parkedAtTick > reapTicks
                || cancels.producerIndex() - parkedCancelsIndex >= WAKE_BACKLOG || runState != ACTIVE)
                && WAKEUP_TICK.compareAndSet(this, planned, AWAKE)) {
            unparkOwner();
        }
    }

    /** Wakes the owner unconditionally (shutdown), starting it first if nobody has. */
    final void wakeOwnerNow() {
        if (wakeupTick == UNSTARTED) {
            startOwner(); // it starts awake
            return;
        }
        wakeupTick = AWAKE;
        unparkOwner();
    }

    private void unparkOwner() {
        Thread t = owner;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Starts the owner thread if nobody has: only the CAS winner from UNSTARTED starts it. */
    private void startOwner() {
        if (!WAKEUP_TICK.compareAndSet(this, UNSTARTED, AWAKE)) {
            return;
        }
        try {
            owner.start();
        } catch (RuntimeException | Error e) { // no native thread to be had
            ownerStartFailed(e);
            throw e; // fail loudly: the caller that started it (a schedule, a shutdown) sees why
        }
    }

    /** A periodic timer's runner, after moving it back to NEW: the next period's start command. */
    /** @return whether the timer accepts work and moves (not shut down) */
    final boolean isActive() {
        return runState == ACTIVE;
    }

    /** A reschedule changed the key of a timer already MOVING: wake the owner if that key precedes its plan. */
    final void wakeForMove(long key) {
        wakeIfEarlier(key);
    }

    /**
     * A reschedule to an earlier key moved {@code t} to MOVING: offer it for the owner to move (a command like a start,
     * not counted as a new timer) and wake the owner if the new key precedes its plan. No re-read of the run state:
     * a timer that a reschedule could move (NEW or DEFERRED) is in the owner's reach (in the wheel, the due buffer or
     * the start queue), the owner does not exit while anything is, and a MOVING timer it meets as due it moves itself
     * (this command is then stale). So after a racing shutdown() the move stands and the timer runs at its new time;
     * after a racing shutdownNow() it is handed back, if it had not run.
     */
    final void offerMove(ScheduledTimer<?> t, long key) {
        starts.offer(t);
        counters.moves.increment();
        wakeIfEarlier(key);
    }

    final void resubmit(PeriodicTimer t) {
        long key = t.startKey();
        starts.offer(t);
        counters.resubmitted.increment();
        wakeIfEarlier(key);
        if (runState != ACTIVE) {
            Throwable f = termination.failure(); // stored before STOP by a failing owner: it ends failed, not cancelled
            if (f != null) {
                t.fail(Termination.ownerFailed(f));
            } else if (t.revoke()) {
                periodics.remove(t);
                offerRevocation(t);
                counters.releaseEnded();
            }
        }
    }

    /** A timer ended other than by cancel: it ran, failed, or was revoked by the owner. */
    final void onEnded(ScheduledTimer<?> t) {
        if (t.isPeriodic()) {
            periodics.remove(t);
        }
        counters.releaseEnded();
        // Still linked: its public run() was called while it waited in the wheel. Have the owner unlink it now,
        // as for a cancel, rather than keep it until its deadline (which would also delay termination after
        // shutdown()). A racy plain read of the owner's link field: a timer the owner dispatched was unlinked
        // before the hand-off, so it reads false; for an outside run a stale false keeps the old behaviour (it is
        // unlinked at its deadline) and a stale true costs a no-op reap.
        unlinkIfInWheel(t);
    }

    /**
     * A one-shot timer the own pool ran to its end (completed or failed). Without a pending limit its end is counted
     * by the worker that ran it, in a field only that worker writes ({@code WorkerPool.Worker.ended}), instead of the
     * shared adder that {@link #onEnded} increments: one atomic less per fire. Such a timer is never periodic and
     * never in the wheel (the owner unlinked it before handing it off; work due now never joins it); should one be
     * linked after all, it takes {@link #onEnded}'s way, which unlinks it and counts it here.
     *
     * @return whether the calling worker counts this end (false: counted here)
     */
    final boolean onEndedInPool(ScheduledTimer<?> t) {
        if (counters.maxPending != Long.MAX_VALUE || t.isInWheel()) {
            onEnded(t);
            return false;
        }
        return true;
    }

    private void unlinkIfInWheel(ScheduledTimer<?> t) {
        if (t.isInWheel()) {
            cancels.offer(t);
            counters.nonCancelOffers.increment();
            wakeForCancel();
        }
    }

    /**
     * A successful cancel from {@code fromPhase}: NEW (pending), DISPATCHED or RUNNING (handed off, or a run claimed
     * or in progress: the owner unlinked it from the wheel, unless it was run from outside) or RETURNED (handed
     * back: already accounted for).
     */
    final void onCancelled(ScheduledTimer<?> t, int fromPhase) {
        if (fromPhase == ScheduledTimer.RETURNED) {
            return; // handed back by shutdownNow: already ended for this timer
        }
        if (t.isPeriodic()) {
            periodics.remove(t);
        }
        counters.releaseCancelled();
        if (fromPhase == ScheduledTimer.NEW) {
            try {
                cancels.offerLending(t); // cancelled before any run: its task field is free. Counts the cancel
            } catch (Throwable e) {
                // An OutOfMemoryError allocating a spare ring or an overflow chunk, which claims nothing: the index
                // does not count this cancel, so the correction does. The timer is CANCELLED already (the caller's
                // future says so); the owner drops it from the wheel when its key comes, as any cancelled timer.
                counters.cancelsWithoutOffer.increment();
                throw e;
            }
            wakeForCancel();
        } else {
            counters.cancelsWithoutOffer.increment();
            unlinkIfInWheel(t);
        }
    }

    /** A periodic timer that ended itself after a run because the timer is shutting down. */
    final void onPeriodicEndedByShutdown(PeriodicTimer t) {
        periodics.remove(t);
        counters.releaseEnded();
        unlinkIfInWheel(t); // run early by a caller while linked: the owner must not wait for its key to exit
    }

    /**
     * shutdown()'s end of the periodic timers, from the calling thread, before it returns: each one still pending or
     * claimed moves to CANCELLED, and a running one is marked so that its runner ends it when the run returns (see
     * {@link PeriodicTimer#endByShutdown}): no run starts after shutdown() returns.
     * One pending in the wheel is unlinked by the owner, through a cancel command (not counted as a cancel).
     */
    final void endPeriodicTimers() {
        // The caller's store of the run state must come before its reads of the registry, whose iterator reads with
        // acquire loads only: a full fence keeps the handshake with accept's add-then-re-read independent of them.
        VarHandle.fullFence();
        for (PeriodicTimer t : periodics) {
            int from = t.endByShutdown(termination);
            if (from < 0) {
                continue;
            }
            periodics.remove(t);
            counters.releaseEnded();
            if (from == ScheduledTimer.NEW || t.isInWheel()) {
                cancels.offer(t);
                counters.nonCancelOffers.increment();
            }
        }
    }

    // ==========================================================================================================
    // The owner's half: publish the plan, re-check, withdraw

    /**
     * Publishes the owner's plan to park until {@code planned} (sv), after the indexes producers compare against.
     * The owner then drains once more and checks {@link #commandsInFlight()}.
     */
    final void publishPlan(long planned, long tickNow) {
        parkedAtTick = tickNow;
        parkedStartsIndex = starts.consumerIndex();
        parkedCancelsIndex = cancels.consumerIndex();
        wakeupTick = planned; // sv, then the queues' producer indexes (lv, in isEmpty): the Dekker handshake
    }

    /**
     * Whether a producer has claimed a queue index the owner has not drained: its element may not be visible yet
     * (a drain then stops short), but isEmpty compares the indexes, so such an offer keeps the owner awake.
     */
    final boolean commandsInFlight() {
        return !starts.isEmpty() || !cancels.isEmpty();
    }

    /** Any thread: the owner's published plan (lv): a tick, {@link #NO_EVENT}, {@link #AWAKE} or UNSTARTED. */
    final long plan() {
        return wakeupTick;
    }

    /** The owner withdraws its plan (it will not park after all), or is awake again after parking. */
    final void withdrawPlan() {
        wakeupTick = AWAKE;
    }

    /** Whether a producer has woken the owner since its last plan (or the plan was withdrawn). */
    final boolean isAwake() {
        return wakeupTick == AWAKE;
    }
}
