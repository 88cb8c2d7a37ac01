package dev.tickwheel;

/**
 * A snapshot of a {@link WheelTimer}'s counters, from {@link WheelTimer#metrics()}. The counts are read one after
 * another without stopping the timer: at rest they are exact; under load they are not taken at one instant, and a
 * timer that starts or ends while they are read may still be counted as pending (never the other way round). A
 * timer's future completes just before its run or cancel is counted, so a thread that has just seen it complete may
 * briefly read it as pending.
 * Reading them costs a few volatile loads and {@link java.util.concurrent.atomic.LongAdder} sums; keeping them
 * costs {@code schedule} and {@code cancel} nothing (they are read off the command queues' indexes).
 */
public final class TimerMetrics {
    private final long pending;
    private final long scheduled;
    private final long fired;
    private final long cancelled;
    private final long rejected;
    private final long lagNanos;
    private final long periodicFailures;

    TimerMetrics(long pending, long scheduled, long fired, long cancelled, long rejected, long lagNanos,
                 long periodicFailures) {
        this.pending = pending;
        this.scheduled = scheduled;
        this.fired = fired;
        this.cancelled = cancelled;
        this.rejected = rejected;
        this.lagNanos = lagNanos;
        this.periodicFailures = periodicFailures;
    }

    /** @return timers accepted and not yet ended (ran, failed, cancelled or handed back by shutdownNow) */
    public long pending() {
        return pending;
    }

    /** @return timers accepted since creation (a periodic timer counts once) */
    public long scheduled() {
        return scheduled;
    }

    /** @return runs handed to the executor by the owner thread since creation (each period counts) */
    public long fired() {
        return fired;
    }

    /** @return successful {@code cancel} calls since creation */
    public long cancelled() {
        return cancelled;
    }

    /** @return {@code schedule} calls rejected (shutdown, maxPending) since creation */
    public long rejected() {
        return rejected;
    }

    /**
     * @return how far the owner thread was behind the clock after its last step: the age of the oldest due timer it
     *         had not yet handed out, in nanoseconds; 0 when it was caught up. The owner's own delay only: the time
     *         a due task then waits for a worker, or in a user executor's queue, is not included
     */
    public long lagNanos() {
        return lagNanos;
    }

    /**
     * @return periodic runs that threw and went on to their next period since creation, under
     *         {@link WheelTimer.Builder#continuePeriodicOnFailure}; 0 under the default policy, where a periodic task
     *         that throws ends (its future then holds the exception)
     */
    public long periodicFailures() {
        return periodicFailures;
    }

    @Override
    public String toString() {
        return "TimerMetrics[pending=" + pending + ", scheduled=" + scheduled + ", fired=" + fired + ", cancelled="
                + cancelled + ", rejected=" + rejected + ", lagNanos=" + lagNanos + ", periodicFailures="
                + periodicFailures + "]";
    }
}
