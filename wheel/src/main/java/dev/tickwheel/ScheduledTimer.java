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
 *   NEW ──run──▶ RUNNING ──▶ COMPLETED | FAILED            (one-shot)
 *   NEW ──cancel──▶ CANCELLED
 *   NEW ──shutdownNow collects──▶ RETURNED ──run (by the caller)──▶ RUNNING, or ──cancel──▶ CANCELLED
 *   NEW ──schedule revoked on shutdown──▶ CANCELLED          (the producer then throws RejectedExecutionException)
 *   NEW ──executor rejects──▶ FAILED
 * </pre>
 * Cancel and fire both start from NEW, so exactly one of them wins: a one-shot is cancelled only if it never
 * starts, which is stricter than {@link java.util.concurrent.FutureTask}, whose {@code cancel} also succeeds
 * against a running task. {@link PeriodicTimer} adds RUNNING &rarr; CANCELLED (a cancel during a run stops later
 * runs) and RUNNING &rarr; NEW (the next period).
 *
 * <p>The node's wheel fields ({@code key}, links) are written by the producer before the node is offered to the
 * start queue (a release; the owner's poll acquires), and after that only by the owner thread, except that
 * {@link PeriodicTimer} writes {@code key} for the next period while the node is out of the wheel and before it
 * offers the node again.
 *
 * <p>Memory: the object header, the wheel's key, two links and wheel reference, and the four fields here come to
 * 48 bytes with compressed references, which is the whole cost of a pending one-shot timer.
 */
class ScheduledTimer<V> extends TimingWheel.Node implements RunnableScheduledFuture<V> {

    // Phases: the low byte of state. Below COMPLETED: not done. From INTERRUPTING up: cancelled.
    static final int NEW = 0;
    static final int RETURNED = 1;
    static final int RUNNING = 2;
    /** Transient: the outcome is being written (periodic timers, whose RUNNING a cancel may also leave). */
    static final int COMPLETING = 3;
    static final int COMPLETED = 4;
    static final int FAILED = 5;
    static final int INTERRUPTING = 6;
    static final int CANCELLED = 7;
    /** Cancelled by cancel(true), which interrupted the runner; the runner then clears that interrupt. */
    static final int INTERRUPTED = 8;
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
     * The task until the timer ends, then its outcome (the result, or a Throwable for FAILED). Written plain by the
     * thread that ends the timer, before it stores the terminal phase (sv), which publishes the outcome to readers
     * that load the phase (lv) first; read plain by the thread that won RUNNING. A cancel nulls it after its CAS, to
     * free the task: no reader looks at the outcome of a cancelled timer.
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
     * The run's CAS: NEW &rarr; RUNNING (dispatched by the timer, or run early by a caller), or RETURNED &rarr;
     * RUNNING (run by the caller of shutdownNow, whose timer was already accounted for).
     *
     * @return which of the two won, or NOT_CLAIMED if the timer was cancelled, ran or is running
     */
    final int claimRun() {
        if (casPhase(NEW, RUNNING)) {
            return CLAIMED_NEW;
        }
        return casPhase(RETURNED, RUNNING) ? CLAIMED_RETURNED : NOT_CLAIMED;
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
        Object outcome;
        int phase;
        try {
            outcome = call(taskOrOutcome);
            phase = COMPLETED;
        } catch (Throwable t) {
            outcome = t;
            phase = FAILED;
        }
        taskOrOutcome = outcome;
        // Only the runner may leave RUNNING for a one-shot; the volatile store releases the outcome.
        setPhase(phase);
        releaseWaiters();
        if (!returned) {
            timer.onEnded(this, phase == FAILED);
        }
    }

    @SuppressWarnings("unchecked")
    final Object call(Object task) throws Exception {
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
        taskOrOutcome = cause;
        setPhase(FAILED);
        releaseWaiters();
        timer.onEnded(this, true);
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
        releaseWaiters();
        return true;
    }

    // ----------------------------------------------------------------------------------------------------------
    // Future

    /**
     * Cancels the timer if it has not started: then it never runs and this returns true. Returns false if it has
     * already started (it then runs to its end), completed or been cancelled. {@code mayInterruptIfRunning} has no
     * effect on a one-shot timer, since a running one cannot be cancelled. Safe from any thread; never blocks.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        for (;;) {
            int p = phase();
            if (p != NEW && p != RETURNED) {
                return false;
            }
            if (casPhase(p, CANCELLED)) {
                taskOrOutcome = null;
                releaseWaiters();
                timer.onCancelled(this, p);
                return true;
            }
        }
    }

    @Override
    public boolean isCancelled() {
        return phase() >= INTERRUPTING;
    }

    @Override
    public boolean isDone() {
        return phase() >= COMPLETED;
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
        return unit.convert(timer.nanosUntilTick(key), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTimer && ((ScheduledTimer<?>) other).timer == timer) {
            return Long.compare(key, ((ScheduledTimer<?>) other).key);
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
            case RUNNING:
            case COMPLETING: status = "running"; break;
            case COMPLETED: status = "completed"; break;
            case FAILED: status = "failed"; break;
            default: status = "cancelled"; break;
        }
        return getClass().getSimpleName() + "[" + status + ", due tick " + key + "]";
    }
}
