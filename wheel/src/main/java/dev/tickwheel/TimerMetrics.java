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
    private final long handOffs;
    private final long workerWakeups;
    private final long commandRoom;
    private final long commandSpills;
    private final Lateness lateness;

    TimerMetrics(long pending, long scheduled, long fired, long cancelled, long rejected, long lagNanos,
                 long periodicFailures, long handOffs, long workerWakeups, long commandRoom, long commandSpills,
                 Lateness lateness) {
        this.commandRoom = commandRoom;
        this.commandSpills = commandSpills;
        this.handOffs = handOffs;
        this.workerWakeups = workerWakeups;
        this.pending = pending;
        this.scheduled = scheduled;
        this.fired = fired;
        this.cancelled = cancelled;
        this.rejected = rejected;
        this.lagNanos = lagNanos;
        this.periodicFailures = periodicFailures;
        this.lateness = lateness;
    }

    /** @return timers accepted and not yet ended (ran, failed, cancelled or handed back by shutdownNow) */
    public long pending() {
        return pending;
    }

    /** @return timers accepted since creation (a periodic timer counts once) */
    public long scheduled() {
        return scheduled;
    }

    /**
     * @return runs handed off to run since creation (each period counts): by the owner thread, and, for work due now
     *         on the timer's own pool, by the thread that submitted it
     */
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

    /**
     * @return pushes into the timer's own pool since creation: one per owner step that handed off due timers (the
     *         whole step's timers go as one chain), and one per task due now submitted straight to the pool (one
     *         that a pool task submits and its worker keeps to run next, with no push, counts too); 0 when tasks run
     *         on your executor or on the owner thread. {@code fired() / handOffs()} is the mean batch
     */
    public long handOffs() {
        return handOffs;
    }

    /**
     * @return parked workers of the timer's own pool unparked since creation (at most one per hand-off, none while
     *         a worker is spinning or when every worker is busy; a worker that takes a timer and leaves more queued
     *         may wake one more); 0 when tasks run elsewhere
     */
    public long workerWakeups() {
        return workerWakeups;
    }

    /**
     * @return how many commands (starts and cancels) the command queues' rings can hold now, both queues: the first
     *         rings, allocated with the timer, and the spare rings a backlog has needed since, which are kept (up to
     *         {@link WheelTimer.Builder#pooledQueueChunks} chunks of 1,024 a queue). A reference each: 4 bytes with
     *         compressed references
     */
    public long commandQueueRoom() {
        return commandRoom;
    }

    /**
     * @return commands (starts and cancels) since creation that found every ring of their queue full and went into
     *         linked chunks allocated for them (about 4 bytes each, garbage once the owner has taken them): if this
     *         grows in the steady state, the owner thread is often that far behind, and a larger
     *         {@link WheelTimer.Builder#pooledQueueChunks} would keep that memory instead
     */
    public long commandQueueSpills() {
        return commandSpills;
    }

    /**
     * @return how late runs started, since the timer was created or since {@link WheelTimer#resetLateness()}: the
     *         distribution of (start of the run − the start of the tick the timer was due in). Empty unless the
     *         record is on ({@link WheelTimer.Builder#recordLateness()}, {@link WheelTimer#recordLateness(boolean)};
     *         off by default: it costs a clock read per run). While it is on, every run the timer starts counts
     *         (each period of a periodic timer; not a run of a timer handed back by shutdownNow, nor one a caller
     *         starts before its time). The deadline is the tick's start, so the delay's rounding up to the tick (at
     *         most one tick, 1 µs by default) is not counted
     */
    public Lateness lateness() {
        return lateness;
    }

    @Override
    public String toString() {
        return "TimerMetrics[pending=" + pending + ", scheduled=" + scheduled + ", fired=" + fired + ", cancelled="
                + cancelled + ", rejected=" + rejected + ", lagNanos=" + lagNanos + ", periodicFailures="
                + periodicFailures + ", handOffs=" + handOffs + ", workerWakeups=" + workerWakeups + ", commandQueueRoom=" + commandRoom
                + ", commandQueueSpills=" + commandSpills + ", lateness="
                + lateness + "]";
    }

    /**
     * A distribution of lateness in nanoseconds, from {@link TimerMetrics#lateness()}: log-linear buckets, exact
     * below 32 ns and within 1/32 (3.1%) above the true value beyond, as HdrHistogram does. Immutable.
     */
    public static final class Lateness {
        private final long[] counts;
        private final long count;
        private final long max;

        Lateness(long[] counts, long maxSinceCreation) {
            this.counts = counts;
            long n = 0;
            int highest = -1;
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    n += counts[i];
                    highest = i;
                }
            }
            this.count = n;
            this.max = highest < 0 ? 0 : Math.min(LatenessHistogram.highestIn(highest), maxSinceCreation);
        }

        /** @return the runs recorded */
        public long count() {
            return count;
        }

        /**
         * @param percentile in (0, 100]
         * @return the lateness that {@code percentile} percent of the runs did not exceed (within 3.1% above), or
         *         0 if none was recorded
         * @throws IllegalArgumentException if percentile is not in (0, 100]
         */
        public long percentileNanos(double percentile) {
            if (!(percentile > 0 && percentile <= 100)) {
                throw new IllegalArgumentException("percentile " + percentile + " is outside (0, 100]");
            }
            if (count == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(percentile / 100 * count);
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return Math.min(LatenessHistogram.highestIn(i), max);
                }
            }
            return max;
        }

        /** @return the median */
        public long p50Nanos() {
            return percentileNanos(50);
        }

        /** @return the 90th percentile */
        public long p90Nanos() {
            return percentileNanos(90);
        }

        /** @return the 99th percentile */
        public long p99Nanos() {
            return percentileNanos(99);
        }

        /** @return the 99.9th percentile */
        public long p999Nanos() {
            return percentileNanos(99.9);
        }

        /** @return the largest (exact if no reset came between; else within 3.1% above) */
        public long maxNanos() {
            return max;
        }

        @Override
        public String toString() {
            return "Lateness[count=" + count + ", p50=" + p50Nanos() + "ns, p90=" + p90Nanos() + "ns, p99="
                    + p99Nanos() + "ns, p99.9=" + p999Nanos() + "ns, max=" + max + "ns]";
        }
    }
}
