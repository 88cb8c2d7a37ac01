package dev.tickwheel;

/**
 * A periodic timer: {@code scheduleAtFixedRate} (period &gt; 0) or {@code scheduleWithFixedDelay} (period &lt; 0,
 * the negated delay), as in {@link java.util.concurrent.ScheduledThreadPoolExecutor}.
 *
 * <h2>Concurrency</h2>
 * After each run the runner moves RUNNING &rarr; NEW by CAS and offers the node to the start queue again, so runs
 * never overlap. A cancel may also leave RUNNING (to CANCELLED, or through INTERRUPTING when it interrupts the
 * runner); whichever CAS wins decides whether there is a next run, so after {@code cancel} returns true there is
 * no further start. An exception from the task, or the timer's shutdown, ends it.
 */
final class PeriodicTimer extends ScheduledTimer<Void> {

    /** Positive: fixed rate; negative: fixed delay. Final. */
    private final long period;

    /**
     * The scheduled time of the next run in nanoseconds since the timer's origin. Written plain by the runner while
     * the node is out of the wheel, before the offer that publishes it to the owner.
     */
    private long timeNanos;

    /** The thread running the task now, for cancel(true). sv by the runner; lv by cancel. */
    private volatile Thread runner;

    PeriodicTimer(WheelTimer timer, Runnable task, long timeNanos, long key, long period) {
        super(timer, task, 0, key);
        this.timeNanos = timeNanos;
        this.period = period;
    }

    @Override
    public boolean isPeriodic() {
        return true;
    }

    @Override
    public void run() {
        int claim = claimRun();
        if (claim == NOT_CLAIMED) {
            return;
        }
        boolean returned = claim == CLAIMED_RETURNED;
        Runnable task = (Runnable) task();
        Throwable failure = null;
        runner = Thread.currentThread();
        try {
            task.run();
        } catch (Throwable t) {
            failure = t;
        }
        runner = null;
        if (failure != null) {
            if (casPhase(RUNNING, COMPLETING)) {
                setOutcome(failure);
                setPhase(FAILED);
                releaseWaiters();
                if (!returned) {
                    timer.onEnded(this, true);
                }
            } else {
                afterCancelledRun();
            }
            return;
        }
        if (returned || timer.isShutdown()) {
            // A run by the caller of shutdownNow, or the timer is shutting down: periodic timers end here.
            if (casPhase(RUNNING, CANCELLED)) {
                setOutcome(null);
                releaseWaiters();
                if (!returned) {
                    timer.onPeriodicEndedByShutdown(this);
                }
            } else {
                afterCancelledRun();
            }
            return;
        }
        long next;
        if (period > 0) {
            next = WheelTimer.saturatedAdd(timeNanos, period);
        } else {
            next = WheelTimer.saturatedAdd(timer.elapsedNanos(), -period);
        }
        timeNanos = next;
        key = timer.keyOf(next);
        if (casPhase(RUNNING, NEW)) {
            timer.resubmit(this);
        } else {
            afterCancelledRun();
        }
    }

    /**
     * The run lost its CAS to a cancel. If that was cancel(true), wait until it has delivered its interrupt, then
     * clear it, so the interrupt does not leak into whatever this thread runs next.
     */
    private void afterCancelledRun() {
        setOutcome(null); // free the task
        int p;
        while ((p = phase()) == INTERRUPTING) {
            Thread.yield();
        }
        if (p == INTERRUPTED) {
            Thread.interrupted();
        }
    }

    /**
     * Stops all further runs. Before a run starts, or while it runs: returns true, and a running task is
     * interrupted if {@code mayInterruptIfRunning}; it then runs no more. Returns false once the timer has ended.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        for (;;) {
            int p = phase();
            if (p == NEW || p == RETURNED) {
                if (casPhase(p, CANCELLED)) {
                    setOutcome(null);
                    releaseWaiters();
                    timer.onCancelled(this, p);
                    return true;
                }
            } else if (p == RUNNING) {
                if (casPhase(RUNNING, mayInterruptIfRunning ? INTERRUPTING : CANCELLED)) {
                    if (mayInterruptIfRunning) {
                        boolean interrupted = false;
                        try {
                            Thread t = runner;
                            if (t != null) {
                                t.interrupt();
                                interrupted = true;
                            }
                        } finally {
                            setPhase(interrupted ? INTERRUPTED : CANCELLED);
                        }
                    }
                    releaseWaiters();
                    // A timer handed back by shutdownNow and run by its caller was already accounted for.
                    timer.onCancelled(this, handedBack() ? RETURNED : RUNNING);
                    return true;
                }
            } else {
                return false;
            }
        }
    }
}
