package dev.tickwheel.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The single-threaded wheel workload of scenario 7, on virtual time: a ring of {@code pending} timers 30-60 s out;
 * one operation removes the oldest timer, adds a new one 30-60 s out, moves the clock on by 1 µs and advances the
 * wheel to it. Both wheels get the same deadlines (nanoseconds), the same tick of 2^20 ns (about 1.05 ms; Agrona
 * wants a power of two) and are advanced tick by tick, the finest either can honour. The ring turns in
 * {@code pending} µs of virtual time, far below 30 s, so no timer expires: expiries are counted and must be zero.
 */
public abstract class WheelLoad {
    /** log2 of the tick in ns. */
    public static final int TICK_SHIFT = 20;
    /** Virtual time per operation. */
    public static final long OP_NANOS = 1_000;

    private static final int DELAYS = 1 << 16;

    private final long[] delays = new long[DELAYS];
    /** The virtual clock, in ns. */
    protected long now;
    protected int next;
    /** Timers that expired: must stay zero, else the workload was not remove + add. */
    protected long expired;

    protected WheelLoad(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < DELAYS; i++) {
            delays[i] = random.nextLong(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(60) + 1);
        }
    }

    /** The deadline of the i-th timer of the ring, from now. */
    protected final long deadline(int i) {
        return now + delays[i & (DELAYS - 1)];
    }

    /** Adds {@code pending} timers. */
    public abstract void fill(int pending);

    /** Remove the oldest, add a new one, advance the clock by {@link #OP_NANOS}. */
    public abstract long op();

    /** @return timers expired so far */
    public final long expired() {
        return expired;
    }

    /** @return timers in the wheel */
    public abstract long size();
}
