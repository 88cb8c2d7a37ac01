package dev.tickwheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A periodic timer: {@code scheduleAtFixedRate} (period &gt; 0) or {@code scheduleWithFixedDelay} (period &lt; 0,
 * the negated delay), as in {@link java.util.concurrent.ScheduledThreadPoolExecutor}.
 *
 * <h2>Concurrency</h2>
 * Each run claims the timer (NEW &rarr; CLAIMED), publishes its thread in {@link #runner} and starts (CLAIMED
 * &rarr; RUNNING), as a one-shot does. After the task returns the runner moves RUNNING &rarr; NEW by CAS and offers
 * the node to the start queue again, so runs never overlap. A cancel may leave CLAIMED or RUNNING instead (to
 * CANCELLED, or through INTERRUPTING when it interrupts the runner); whichever CAS wins decides whether there is a
 * next run, so after {@code cancel} returns no run starts. {@code shutdown()} ends every periodic timer that is not
 * running before it returns ({@link #endByShutdown}), and marks a running one instead (RUNNING &rarr; RUNNING with
 * {@link #LAST_RUN}, by CAS): its future reads not done until the run returns, as with the JDK's executor, and the
 * runner's CAS back to NEW, which expects the word without that bit, fails, so the runner ends the timer cancelled
 * and no run starts after {@code shutdown()} returns. An exception from the task ends it,
 * unless the timer goes on after failures ({@code continuePeriodicOnFailure}): then an {@link Exception} is reported
 * and the run ends as a normal return does.
 *
 * <p>The next period's key goes into {@link #nextKey}, never into the wheel's {@code key}: a caller may run the
 * timer (its public {@code run()}) while the owner still has it linked in the wheel, where the owner reads
 * {@code key} as it cascades the node. The owner copies {@code nextKey} when it takes the start command.
 */
final class PeriodicTimer extends ScheduledTimer<Void> {

    /** Positive: fixed rate; negative: fixed delay. Final. */
    private final long period;

    /**
     * The scheduled time of the next run in nanoseconds since the timer's origin. Written plain by the runner that
     * owns the run (between its claim and its CAS back to NEW), read by the next runner, which reaches it through
     * that CAS and the start queue.
     */
    private long timeNanos;

    /**
     * The key of the next start. Written plain by the constructor and by the runner before the CAS back to NEW and
     * the offer that publish it; read by the owner after its poll (an acquire) and by {@code getDelay} after a
     * volatile load of the phase.
     */
    private long nextKey;

    /**
     * The thread running the task, for cancel(true). Written plain by the claim winner before {@code startRun}'s
     * CAS (a release); read by a cancel only after its CAS from RUNNING (an acquire). Left set between runs (the
     * next claim winner overwrites it before its own CAS; clearing it after the CAS back to NEW could erase that
     * store), cleared when the timer ends: by the run that ends it, or by whoever ends it between runs; that clear
     * is volatile (RUNNER), as cancelAndAwait reads it (volatile) to learn that the last run has left.
     */
    private Thread runner;

    private static final VarHandle RUNNER;

    static {
        try {
            RUNNER = MethodHandles.lookup().findVarHandle(PeriodicTimer.class, "runner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PeriodicTimer(WheelTimer timer, Runnable task, long timeNanos, long key, long period) {
        super(timer, task, 0, key);
        this.timeNanos = timeNanos;
        this.nextKey = key;
        this.period = period;
    }

    @Override
    public boolean isPeriodic() {
        return true;
    }

    @Override
    long startKey() {
        return nextKey;
    }

    @Override
    Thread runnerThread() {
        return runner;
    }

    @Override
    void clearRun() {
        RUNNER.setVolatile(this, null); // volatile: a cancelAndAwait waiter reads it to learn the run has left
        setOutcome(null); // free the task
    }

    @Override
    void forgetRunner() {
        // Ended between runs: no claim can follow, so no next runner's store is overwritten.
        RUNNER.setVolatile(this, null);
    }

    /** A run is in progress while claimed or running, and once the timer has ended until its last runner left. */
    @Override
    boolean runInProgress() {
        int p = phase();
        if (p == CLAIMED || p == RUNNING || p == INTERRUPTING) {
            return true;
        }
        return p != NEW && p != DISPATCHED && p != RETURNED && RUNNER.getVolatile(this) != null;
    }

    @Override
    boolean run(boolean byPool) {
        int claim = claimRun(byPool);
        if (claim == NOT_CLAIMED) {
            return false;
        }
        boolean returned = claim == CLAIMED_RETURNED;
        Runnable task = (Runnable) task();
        runner = Thread.currentThread(); // plain: released by startRun's cas
        if (!startRun()) {
            afterCancelledRun(); // cancelled (or ended by shutdown) between the claim and the start
            return false;
        }
        if (!returned) {
            timer().noteLateness(nextKey); // this period's key, until afterRun computes the next
        }
        Throwable failure = null;
        try {
            task.run();
        } catch (Throwable t) {
            failure = t;
        }
        boolean handedOn;
        try {
            handedOn = afterRun(returned, failure);
        } catch (Throwable e) { // a user time source that throws, no memory for the next offer: end, never hang get()
            if (casPhase(RUNNING, COMPLETING)) {
                runner = null;
                setOutcome(e);
                setPhase(FAILED);
                releaseWaiters();
                if (!returned) {
                    timer().onEnded(this);
                }
            } else if (phase() != NEW) {
                afterCancelledRun();
            }
            releaseIfLastRun();
            throw e;
        }
        if (handedOn) {
            timer().resubmit(this); // back to NEW by a CAS that found no LAST_RUN: this run was not marked
        } else {
            releaseIfLastRun();
        }
        return false; // a periodic timer's end is counted where it ends, never by the worker
    }

    /**
     * The run has ended the timer (or a cancel has, during the run): if shutdown() marked this run, give its hold on
     * termination back, last. Only after an end: the bit is sticky and set only on a RUNNING word, so on an ended
     * timer it was set during this run (a run that hands the timer on to NEW was not marked, and a later run's
     * mark is that run's). The timer's end and this run's letting go of it come before this volatile add, which
     * the waiter's read of the count acquires.
     */
    private void releaseIfLastRun() {
        if ((word() & LAST_RUN) != 0) {
            Termination termination = timer().termination;
            termination.markedRuns.remove(this);
            termination.release();
        }
    }

    /**
     * After the task returned (or threw): end the timer, or move it back to NEW for its next period.
     *
     * @return true if it moved the timer back to NEW (the caller then offers the next period), false if the timer
     *         has ended
     */
    private boolean afterRun(boolean returned, Throwable failure) {
        // The shutdown state first, then the failure: a failing owner stores its failure before STOP, so a runner
        // that sees STOP also sees why.
        boolean shutdown = returned || timer().isShutdown();
        Throwable ownerFailure = timer().ownerFailure();
        if (failure != null && ownerFailure == null && !(failure instanceof Error)
                && timer().periodicFailureHandler != null && phase() == RUNNING) {
            // The continuing policy: report the failure and go on to the next period, as after a normal return.
            timer().counters.continuedFailures.increment();
            report(failure);
            failure = null;
        }
        if (failure != null || ownerFailure != null) {
            // The task threw, or the timer failed while it ran: the timer ends exceptionally, as every pending
            // future does when the owner fails. The outcome is made before the CAS into COMPLETING: nothing may throw
            // between that CAS and the terminal phase. An allocation that failed there (OutOfMemoryError,
            // StackOverflowError) would leave the timer COMPLETING for good: never ended, get() parked forever.
            // Thrown out of here instead, it reaches run()'s catch, which ends the timer FAILED with it.
            Throwable outcome = failure != null ? failure
                    : Termination.ownerFailed(ownerFailure);
            if (casPhase(RUNNING, COMPLETING)) {
                runner = null;
                setOutcome(outcome);
                setPhase(FAILED);
                releaseWaiters();
                if (!returned) {
                    timer().onEnded(this);
                }
            } else {
                afterCancelledRun();
            }
            return false;
        }
        if (shutdown) {
            // A run by the caller of shutdownNow, or the timer is shutting down: periodic timers end here.
            endAfterShutdown(returned);
            return false;
        }
        long next;
        if (period > 0) {
            next = TickClock.saturatedAdd(timeNanos, period);
        } else {
            next = TickClock.saturatedAdd(timer().clock.elapsedNanos(), -period);
        }
        timeNanos = next;
        nextKey = timer().clock.keyOf(next);
        // Back to NEW only from a word without LAST_RUN (not casPhase, which would carry the bit into NEW): a
        // shutdown() that marked this run after the read of the run state above makes the CAS fail, and the loop
        // then ends the timer, so a marked timer never reads NEW, is never resubmitted and never runs again.
        for (long s = word(); phaseOf(s) == RUNNING; s = word()) {
            if ((s & LAST_RUN) != 0) {
                endAfterShutdown(false);
                return false;
            }
            if (casWord(s, withPhase(s, NEW))) {
                return true;
            }
        }
        afterCancelledRun();
        return false;
    }

    /** The run that returned was the last (the timer is shutting down): RUNNING &rarr; CANCELLED, unless a cancel won. */
    private void endAfterShutdown(boolean returned) {
        if (casPhase(RUNNING, CANCELLED)) {
            clearRun();
            releaseWaiters();
            if (!returned) {
                timer().onPeriodicEndedByShutdown(this);
            }
        } else {
            afterCancelledRun();
        }
    }

    /** Hands a run's failure to the timer's handler; a handler that throws is reported to this thread instead. */
    private void report(Throwable failure) {
        try {
            timer().periodicFailureHandler.accept(this, failure);
        } catch (Throwable e) {
            reportToThread(this, e);
        }
    }

    /** The default failure handler: the running thread's uncaught-exception handler. */
    static void reportToThread(TimerFuture<?> future, Throwable failure) {
        Thread me = Thread.currentThread();
        Thread.UncaughtExceptionHandler h = me.getUncaughtExceptionHandler();
        if (h != null) {
            try {
                h.uncaughtException(me, failure);
            } catch (Throwable ignored) {
                // a handler that fails in turn must not end the timer or kill the thread
            }
        }
    }

    /**
     * {@code shutdown()}'s end of this timer: from NEW (pending, wherever it waits), DISPATCHED (handed off) or CLAIMED
     * (a run claimed but not started: it never starts) to CANCELLED. A RUNNING one is not ended here: it is marked
     * {@link #LAST_RUN} (its future reads not done until the run returns; the runner then ends it cancelled and
     * starts no other run), and {@code termination} holds until the runner has done so. The hold is taken before the
     * marking CAS (and given back if the CAS fails), so the runner's release, which follows its read of the bit, can
     * never come first.
     *
     * @return the phase it ended from, or -1 if it had already ended (or was handed back by shutdownNow), or is
     *         running and was left to its runner
     */
    int endByShutdown(Termination termination) {
        for (;;) {
            long s = word();
            int p = phaseOf(s);
            // Handed back by a racing shutdownNow: the caller's now, already accounted for (the bit is sticky, and a
            // claim landing between this read and the CAS below fails the CAS, so the loop sees it).
            if ((p != NEW && p != DISPATCHED && p != CLAIMED && p != RUNNING) || (s & HANDED_BACK) != 0) {
                return -1;
            }
            if (p == RUNNING) {
                if ((s & LAST_RUN) != 0) {
                    return -1; // marked by another shutdown() caller
                }
                termination.markedRuns.add(this);
                termination.hold();
                if (casWord(s, s | LAST_RUN)) {
                    return -1;
                }
                termination.markedRuns.remove(this);
                termination.release(); // not marked (the run ended, or a cancel won): look again
                continue;
            }
            if (casWord(s, withPhase(s, CANCELLED))) {
                if (p == NEW || p == DISPATCHED) {
                    clearRun(); // no run in progress: forget the last runner and free the task now
                }
                releaseWaiters();
                return p;
            }
        }
    }
}
