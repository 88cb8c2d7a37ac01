package dev.tickwheel.bench;

/**
 * One peer timer behind the smallest common surface: start a one-shot timer, cancel it, shut down. Delays are whole
 * milliseconds because Kafka's timer takes nothing finer; every peer gets the same delays.
 *
 * <p>Start and cancel may be called from any number of threads at once, as the peers allow.
 */
public interface TimerAdapter extends AutoCloseable {

    /** Starts a one-shot timer that runs the task after {@code delayMs}; returns its handle for {@link #cancel}. */
    Object schedule(Task task, long delayMs);

    /** Cancels a timer started by {@link #schedule}; a no-op if it already fired or was cancelled. */
    void cancel(Object handle);

    /** Stops the timer's threads, dropping pending timers; waits for the threads to end. */
    @Override
    void close();

    /**
     * Turns the timer's own lateness record on, if it keeps one (Tickwheel's {@code TimerMetrics}), and starts it
     * afresh. Called once at creation (so that the record is on before a measured window opens: no code path changes
     * then) and again when the window opens, where it only resets.
     */
    default void resetOwnLateness() {
    }

    /**
     * @return the timer's own lateness record since {@link #resetOwnLateness()}, as {count, p50, p99, p99.9, max}
     *         in nanoseconds, or null if it keeps none
     */
    default long[] ownLateness() {
        return null;
    }

    /**
     * @return the timer's own hand-off counts since creation, as {fired, hand-offs, worker wake-ups, commands past
     *         the command queues' rings} (Tickwheel's {@code TimerMetrics}), or null if it keeps none
     */
    default long[] handOffCounts() {
        return null;
    }
}
