package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The state a timer shares with every thread, and the {@link Future} half built on it: the state word whose phase
 * decides every race (by CAS), the task-or-outcome field, and the Treiber stack of threads blocked in {@code get()}.
 * {@link ScheduledTimer} adds the transitions (run, cancel, fail, revoke) and their rules; the state machine is
 * drawn there. Layered under it as JCTools layers its queues' fields: one object, no indirection.
 *
 * @param <V> the result type
 */
abstract class TimerState<V> extends TimingWheel.Node implements Future<V> {

    // The state word, a long. Bits 0-6: the phase (below COMPLETING: not done; from INTERRUPTING up: cancelled).
    // Bit 7: IN_START_CHAIN. Bit 8: the kind. Bit 9: HANDED_BACK. Bit 10: MOVED. Bit 11: LAST_RUN (periodic). Bits 12-31: the relink
    // stamp. Bits 32-63: the low 32 bits of the key a reschedule asked for, meaningful while MOVING or DEFERRED. Keeping that key in the word that decides every race
    // makes each reschedule one CAS: a key is never stored apart from the transition that gives it effect.
    static final int NEW = 0;
    /**
     * Pending, with a new deadline on its way to the owner (an earlier one, or a deferred timer whose run lost to the
     * reschedule): a move command is queued, or the owner is moving it. Not dispatched, not claimable by a run;
     * cancel and shutdownNow take it as they take NEW. The owner moves it back to NEW once it has moved it.
     */
    static final int MOVING = 1;
    static final int RETURNED = 2;
    /**
     * Pending, still linked at its old key, with a later deadline in the state word ({@code reschedule} to a later
     * time): no command is sent; when the old key expires the owner moves the timer to the new one instead of
     * dispatching it. Not claimable by a run; cancel and shutdownNow take it as they take NEW.
     */
    static final int DEFERRED = 3;
    /**
     * Due, and handed off by the owner to run (its CAS from NEW, which a reschedule's CAS from NEW races: exactly one
     * wins). No reschedule takes effect any more; a run claims it, a cancel (either kind) still wins against it,
     * shutdownNow's hand-back takes it from the pool's queue.
     */
    static final int DISPATCHED = 4;
    /**
     * A run has claimed the timer; its thread is not yet published and the task has not started. The own pool's run
     * of a timer it took from its queue skips this phase (see {@code ScheduledTimer.claimIntoRun}).
     */
    static final int CLAIMED = 5;
    /** The runner's thread is published (see {@link ScheduledTimer#runnerThread()}); the task is running or about to. */
    static final int RUNNING = 6;
    /** Transient: the outcome is being written. */
    static final int COMPLETING = 7;
    static final int COMPLETED = 8;
    static final int FAILED = 9;
    /** Transient: cancel(true) won against a running task and is interrupting its thread. */
    static final int INTERRUPTING = 10;
    static final int CANCELLED = 11;
    /** Cancelled by cancel(true), which interrupted the runner; the runner then clears that interrupt. */
    static final int INTERRUPTED = 12;
    private static final int PHASE_MASK = 0x7F;
    /**
     * Bit of a timer whose first start waits in the start queue's {@link TimerChain.ThroughNext}, which links it
     * through its {@code next} field: set by the producer before the push (an atomic or), cleared by the owner when it
     * takes the start (an atomic and, as reschedules and cancels CAS the word meanwhile), kept by every other
     * transition. A move command the owner meets while it is set overtook the start: the owner leaves the timer alone
     * (linking it would overwrite its link in the chain), and the start makes the move. The plain stores that end a
     * transient phase ({@link #setPhase}, {@link #completePhase}) may put the bit back on a timer whose start was run
     * early by a caller while chained; that timer is then ended, and the owner ignores any command for it anyway.
     */
    static final int IN_START_CHAIN = 1 << 7;
    /** Kind bit, fixed at construction: the task is a {@link Callable}, else a {@link Runnable} with result null. */
    static final int KIND_CALLABLE = 1 << 8;
    /**
     * Sticky bit set together with RETURNED by shutdownNow's claim and kept by later phases: the timer's pending
     * count was released then, so ending it later (a cancel during the caller's run) must not release it again.
     */
    static final int HANDED_BACK = 1 << 9;
    /**
     * Sticky bit the owner sets when it ends a move (with the stamp, in the same CAS): the timer has been placed. A
     * start command that then finds it NEW or DEFERRED is stale (a move command whose move an earlier command, the
     * timer's own start, already made) and must not place it a second time.
     */
    static final long MOVED = 1L << 10;
    /**
     * Sticky bit of a periodic timer, set by {@code shutdown()} by CAS on a RUNNING word (never on another phase): the
     * run in progress is the last. The timer stays RUNNING (not done) until that run returns; the runner then ends it
     * (cancelled, or failed if the task threw) instead of moving it back to NEW, and, last, releases the hold on
     * termination that {@code shutdown()} took for this run ({@link Termination#release}). A cancel meanwhile
     * wins as against any running timer and keeps the bit, so the runner still releases the hold once it has left.
     */
    static final long LAST_RUN = 1L << 11;
    /**
     * One step of the relink stamp (bits 12-31), which the owner adds each time it ends a move (MOVING &rarr; NEW):
     * the {@code key} field changes only inside a move, so a reschedule whose CAS finds the word it read also knows
     * that the key it read beside it is still where the timer is linked (no ABA through a move). Wraps harmlessly.
     */
    static final long STAMP_ONE = 1L << 12;
    private static final long LOW_WORD = 0xFFFF_FFFFL;

