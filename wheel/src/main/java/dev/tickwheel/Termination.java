package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a timer ends: the owner thread's exit, the timers it hands back to {@code shutdownNow}, its failure, and the
 * waits on all of that ({@code awaitTermination}, {@code isTerminated}, {@code close}).
 *
 * <h2>Concurrency</h2>
 * The owner (or, once it is gone or never started, the {@code shutdownNow} winner) writes {@link #handedBack} and
 * {@link #failure} and then {@link #exit}s: it stores {@link #ownerDone} (sv) and counts the latch down, which
 * publishes everything it did to the threads that wait on the latch or read {@code ownerDone}.
 *
 * <p>The owner may exit while a periodic run that {@code shutdown()} found in progress is still running (on a user
 * executor the timer cannot see it), so termination also waits for {@link #holds}: one per {@code shutdown()} call
 * still marking runs, one per marked run until its runner has ended the timer. A {@code shutdown()} takes its hold
 * (an atomic add) before it stores the run state, and the owner exits only after reading that state, so a thread
 * that sees the owner's exit also sees the hold, or its release.
 */
final class Termination {

    private static final VarHandle HOLDS;

    static {
        try {
            HOLDS = MethodHandles.lookup().findVarHandle(Termination.class, "holds", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * What termination waits for besides the owner and the pool: {@code shutdown()} calls marking periodic runs, and
     * periodic runs marked {@link TimerState#LAST_RUN} that have not yet returned. Added to (getAndAdd) by
     * {@code shutdown()} callers, subtracted from by them and by the runners, each after everything the count stands
     * for is done (a runner: the timer ended, its thread let go); read (lv) by isTerminated and awaitTermination,
     * which so see every store the releasers made before. The subtraction that brings it to 0 notifies
     * {@link #holdsLock}'s waiters.
     */
    private volatile int holds;
    /** Monitor for awaitTermination's wait on {@link #holds}: only termination waits block on it, never a timer. */
    private final Object holdsLock = new Object();
    /**
     * The periodic timers whose run a {@code shutdown()} marked and whose runner has not yet ended them: so that
     * {@code close()} from inside such a run (on a user executor's thread, after a cancel took the timer out of the
     * timer's registry) knows it is on a timer thread and does not wait for itself. Added before the marking CAS,
     * removed when the hold is given back; any thread. Shutdown only: empty otherwise.
     */
    final java.util.Set<PeriodicTimer> markedRuns = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Set once termination has been seen (isTerminated, awaitTermination): it stays seen, as the JDK's executors'
     * termination does, although a later {@code shutdown()} call takes a hold of its own. sv once; lv.
     */
    private volatile boolean terminationSeen;

    private final CountDownLatch ownerExited = new CountDownLatch(1);
    /** Set (sv) once the owner has exited, after which no thread polls the queues except the shutdownNow winner. */
    private volatile boolean ownerDone;
    /** The timers the owner collected for shutdownNow; sv before ownerExited counts down. */
    private volatile List<Runnable> handedBack;
    /** Why the owner failed, or null. sv by the failing owner before it stores STOP; lv by producers and runners. */
    private volatile Throwable failure;

    boolean ownerDone() {
        return ownerDone;
    }

    Throwable failure() {
        return failure;
    }

    void fail(Throwable e) {
        failure = e;
    }

    /**
     * @return the cause every timer that the owner's failure ends fails with: an {@link IllegalStateException} whose
     *         cause is the owner's failure {@code e}
     */
    static IllegalStateException ownerFailed(Throwable e) {
        return new IllegalStateException("the WheelTimer owner thread failed", e);
    }

    /** Publishes the hand-back list early, so that what was claimed reaches the caller even if collecting fails. */
    void publishHandedBack(List<Runnable> out) {
        handedBack = out;
    }

    /**
     * The owner's exit: publish the hand-back list (if any), shut the pool down, then release every waiter.
     *
     * @param returned the timers collected for shutdownNow, or null
     */
    void exit(List<Runnable> returned, TaskDispatch dispatch) {
        if (returned != null) {
            handedBack = returned;
        }
        try {
            dispatch.shutdown();
        } finally {
            // Whatever the pool's shutdown does, waiters in shutdownNow and awaitTermination are released.
            ownerDone = true;
            ownerExited.countDown();
        }
    }

    /** Waits for the owner's exit, uninterruptibly (shutdownNow's promise); the caller's interrupt is kept. */
    void awaitOwnerExit() {
        boolean interrupted = false;
        for (;;) {
            try {
                ownerExited.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the hand-back list, once: later calls get an empty list */
    List<Runnable> takeHandedBack() {
        List<Runnable> out = handedBack;
        handedBack = null;
        return out == null ? new ArrayList<>() : out;
    }

    /** @return whether nothing was handed back and the owner did not fail: it exited on its own after shutdown() */
    boolean exitedWithoutHandBack() {
        return handedBack == null && failure == null;
    }

    /** Takes a hold: a {@code shutdown()} call begins (before its store of the run state), or marks a run. */
    void hold() {
        HOLDS.getAndAdd(this, 1);
    }

    /** Gives a hold back: a marked run has ended its timer and let go of it, or a shutdown() has marked every run. */
    void release() {
        if ((int) HOLDS.getAndAdd(this, -1) == 1) {
            synchronized (holdsLock) {
                holdsLock.notifyAll();
            }
        }
    }

    boolean isTerminated(TaskDispatch dispatch) {
        if (terminationSeen) {
            return true;
        }
        boolean t = ownerDone && holds == 0 && dispatch.isTerminated();
        if (t) {
            terminationSeen = true;
        }
        return t;
    }

    /** @return whether {@code me} runs one of the periodic runs a shutdown marked (see {@link #markedRuns}) */
    boolean runsMarkedRun(Thread me) {
        for (PeriodicTimer t : markedRuns) {
            if (t.runnerThread() == me) {
                return true;
            }
        }
        return false;
    }

    boolean awaitTermination(long timeout, TimeUnit unit, TaskDispatch dispatch) throws InterruptedException {
        if (terminationSeen) {
            return true;
        }
        boolean t = awaitTerminationOnce(timeout, unit, dispatch);
        if (t) {
            terminationSeen = true;
        }
        return t;
    }

    private boolean awaitTerminationOnce(long timeout, TimeUnit unit, TaskDispatch dispatch)
            throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        long deadline = System.nanoTime() + nanos;
        if (!ownerExited.await(nanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        if (holds != 0) {
            synchronized (holdsLock) {
                while (holds != 0) {
                    long left = deadline - System.nanoTime();
                    if (nanos <= 0 || left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(holdsLock, left);
                }
            }
        }
        // A timeout near Long.MIN_VALUE would wrap the remaining time around to centuries: no wait is no wait.
        return dispatch.awaitTermination(nanos <= 0 ? 0 : deadline - System.nanoTime());
    }

    /**
     * {@code close()}: shut down, then wait for termination; an interrupt while waiting turns into shutdownNow,
     * whose timers nobody receives, so they are cancelled rather than left with their get() waiting forever. The
     * interrupt is kept. From a thread of the timer's own (a task), it does not wait for itself.
     */
    void close(WheelTimer timer, TaskDispatch dispatch, boolean onTimerThread) {
        timer.shutdown();
        if (onTimerThread) {
            return;
        }
        boolean interrupted = false;
        while (!isTerminated(dispatch)) {
            try {
                if (awaitTermination(1, TimeUnit.DAYS, dispatch)) {
                    break;
                }
            } catch (InterruptedException e) {
                if (!interrupted) {
                    for (Runnable r : timer.shutdownNow()) {
                        ((java.util.concurrent.Future<?>) r).cancel(false);
                    }
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
