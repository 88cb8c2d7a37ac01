package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A one-shot timer of a {@link WheelTimer}: the future handed to the caller, the command sent to the owner thread,
 * and the wheel's node, all one object. A periodic timer is the subclass {@link PeriodicTimer}.
 *
 * <h2>Concurrency</h2>
 * The {@link #state} word decides every race, by CAS on its phase:
 * <pre>
 *   NEW ──run claims──▶ CLAIMED ──runner published──▶ RUNNING ──▶ COMPLETING ──▶ COMPLETED | FAILED   (one-shot)
 *   NEW | CLAIMED ──cancel──▶ CANCELLED                        (CLAIMED: the task never starts)
 *   RUNNING ──cancel(false)──▶ CANCELLED                       (the task runs on; its outcome is dropped)
 *   RUNNING ──cancel(true)──▶ INTERRUPTING ──runner interrupted──▶ INTERRUPTED
 *   NEW ──shutdownNow collects──▶ RETURNED ──run (by the caller)──▶ CLAIMED, or ──cancel──▶ CANCELLED
 *   NEW ──schedule revoked on shutdown──▶ CANCELLED          (the producer then throws RejectedExecutionException)
 *   NEW ──executor rejects, or the owner fails──▶ FAILED
 * </pre>
 * This is {@link java.util.concurrent.FutureTask}'s contract: {@link #cancel} succeeds against a task that has not
 * completed, running or not. The run publishes the thread that runs it in two steps, as FutureTask does with its
 * runner field: it claims the timer (NEW &rarr; CLAIMED, so no other run starts), stores its thread (plain), and
 * only then moves CLAIMED &rarr; RUNNING (cas, which releases that store) and calls the task. A cancel that wins
 * from CLAIMED therefore stops the task before it starts, and one that wins from RUNNING (acquiring the thread by
 * its own cas) always has the thread to interrupt: no cancel(true) returns true against a task that then runs
 * uninterrupted. The runner that loses its final CAS to a cancel(true) waits out INTERRUPTING and clears the
 * interrupt, so it never reaches the next task its thread runs.
 *
 * <p>{@link #cancelIfNotStarted()}, the strict cancel, succeeds only from NEW or RETURNED: in a race with the fire
 * (whose claim is the CAS from NEW) exactly one of the two wins.
 *
 * <p>The node's wheel fields ({@code key}, links) are written by the producer before the node is offered to the
 * start queue (a release; the owner's poll acquires), and after that only by the owner thread. A
 * {@link PeriodicTimer}'s runner writes the next period's key into a field of its own, which the owner copies when
 * it takes the next start command.
 *
 * <p>Memory: the object header, the wheel's key, two links and wheel reference, and the four fields here come to
 * 48 bytes with compressed references, which is the whole cost of a pending one-shot timer. The thread running the
 * task needs no field of its own: while it runs, {@code taskOrOutcome} holds it (the runner keeps the task in a
 * local).
 */
class ScheduledTimer<V> extends TimingWheel.Node implements RunnableScheduledFuture<V>, TimerFuture<V> {

    // Phases: the low byte of state. Below COMPLETED: not done. From INTERRUPTING up: cancelled.
    static final int NEW = 0;
    static final int RETURNED = 1;
    /** A run has claimed the timer; its thread is not yet published and the task has not started. */
    static final int CLAIMED = 2;
    /** The runner's thread is published (see {@link #runnerThread()}); the task is running or about to. */
    static final int RUNNING = 3;
    /** Transient: the outcome is being written. */
    static final int COMPLETING = 4;
    static final int COMPLETED = 5;
    static final int FAILED = 6;
    /** Transient: cancel(true) won against a running task and is interrupting its thread. */
    static final int INTERRUPTING = 7;
    static final int CANCELLED = 8;
    /** Cancelled by cancel(true), which interrupted the runner; the runner then clears that interrupt. */
    static final int INTERRUPTED = 9;
    private static final int PHASE_MASK = 0xFF;
    /** Kind bit, fixed at construction: the task is a {@link Callable}, else a {@link Runnable} with result null. */
    static final int KIND_CALLABLE = 1 << 8;
    /**
     * Sticky bit set together with RETURNED by shutdownNow's claim and kept by later phases: the timer's pending
     * count was released then, so ending it later (a cancel during the caller's run) must not release it again.
     */
    static final int HANDED_BACK = 1 << 9;

    private static final VarHandle STATE;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(ScheduledTimer.class, "state", int.class);
            WAITERS = lookup.findVarHandle(ScheduledTimer.class, "waiters", WaitNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The timer this belongs to. Final: safely published with the object. */
    final WheelTimer timer;

    /**
     * The task while the timer is pending; while a one-shot runs (RUNNING), the thread running it; then its outcome
     * (the result, or a Throwable for FAILED). Each value is written plain by the thread that owns the phase: the
     * run's claim winner stores its thread before the CLAIMED &rarr; RUNNING cas that releases it to a cancel(true),
     * which reads it only after winning RUNNING &rarr; INTERRUPTING; the thread that ends the timer stores the
     * outcome before the terminal phase (sv), which publishes it to readers that load the phase (lv) first. A cancel
     * from NEW nulls it after its CAS, and a runner that lost to a cancel nulls it once the cancel is done with it,
     * to free the task: no reader looks at the outcome of a cancelled timer.
     */
    private Object taskOrOutcome;

    /** Phase (low byte) and kind bits. Written by cas/sv from any thread; read lv. */
    private volatile int state;

    /** Treiber stack of threads blocked in get(). cas by waiters; swapped to null (getAndSet) on completion. */
    private volatile WaitNode waiters;

    ScheduledTimer(WheelTimer timer, Object task, int kind, long key) {
        this.timer = timer;
        this.taskOrOutcome = task;
        // Plain: published with the node by the start offer (an atomic add, then a release store of the element),
        // which every other thread that sees this timer reaches through (the owner's poll acquires; a caller gets
        // the future only after the offer). A volatile store here would cost a full fence per schedule.
        // A future handed to another thread through a data race (a plain field, no happens-before) may be seen
        // with its fields at their defaults, as FutureTask's may: state 0 is NEW with the Runnable kind, so such a
        // reader sees a pending future. isDone, isCancelled and get behave as for a pending timer, and cancel's
        // CAS, which compares against the real state, fails and retries with the state it then reads; the timer
        // reference is final and always seen. Only the runner reads the kind and the task, and it reaches the
        // timer through the queue. At worst getDelay reads a key of 0 until the store is seen. So the store stays
        // plain (decided; the volatile store it replaced cost a fence per schedule in the benchmarks of f09fd8a).
        STATE.set(this, kind | NEW);
        this.key = key;
    }

    // ----------------------------------------------------------------------------------------------------------
    // State

    final int phase() {
        return state & PHASE_MASK;
    }

    final boolean casPhase(int expect, int update) {
        int kind = state & ~PHASE_MASK;
        return STATE.compareAndSet(this, kind | expect, kind | update);
    }

    /** shutdownNow's claim: NEW &rarr; RETURNED, marking the timer handed back. */
    final boolean claimReturned() {
        int kind = state & ~PHASE_MASK;
        return STATE.compareAndSet(this, kind | NEW, kind | HANDED_BACK | RETURNED);
    }

    final boolean handedBack() {
        return (state & HANDED_BACK) != 0;
    }

    final void setPhase(int phase) {
        int kind = state & ~PHASE_MASK;
        state = kind | phase;
    }

    /** @return false: a one-shot timer */
    @Override
    public boolean isPeriodic() {
        return false;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Running

    static final int NOT_CLAIMED = 0;
    static final int CLAIMED_NEW = 1;
    static final int CLAIMED_RETURNED = 2;

    /**
     * The run's claim: NEW &rarr; CLAIMED (dispatched by the timer, or run early by a caller), or RETURNED &rarr;
     * CLAIMED (run by the caller of shutdownNow, whose timer was already accounted for). The winner owns the run;
     * it publishes its thread and then moves to RUNNING with {@link #startRun()}.
     *
     * @return which of the two won, or NOT_CLAIMED if the timer was cancelled, ran or is running
     */
    final int claimRun() {
        if (casPhase(NEW, CLAIMED)) {
            return CLAIMED_NEW;
        }
        return casPhase(RETURNED, CLAIMED) ? CLAIMED_RETURNED : NOT_CLAIMED;
    }

    /**
     * The claim winner's second step: CLAIMED &rarr; RUNNING, after it stored its thread where
     * {@link #runnerThread()} finds it (this cas releases that store).
     *
     * @return false if a cancel won from CLAIMED: the task must not start (the caller then calls
     *         {@link #afterCancelledRun()})
     */
    final boolean startRun() {
        return casPhase(CLAIMED, RUNNING);
    }

    /**
     * Runs the task if it is still pending (NEW, or RETURNED when the caller of {@code shutdownNow} runs it).
     * Does nothing if it was cancelled, already ran or is running.
     */
    @Override
    public void run() {
        int claim = claimRun();
        if (claim == NOT_CLAIMED) {
            return;
        }
        boolean returned = claim == CLAIMED_RETURNED;
        Object task = taskOrOutcome; // the claim made it ours
        taskOrOutcome = Thread.currentThread(); // plain: released by startRun's cas to a cancel(true)
        if (!startRun()) {
            afterCancelledRun();
            return;
        }
        Object outcome;
        int phase;
        try {
            outcome = call(task);
            phase = COMPLETED;
        } catch (Throwable t) {
            outcome = t;
            phase = FAILED;
        }
        if (!casPhase(RUNNING, COMPLETING)) {
            afterCancelledRun(); // cancelled while running: the outcome is dropped, as FutureTask drops it
            return;
        }
        taskOrOutcome = outcome;
        setPhase(phase); // sv: releases the outcome
        releaseWaiters();
        if (!returned) {
            timer.onEnded(this);
        }
    }

    /** The thread running the task, while the phase is RUNNING or INTERRUPTING (a one-shot keeps it in its task field). */
    Thread runnerThread() {
        Object r = taskOrOutcome;
        return r instanceof Thread ? (Thread) r : null;
    }

    /** Forgets the runner and the task once the run has lost to a cancel. */
    void clearRun() {
        taskOrOutcome = null;
    }

    /** Forgets the last run's thread when the timer ends between runs (a periodic keeps one; a one-shot none). */
    void forgetRunner() {
    }

    /**
     * The run lost its CAS to a cancel. If that was cancel(true), wait until it has delivered its interrupt, then
     * clear it, so the interrupt does not leak into whatever this thread runs next; then free the task.
     */
    final void afterCancelledRun() {
        int p;
        while ((p = phase()) == INTERRUPTING) {
            Thread.yield(); // the canceller is between its CAS and its store of INTERRUPTED: two instructions away
        }
        if (p == INTERRUPTED) {
            Thread.interrupted();
        }
        clearRun();
    }

    /** Runs the task and returns its result. Not final: {@link CustomTimer} runs its own method instead. */
    @SuppressWarnings("unchecked")
    Object call(Object task) throws Exception {
        if ((state & KIND_CALLABLE) != 0) {
            return ((Callable<Object>) task).call();
        }
        ((Runnable) task).run();
        return null;
    }

    final Object task() {
        return taskOrOutcome;
    }

    final void setOutcome(Object outcome) {
        taskOrOutcome = outcome;
    }

    /**
     * Ends a pending timer exceptionally, for example when the executor rejected it.
     *
     * @return whether this call ended it
     */
    final boolean fail(Throwable cause) {
        if (!casPhase(NEW, COMPLETING)) {
            return false;
        }
        forgetRunner();
        taskOrOutcome = cause;
        setPhase(FAILED);
        releaseWaiters();
        timer.onEnded(this);
        return true;
    }

    /**
     * Cancels a timer that the timer itself ends (a schedule revoked by a racing shutdown, periodic timers at
     * shutdown). Same as {@link #cancel} from NEW, but counted by the caller.
     */
    final boolean revoke() {
        if (!casPhase(NEW, CANCELLED)) {
            return false;
        }
        taskOrOutcome = null;
        forgetRunner();
        releaseWaiters();
        return true;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Future

    /**
     * As {@link java.util.concurrent.FutureTask#cancel}: cancels the timer unless it has already completed, failed or
     * been cancelled, and returns whether it did. A task that has not started never starts. A running task runs on
     * (its outcome is dropped), and is interrupted if {@code mayInterruptIfRunning}; the interrupt never reaches the
     * next task its thread runs. A periodic timer runs no more. Safe from any thread; never blocks. For the strict
     * answer (true only if the task never started), see {@link #cancelIfNotStarted()}.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        for (;;) {
            int p = phase();
            if (p == RUNNING) {
                if (casPhase(RUNNING, mayInterruptIfRunning ? INTERRUPTING : CANCELLED)) {
                    if (mayInterruptIfRunning) {
                        try {
                            Thread t = runnerThread(); // acquired by the cas above from the runner's startRun
                            if (t != null) {
                                t.interrupt();
                            }
                        } finally {
                            setPhase(INTERRUPTED);
                        }
                    }
                    cancelledWhileRunning();
                    return true;
                }
            } else if (p == NEW || p == RETURNED) {
                if (casPhase(p, CANCELLED)) {
                    cancelledBeforeStart(p);
                    return true;
                }
            } else if (p == CLAIMED) {
                if (casPhase(CLAIMED, CANCELLED)) {
                    cancelledWhileRunning(); // the task never starts: the runner sees that at its start
                    return true;
                }
            } else {
                return false;
            }
        }
    }

    @Override
    public boolean cancelIfNotStarted() {
        for (;;) {
            int p = phase();
            if (p != NEW && p != RETURNED) {
                return false;
            }
            if (casPhase(p, CANCELLED)) {
                cancelledBeforeStart(p);
                return true;
            }
        }
    }

    /**
     * After a successful cancel from NEW or RETURNED (the common case, kept small enough to inline into both
     * cancels): no runner, so free the task now; wake waiters; account.
     */
    private void cancelledBeforeStart(int from) {
        taskOrOutcome = null;
        forgetRunner();
        releaseWaiters();
        timer.onCancelled(this, from);
    }

    /** After a successful cancel of a run claimed or in progress: the runner frees the task itself. */
    private void cancelledWhileRunning() {
        releaseWaiters();
        // A timer handed back by shutdownNow and then run by its caller was already accounted for.
        timer.onCancelled(this, handedBack() ? RETURNED : RUNNING);
    }

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
        int p = phase();
        if (p < COMPLETED) {
            p = awaitDone(false, 0L);
        }
        return report(p);
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        int p = phase();
        if (p < COMPLETED && (p = awaitDone(true, nanos)) < COMPLETED) {
            throw new TimeoutException("not done after " + timeout + " " + unit);
        }
        return report(p);
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

    /** Blocks until done, interrupted or timed out; returns the phase seen last. */
    private int awaitDone(boolean timed, long nanos) throws InterruptedException {
        final long deadline = timed ? System.nanoTime() + nanos : 0L;
        WaitNode q = null;
        boolean queued = false;
        for (;;) {
            int p = phase();
            if (p >= COMPLETED) {
                // INTERRUPTING is done for get(): cancelled.
                if (q != null) {
                    q.thread = null;
                }
                return p;
            }
            if (Thread.interrupted()) {
                if (q != null) {
                    removeWaiter(q);
                }
                throw new InterruptedException();
            }
            if (q == null) {
                if (timed && nanos <= 0L) {
                    return p;
                }
                q = new WaitNode();
            } else if (!queued) {
                q.next = waiters;
                queued = WAITERS.compareAndSet(this, q.next, q);
            } else if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    removeWaiter(q);
                    return phase();
                }
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /** Called after the terminal phase is stored: wakes every waiter. */
    final void releaseWaiters() {
        // Read first, so the common case (nobody waits) costs a load, not an atomic swap. Safe: the caller stored the
        // terminal phase (volatile) before this volatile load, and a waiter's push (cas) comes before its own load
        // of the phase, so if this load misses a push, that waiter's load sees the terminal phase and it never parks.
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

    // ----------------------------------------------------------------------------------------------------------
    // Delayed

    /**
     * The time left until the timer is due, at tick precision: the tick in which it becomes due, rounded up, so
     * never less than the exact remaining delay and at most one tick more. Negative once due.
     */
    @Override
    public long getDelay(TimeUnit unit) {
        phase(); // lv: acquires the key a periodic runner wrote before its CAS back to NEW
        return unit.convert(timer.clock.nanosUntilTick(startKey()), TimeUnit.NANOSECONDS);
    }

    /**
     * The key of the timer's next start: for a one-shot, the key it was scheduled with (written before its offer,
     * never changed after except by the owner, to the same value). {@link PeriodicTimer} answers its next period's.
     */
    long startKey() {
        return key;
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTimer && ((ScheduledTimer<?>) other).timer == timer) {
            return Long.compare(startKey(), ((ScheduledTimer<?>) other).startKey());
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public String toString() {
        int p = phase();
        String status;
        switch (p) {
            case NEW: status = "pending"; break;
            case RETURNED: status = "returned by shutdownNow"; break;
            case CLAIMED:
            case RUNNING:
            case COMPLETING: status = "running"; break;
            case COMPLETED: status = "completed"; break;
            case FAILED: status = "failed"; break;
            default: status = "cancelled"; break;
        }
        return getClass().getSimpleName() + "[" + status + ", due tick " + startKey() + "]";
    }
}