    private static final VarHandle STATE;
    private static final VarHandle WAITERS;
    /** Yields of a {@code get()} that finds a run's outcome being written (COMPLETING), before it parks between looks. */
    static final int COMPLETING_YIELDS = 64;
    /** How long such a {@code get()} parks between looks once it has yielded that often (never without a timeout). */
    static final long COMPLETING_PARK_NANOS = 50_000;
    /** For the runner's volatile clear of its thread, and cancelAndAwait's volatile reads of it. */
    static final VarHandle TASK_OR_OUTCOME;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(TimerState.class, "state", long.class);
            WAITERS = lookup.findVarHandle(TimerState.class, "waiters", WaitNode.class);
            TASK_OR_OUTCOME = lookup.findVarHandle(TimerState.class, "taskOrOutcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The task while the timer is pending; while a one-shot runs (RUNNING), the thread running it; then its outcome
     * (the result, or a Throwable for FAILED). Each value is written plain by the thread that owns the phase (or, for
     * the own pool's worker, the one thread that may claim it next: see below): the
     * run's claim winner stores its thread before the CLAIMED &rarr; RUNNING cas that releases it to a cancel(true),
     * which reads it only after winning RUNNING &rarr; INTERRUPTING (the own pool's worker, the only possible runner
     * of a timer it took from its queue, stores it before its one CAS, DISPATCHED &rarr; RUNNING, and clears it
     * (volatile) if a cancel won); the thread that ends the timer stores the
     * outcome before the terminal phase (sv), which publishes it to readers that load the phase (lv) first. A cancel
     * from NEW nulls it after its CAS (plain: the common cancel), and a runner that lost to a cancel nulls it once
     * the cancel is done with it (volatile, through TASK_OR_OUTCOME), then wakes the waiters: cancelAndAwait reads it
     * (volatile) to learn that the runner has left. No reader looks at the outcome of a cancelled timer.
     */
    Object taskOrOutcome;

    /**
     * Phase, kind, handed-back bit, relink stamp and a rescheduled key (see the layout above). Written by cas/sv from
     * any thread; read lv. Every transition is a CAS on the whole word, except the stores that end the transient
     * phases (COMPLETING, INTERRUPTING), which no other thread may leave (only the owner's atomic clear of
     * {@link #IN_START_CHAIN} can land between their read and their store, and they may put that bit back).
     */
    private volatile long state;

    /** Treiber stack of threads blocked in get(). cas by waiters; swapped to null (getAndSet) on completion. */
    private volatile WaitNode waiters;

    TimerState(Object task, int kind) {
        this.taskOrOutcome = task;
        // Plain: published with the node by the start offer (an atomic add, then a release store of the element),
        // which every other thread that sees this timer reaches through (the owner's poll acquires; a caller gets
        // the future only after the offer). A volatile store here would cost a full fence per schedule.
        // A future handed to another thread through a data race (a plain field, no happens-before) may be seen
        // with its fields at their defaults, as FutureTask's may: state 0 is NEW with the Runnable kind, so such a
        // reader sees a pending future. isDone, isCancelled and get behave as for a pending timer, and cancel's
        // CAS, which compares against the real state, fails and retries with the state it then reads. The way to
        // the timer (the node's wheel field, which carries it) is not final, to keep the timer at 48 bytes: such a
        // reader may find it null, and a cancel, reschedule or getDelay of that future then throws
        // NullPointerException instead of acting on a stale view, as FutureTask's run may on a racy reference (its
        // callable is not final either). Publish futures safely. Only the runner reads the kind and the task, and
        // it reaches the timer through the queue. So the store stays plain (decided; the volatile store it
        // replaced cost a fence per schedule in the benchmarks of f09fd8a).
        STATE.set(this, (long) (kind | NEW));
    }

    // ----------------------------------------------------------------------------------------------------------
    // State

    final int phase() {
        return (int) state & PHASE_MASK;
    }

    static int phaseOf(long word) {
        return (int) word & PHASE_MASK;
    }

    /** @return the whole state word (lv): for the transitions that carry a key */
    final long word() {
        return state;
    }

    final boolean casWord(long expect, long update) {
        return STATE.compareAndSet(this, expect, update);
    }

    /** @return {@code word} with its phase replaced */
    static long withPhase(long word, int phase) {
        return (word & ~(long) PHASE_MASK) | phase;
    }

    /** @return {@code word} with its phase and its rescheduled key bits replaced */
    static long withKey(long word, int phase, long key) {
        return (word & LOW_WORD & ~(long) PHASE_MASK) | phase | ((long) (int) key << 32);
    }

    /** @return the low 32 bits of the rescheduled key a word carries */
    static int keyBits(long word) {
        return (int) (word >>> 32);
    }

    /**
     * Moves the phase from {@code expect} to {@code update}, keeping the rest of the word; retries while the phase
     * stays {@code expect} and only the rest changed (a reschedule's key while MOVING or DEFERRED).
     *
     * @return false once the phase is not {@code expect}
     */
    final boolean casPhase(int expect, int update) {
        for (long s = state; phaseOf(s) == expect; s = state) {
            if (STATE.compareAndSet(this, s, withPhase(s, update))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new timer for work due now starts handed off (DISPATCHED), never in the wheel. Plain, as the constructor's
     * store: published by the push that hands it off (see {@code HandOffQueue.pushChain}'s release).
     */
    final void initHandedOff() {
        STATE.set(this, withPhase((long) STATE.get(this), DISPATCHED));
    }

    /** @return whether a phase is pending: not started, not ended (NEW, MOVING, DEFERRED or DISPATCHED) */
    static boolean isPending(int phase) {
        return phase <= DISPATCHED && phase != RETURNED;
    }

    /** shutdownNow's claim: a pending timer (NEW, MOVING, DEFERRED or DISPATCHED) &rarr; RETURNED, marking it handed back. */
    final boolean claimReturned() {
        for (;;) {
            long s = state;
            int p = phaseOf(s);
            if (!isPending(p)) {
                return false;
            }
            if (STATE.compareAndSet(this, s, withPhase(s, RETURNED) | HANDED_BACK)) {
                return true;
            }
        }
    }

    /** @return whether the task is a {@link Callable} (fixed at construction) */
    final boolean isCallable() {
        return (state & KIND_CALLABLE) != 0;
    }

    /**
     * Producer, before the start chain's push: see {@link #IN_START_CHAIN}. An atomic or, not a plain store: the new
     * timer may already be in other threads' reach (a periodic one is registered for {@code shutdown()} before its
     * offer, the owner's failure ends it, and a {@code CustomTimer} may be shared before its {@code schedule}), and a
     * plain store could erase the cancel or failure one of them made meanwhile (second reader, session 35).
     */
    final void markInStartChain() {
        STATE.getAndBitwiseOr(this, (long) IN_START_CHAIN);
    }

    /** Owner, on taking the start from the chain: see {@link #IN_START_CHAIN}. */
    final void clearInStartChain() {
        STATE.getAndBitwiseAnd(this, ~(long) IN_START_CHAIN);
    }

    /** @return whether {@code word} is a timer's whose start still waits in the start chain */
    static boolean inStartChain(long word) {
        return (word & IN_START_CHAIN) != 0;
    }

    final boolean handedBack() {
        return (state & HANDED_BACK) != 0;
    }

    /** @return whether the owner has ended a move of this timer (see {@link #MOVED}) */
    final boolean hasMoved() {
        return (state & MOVED) != 0;
    }

    /** Ends a transient phase (COMPLETING, INTERRUPTING), which only the thread that entered it may leave. */
    final void setPhase(int phase) {
        state = withPhase(state, phase);
    }

    /**
     * A run's end: COMPLETING &rarr; {@code phase} (COMPLETED or FAILED) by a release store, which publishes the
     * outcome stored before it, with no full fence. Safe for the waiters because none parks on COMPLETING: a
     * {@code get()} that reads it yields and reads again, as {@code FutureTask}'s waiters do, so their Dekker pair
     * with {@link #releaseWaiters()} is the CAS into COMPLETING (a full fence) before its read of the stack.
     */
    final void completePhase(int phase) {
        // The word is this thread's while COMPLETING (but for the owner's clear of IN_START_CHAIN: see that bit).
        STATE.setRelease(this, withPhase((long) STATE.get(this), phase));
    }

    /** @return false: a one-shot timer */
    @Override
    public boolean isCancelled() {
        return phase() >= INTERRUPTING;
    }

    @Override
    public boolean isDone() {
        // COMPLETING counts, as in FutureTask: the outcome is decided and being written, and a cancel that found it
        // returned false, after which Future's contract has isDone() true. get() still waits for the outcome.
        return phase() >= COMPLETING;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        if (phase() < COMPLETED) {
            await(false, false, 0L, true);
        }
        return report(phase());
    }

    /**
     * jcstress only ({@code BrokenGetVsReleaseCompletion}): {@code get()} whose wait parks on COMPLETING as on any
     * phase before it, to show why the real wait yields there. Never called by the library.
     */
    final V getParkingOnCompleting() throws InterruptedException, ExecutionException {
        if (phase() < COMPLETED) {
            await(false, false, 0L, false);
        }
        return report(phase());
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        if (phase() < COMPLETED && !await(false, true, nanos, true)) {
            throw new TimeoutException("not done after " + timeout + " " + unit);
        }
        return report(phase());
    }

    @SuppressWarnings("unchecked")
    private V report(int p) throws ExecutionException {
        if (p >= INTERRUPTING) {
            throw new CancellationException("the timer was cancelled");
        }
        Object outcome = taskOrOutcome;
        if (p == FAILED) {
            throw new ExecutionException((Throwable) outcome);
        }
        return (V) outcome;
    }

    /**
     * @return whether a run of the task may still be in progress: a run claimed or running, or a run a cancel ended
     *         whose thread has not yet left it (the runner clears its thread, volatile, then wakes the waiters)
     */
    abstract boolean runInProgress();

    /** {@code cancelAndAwait}'s wait: until no run is in progress; false if it timed out. */
    final boolean awaitNoRun(boolean timed, long nanos) throws InterruptedException {
        return await(true, timed, nanos, true);
    }

    /**
     * Blocks, on the waiters stack, until the future is done ({@code get}: the phase is terminal; INTERRUPTING
     * counts, as cancelled) or, for {@code noRun}, until {@link #runInProgress()} is false; or until interrupted
     * or timed out. A waiter pushes itself (cas) before it reads what it waits for; whoever makes it true stores
     * that (volatile: the terminal phase, or a runner's clear of its thread) before it reads the stack in
     * {@link #releaseWaiters()}: one of the two sees the other. A run's end is the exception: its CAS into
     * COMPLETING is the store in that pair and its terminal phase a release store after it ({@link #completePhase}),
     * so a {@code get()} that reads COMPLETING yields instead of parking.
     *
     * @return whether the condition holds (false: timed out)
     */
    private boolean await(boolean noRun, boolean timed, long nanos, boolean yieldOnCompleting)
            throws InterruptedException {
        final long deadline = timed ? System.nanoTime() + nanos : 0L;
        WaitNode q = null;
        boolean queued = false;
        int completingLooks = 0;
        for (;;) {
            if (queued && q.thread == null) {
                // Released (a volatile read: what the releaser stored before it released is visible now), but a
                // release need not be this waiter's: a cancel(true) finishing its interrupt wakes the stack while
                // the run it cancelled is still leaving. Queue again before waiting more, or nobody would wake us.
                q = null;
                queued = false;
            }
            int p = noRun ? NEW : phase();
            if (noRun ? !runInProgress() : p >= COMPLETED) {
                if (q != null) {
                    q.thread = null;
                }
                return true;
            }
            if (p == COMPLETING && yieldOnCompleting) {
                // The outcome is being written, and its phase store is a release with no fence after it
                // (completePhase): the runner may have read the stack before this waiter's push, so never park on
                // COMPLETING without a timeout. It lasts a few instructions, unless the runner is descheduled inside
                // them: yield first, before looking at interrupts, as FutureTask does (the outcome is decided, and
                // isDone() already says so); past COMPLETING_YIELDS, look at interrupts and the deadline, and park
                // briefly between looks, so that a runner that never leaves COMPLETING (a VM error inside its last
                // store) costs the waiter neither its interrupt, nor its timeout, nor a spinning CPU.
                if (++completingLooks <= COMPLETING_YIELDS) {
                    Thread.yield();
                    continue;
                }
                if (Thread.interrupted()) {
                    if (q != null) {
                        removeWaiter(q);
                    }
                    throw new InterruptedException();
                }
                if (timed && deadline - System.nanoTime() <= 0L) {
                    if (q != null) {
                        removeWaiter(q);
                    }
                    return phase() >= COMPLETED;
                }
                LockSupport.parkNanos(this, COMPLETING_PARK_NANOS);
                continue;
            }
            if (Thread.interrupted()) {
                if (q != null) {
                    removeWaiter(q);
                }
                throw new InterruptedException();
            }
            if (q == null) {
                if (timed && nanos <= 0L) {
                    return false;
                }
                if (!noRun) {
                    beforeBlock(); // once per wait or re-queue, before the waiter would park
                }
                q = new WaitNode();
            } else if (!queued) {
                q.next = waiters;
                queued = WAITERS.compareAndSet(this, q.next, q);
            } else if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    removeWaiter(q);
                    return noRun ? !runInProgress() : phase() >= COMPLETED;
                }
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /**
     * {@code get()} is about to block on this unfinished future: a timer kept for the calling thread to run later
     * (a pool worker's continuation slot) is handed on first, so that the caller does not wait for itself.
     */
    void beforeBlock() {
        // nothing by default
    }

    /** jcstress only ({@code ReleaseCompletionRig}): whether a waiter is on the stack (the volatile read). */
    final boolean hasWaiters() {
        return waiters != null;
    }

    /** Called after the terminal phase is stored: wakes every waiter. */
    final void releaseWaiters() {
        // Read first, so the common case (nobody waits) costs a load, not an atomic swap. Safe: the caller stored the
        // terminal phase (volatile) before this volatile load, or, at a run's end, CASed COMPLETING before it (the
        // terminal phase then follows as a release store, and waiters yield on COMPLETING); a waiter's push (cas)
        // comes before its own load of the phase, so if this load misses a push, that waiter's load sees the
        // terminal phase, or COMPLETING, and it never parks.
        if (waiters == null) {
            return;
        }
        WaitNode q = (WaitNode) WAITERS.getAndSet(this, (WaitNode) null);
        while (q != null) {
            Thread t = q.thread;
            if (t != null) {
                q.thread = null;
                LockSupport.unpark(t);
            }
            q = q.next;
        }
    }

    /** Unlinks a timed-out or interrupted waiter, so repeated timed gets on a long-lived timer do not pile up. */
    private void removeWaiter(WaitNode node) {
        node.thread = null;
        retry:
        for (;;) {
            WaitNode pred = null;
            WaitNode q = waiters;
            while (q != null) {
                WaitNode s = q.next;
                if (q.thread != null) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = s;
                    if (pred.thread == null) {
                        continue retry;
                    }
                } else if (!WAITERS.compareAndSet(this, q, s)) {
                    continue retry;
                }
                q = s;
            }
            return;
        }
    }

    static final class WaitNode {
        /** Set at creation; cleared (sv) by the waker or the waiter when it leaves. */
        volatile Thread thread = Thread.currentThread();
        /** Written before the cas that pushes this node; read after loading the stack head. */
        volatile WaitNode next;
    }
}
