package dev.tickwheel.bench;

import java.util.SplittableRandom;

/**
 * One producer's ring of pending timers, the workload of the schedule + cancel scenarios: each step starts a new
 * timer 30-60 s out and cancels the oldest, so the producer always has {@code pending} timers outstanding, as a
 * server with that many requests in flight, each with a timeout, would. The delays come from a precomputed random
 * table so that every peer gets the same sequence and no random number is drawn inside the measurement.
 *
 * <p>Not thread-safe: one ring per producer thread.
 */
public final class ProducerRing {
    /** The shortest delay, in ms: a timer outlives its place in the ring only if the ring turns slower than this. */
    public static final long MIN_DELAY_MS = 30_000;
    /** The longest delay, in ms. */
    public static final long MAX_DELAY_MS = 60_000;

    private static final int DELAYS = 1 << 16;

    private final Object[] handles;
    private final long[] delays = new long[DELAYS];
    private int next;

    /** Starts {@code pending} timers on the timer. */
    public ProducerRing(TimerAdapter timer, Task task, int pending, long seed) {
        if (pending < 1) {
            throw new IllegalArgumentException("pending " + pending + " must be at least 1");
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < DELAYS; i++) {
            delays[i] = random.nextLong(MIN_DELAY_MS, MAX_DELAY_MS + 1);
        }
        handles = new Object[pending];
        for (int i = 0; i < pending; i++) {
            handles[i] = timer.schedule(task, delays[i & (DELAYS - 1)]);
        }
    }

    /** One operation: start a new timer in the oldest timer's place, then cancel the oldest. */
    public Object step(TimerAdapter timer, Task task) {
        int i = next;
        Object oldest = handles[i];
        handles[i] = timer.schedule(task, delays[i & (DELAYS - 1)]);
        timer.cancel(oldest);
        next = i + 1 == handles.length ? 0 : i + 1;
        return oldest;
    }

    /** Cancels every timer of the ring. */
    public void cancelAll(TimerAdapter timer) {
        for (Object h : handles) {
            timer.cancel(h);
        }
    }

    /** @return the timers outstanding */
    public int pending() {
        return handles.length;
    }
}
