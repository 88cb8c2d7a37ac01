package dev.tickwheel;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Tick arithmetic: a timer's time source, its origin and its tick, and the pure functions that turn delays into
 * wheel keys. A key is a tick number counted from the origin (the time source's reading when the timer was built);
 * a timer is due at the start of its key's tick. Every rounding here is up, so nothing is ever early.
 *
 * <p>Immutable: every field is final and set in the constructor, so any thread may use it.
 */
final class TickClock {

    private final TimeSource time;
    private final long originNanos;
    final long tickNanos;
    /**
     * A delay up to this many nanoseconds (saturating) is certainly at most 2^31 - 1 ticks ahead of the tick now,
     * from any reading: with now = qT + r and d &lt;= (2^31 - 2) T, the key ceil((now + d) / T) is at most
     * q + 2^31 - 1. Lets {@code reschedule} check its limit without a second tick count on the common path.
     */
    final long maxRescheduleNanosUnchecked;
    /**
     * {@link #ticksIn} by multiplication instead of a 64-bit division, which every {@code schedule} pays in
     * {@link #keyOf} (a {@code div} of 40 to 90 cycles on many x86 cores; 15% of a producer's CPU samples in the
     * expiry shot, session 37): {@code floor(n / T) = high64(n * M) >>> S} for {@code 0 <= n < 2^63}, with
     * {@code M = ceil(2^(63 + k) / T)} and {@code S = k - 1}, where {@code k = ceil(log2 T)}. For T not a power of two
     * (so 2^(k-1) &lt; T &lt; 2^k), M lies in [2^63, 2^64), an unsigned long; and M = 2^(63+k) / T + e with
     * 0 &lt;= e &lt; 1 makes {@code n * M / 2^(63+k) = n / T + n e / 2^(63+k)}, whose second term is below
     * {@code 2^-k < 1 / T}: it never lifts a quotient past the next integer, since {@code n / T}'s fraction is at most
     * {@code (T - 1) / T}. For a power of two, M is 0 and S is log2 T (a shift). Both final.
     */
    private final long divMagic;
    private final int divShift;

    TickClock(TimeSource time, long tickNanos) {
        this.time = time;
        this.tickNanos = tickNanos;
        if (Long.bitCount(tickNanos) == 1) {
            this.divMagic = 0;
            this.divShift = Long.numberOfTrailingZeros(tickNanos);
        } else {
            int k = 64 - Long.numberOfLeadingZeros(tickNanos - 1);
            BigInteger t = BigInteger.valueOf(tickNanos);
            this.divMagic = BigInteger.ONE.shiftLeft(63 + k).add(t).subtract(BigInteger.ONE).divide(t).longValue();
            this.divShift = k - 1;
        }
        this.originNanos = time.nanoTime();
        long ticks = Integer.MAX_VALUE - 1L;
        this.maxRescheduleNanosUnchecked = tickNanos > Long.MAX_VALUE / ticks ? Long.MAX_VALUE : ticks * tickNanos;
    }

    /** @return nanoseconds since the origin, by the time source */
    long elapsedNanos() {
        return time.nanoTime() - originNanos;
    }

    /** @return whether the time source is the system's monotonic clock ({@link TimeSource#SYSTEM}) */
    boolean isSystem() {
        return time == TimeSource.SYSTEM;
    }

    /** @return the tick now: the one whose interval holds the current time */
    long tickNow() {
        return ticksIn(elapsedNanos());
    }

    /**
     * @return {@code nanos / tickNanos} (Java's division, which truncates toward zero), by multiplication for
     *         {@code nanos >= 0} (see {@link #divMagic}); a negative one, which only a time source that runs backwards
     *         could give, divides
     */
    long ticksIn(long nanos) {
        if (nanos < 0) {
            return nanos / tickNanos;
        }
        long m = divMagic;
        if (m == 0) {
            return nanos >>> divShift;
        }
        // The unsigned high half of nanos * M: the signed one plus nanos, since M's top bit is set and nanos >= 0.
        return (Math.multiplyHigh(nanos, m) + nanos) >>> divShift;
    }

    /** The deadline of a delay from now, in nanoseconds since the origin, saturating at Long.MAX_VALUE. */
    long dueNanos(long delay, TimeUnit unit) {
        long now = elapsedNanos();
        return delay <= 0 ? now : saturatedAdd(now, unit.toNanos(delay));
    }

    /** A key due now for delay &lt;= 0, else the first tick that starts at or after the deadline. */
    long firstKey(long delay, TimeUnit unit) {
        return delay <= 0 ? tickNow() : keyOf(dueNanos(delay, unit));
    }

    /**
     * The first tick starting at or after a time since the origin: never early. As {@link #keyOf(long, long)}, with
     * {@link #ticksIn}'s multiplication for the division.
     */
    long keyOf(long nanosSinceOrigin) {
        long k = ticksIn(nanosSinceOrigin);
        return nanosSinceOrigin - k * tickNanos == 0 ? k : k + 1;
    }

    /** @return nanoseconds from now until the start of a key's tick (negative once it has started) */
    long nanosUntilTick(long key) {
        return startOfTick(key, tickNanos) - elapsedNanos();
    }

    // ---- pure functions ----

    /**
     * The first tick of length {@code tickNanos} starting at or after {@code nanos} (&gt;= 0), by division: the
     * definition that the clock's own {@link #keyOf(long)} computes by multiplication ({@code TickClockTest} holds them
     * equal).
     */
    static long keyOf(long nanos, long tickNanos) {
        long k = nanos / tickNanos;
        return nanos % tickNanos == 0 ? k : k + 1;
    }

    /** The start of a tick in nanoseconds since the origin, saturating at Long.MAX_VALUE. */
    static long startOfTick(long key, long tickNanos) {
        return key > Long.MAX_VALUE / tickNanos ? Long.MAX_VALUE : key * tickNanos;
    }

    /** {@code a + b}, saturating at Long.MIN_VALUE and Long.MAX_VALUE instead of wrapping. */
    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    /** Key bits needed so that every key up to ceil(Long.MAX_VALUE / tick) fits the wheel's window. */
    static int bitsForKeys(long tickNanos) {
        long maxKey = Long.MAX_VALUE / tickNanos + 1;
        return 64 - Long.numberOfLeadingZeros(maxKey);
    }

    /** The default's lowest levels: two of {@value #NEAR_LEVEL_BITS} bits. */
    static final int NEAR_LEVELS = 2;
    /** Bits of each of the {@link #NEAR_LEVELS} lowest default levels. */
    static final int NEAR_LEVEL_BITS = 9;
    /** Bits of each default level above them (the last one holds the rest). */
    static final int FAR_LEVEL_BITS = 6;

    /**
     * The timer's default levels, {@code needed} bits in all: two of 9 bits, then levels of 6, the last holding the
     * rest. A timer cascades once per level it comes down, and each cascade is a walk of a slot's list whose timers
     * are scattered through the heap, so a miss per timer: with 9-bit near levels a timer due within 2^18 ticks
     * (262 ms at the 1 µs tick, 4.4 minutes at 1 ms) cascades at most once, where six-bit levels cascade it twice
     * from 4,096 ticks on and three times from 262,144. Wider still stops paying: a level-1 slot of 2^9 ticks in a
     * burst of 10 timers a microsecond is about 5,000 timers, whose lines the cascade leaves in a core's 512 KB L2
     * for their expiry; a 2^10 slot is twice that. The cost is memory: 2 x 512 slot heads instead of 2 x 64 (about
     * 56 KB a timer instead of 23 KB at the 1 µs tick, before the cascade's fetch hints; with the 16
     * references each slot above level 0 keeps for them, the default wheel at the 1 µs tick measured 165 KB
     * against 62 KB; see {@link WheelSlot}). Measured on the expiry shot with tasks on the owner (the
     * owner's CPU alone): 262 against 304 ns a fired timer, medians of five alternated pairs (issue 23).
     */
    static int[] defaultLevelBits(int needed) {
        List<Integer> levels = new ArrayList<>();
        int sum = 0;
        while (sum < needed) {
            int b = Math.min(levels.size() < NEAR_LEVELS ? NEAR_LEVEL_BITS : FAR_LEVEL_BITS, needed - sum);
            levels.add(b);
            sum += b;
        }
        int[] bits = new int[levels.size()];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = levels.get(i);
        }
        return bits;
    }

    /**
     * The wheel's levels for a tick: the user's, checked to hold any delay up to Long.MAX_VALUE ns, or the
     * default.
     *
     * @throws IllegalArgumentException if the given levels have too few bits, naming the sum and the need
     */
    static int[] levelBitsFor(long tickNanos, int[] given) {
        int needed = bitsForKeys(tickNanos);
        if (given == null) {
            return defaultLevelBits(needed);
        }
        int total = 0;
        for (int x : given) {
            total += x;
        }
        if (total < needed) {
            throw new IllegalArgumentException("levelBits sum to " + total + " bits, but a tick of " + tickNanos
                    + " ns needs " + needed + " bits to hold any delay up to Long.MAX_VALUE ns");
        }
        return given.clone();
    }
}
