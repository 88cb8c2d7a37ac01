package dev.tickwheel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The tick arithmetic alone: pure functions, and a clock on a time source the test sets. */
class TickClockTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aDelayUpToTheUncheckedBoundIsNeverMoreThan2To31Minus1TicksAheadFromAnyReading() {
        for (long tick : new long[] {1, 3, 1_000, MS, 7_777_777, TimeUnit.HOURS.toNanos(1), Long.MAX_VALUE / 3}) {
            long bound = new TickClock(() -> 0L, tick).maxRescheduleNanosUnchecked;
            for (long q : new long[] {0, 1, 12_345}) {
                for (long r : new long[] {0, 1, tick / 2, tick - 1}) {
                    long now = q * tick + r;
                    if (now < 0 || Long.MAX_VALUE - now < bound) {
                        continue; // past the time axis: keys saturate there
                    }
                    long ahead = TickClock.keyOf(now + bound, tick) - now / tick;
                    assertTrue(ahead <= Integer.MAX_VALUE, "tick " + tick + ", now " + now + ": " + ahead);
                }
            }
        }
        // Just past it the exact check is needed: a reading at the end of a tick goes one tick over.
        long bound = new TickClock(() -> 0L, 1_000).maxRescheduleNanosUnchecked;
        assertEquals(Integer.MAX_VALUE + 1L, TickClock.keyOf(999 + bound + 1_000, 1_000));
    }

    @Test
    void keyOfRoundsUpToTheNextTickStartAndKeepsExactStarts() {
        assertEquals(0, TickClock.keyOf(0, MS));
        assertEquals(1, TickClock.keyOf(1, MS));
        assertEquals(1, TickClock.keyOf(MS, MS));
        assertEquals(2, TickClock.keyOf(MS + 1, MS));
        assertEquals(Long.MAX_VALUE / MS + 1, TickClock.keyOf(Long.MAX_VALUE, MS));
        assertEquals(Long.MAX_VALUE, TickClock.keyOf(Long.MAX_VALUE, 1));
    }

    @Test
    void startOfTickSaturatesInsteadOfOverflowing() {
        assertEquals(5 * MS, TickClock.startOfTick(5, MS));
        assertEquals(Long.MAX_VALUE, TickClock.startOfTick(Long.MAX_VALUE / MS + 1, MS));
        assertEquals(Long.MAX_VALUE, TickClock.startOfTick(Long.MAX_VALUE, MS));
    }

    @Test
    void saturatedAddClampsAtBothEnds() {
        assertEquals(3, TickClock.saturatedAdd(1, 2));
        assertEquals(Long.MAX_VALUE, TickClock.saturatedAdd(Long.MAX_VALUE, 1));
        assertEquals(Long.MAX_VALUE, TickClock.saturatedAdd(Long.MAX_VALUE - 1, Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, TickClock.saturatedAdd(Long.MIN_VALUE, -1));
        assertEquals(-1, TickClock.saturatedAdd(Long.MAX_VALUE, Long.MIN_VALUE));
    }

    @Test
    void levelBitsHoldEveryDelayUpToLongMaxValueAtEveryTick() {
        for (long tick : new long[] {1_000, 999_999, MS, TimeUnit.SECONDS.toNanos(1), Long.MAX_VALUE}) {
            int needed = TickClock.bitsForKeys(tick);
            assertTrue(Long.MAX_VALUE / tick + 1 < (1L << needed) || needed == 63, "tick " + tick);
            assertTrue(needed == 1 || Long.MAX_VALUE / tick + 1 >= (1L << (needed - 1)), "tick " + tick);
            int[] bits = TickClock.levelBitsFor(tick, null);
            int sum = 0;
            for (int b : bits) {
                assertTrue(b >= 1 && b <= 9, "tick " + tick);
                sum += b;
            }
            assertEquals(needed, sum, "tick " + tick);
        }
        assertArrayEquals(new int[] {9, 9, 6, 6, 6, 6}, TickClock.defaultLevelBits(42));
        assertArrayEquals(new int[] {9, 9, 6, 6, 6, 6, 6, 2}, TickClock.defaultLevelBits(50));
        assertArrayEquals(new int[] {9, 4}, TickClock.defaultLevelBits(13));
        assertArrayEquals(new int[] {5}, TickClock.defaultLevelBits(5));
    }

    @Test
    void givenLevelBitsThatCannotHoldEveryDelayAreRejectedNamingTheNeed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TickClock.levelBitsFor(MS, new int[] {6, 6}));
        assertTrue(e.getMessage().contains("levelBits sum to 12 bits") && e.getMessage().contains("needs 44"),
                e.getMessage());
        int[] given = {12, 12, 12, 8};
        int[] used = TickClock.levelBitsFor(MS, given);
        assertArrayEquals(given, used);
        given[0] = 1;
        assertEquals(12, used[0], "a copy: the caller's array may change afterwards");
    }

    /**
     * The clock divides by multiplying (see TickClock#divMagic): for every tick, the same quotients and keys as Java's
     * division, at the edges of each quotient (multiples of the tick and one either side), at the top of the range,
     * and at random, for ticks that are powers of two, odd, just below and above powers of two, and the largest.
     */
    @Test
    void ticksByMultiplicationEqualJavasDivisionForEveryTickAndReading() {
        long[] ticks = {1, 2, 3, 5, 7, 10, 1_000, 1_024, 1_000_000, 999_999_937, 1_000_000_000, (1L << 31) - 1,
                (1L << 31) + 1, (1L << 40) + 1, (1L << 62) - 1, 1L << 62, (1L << 62) + 1, Long.MAX_VALUE - 1,
                Long.MAX_VALUE};
        SplittableRandom random = new SplittableRandom(37);
        for (long tick : ticks) {
            TickClock clock = new TickClock(() -> 0L, tick);
            List<Long> readings = new ArrayList<>(List.of(0L, 1L, Long.MAX_VALUE, Long.MAX_VALUE - 1, -1L, -tick,
                    Long.MIN_VALUE + 1));
            for (long q : new long[] {1, 2, 3, 1_000, Long.MAX_VALUE / tick, Long.MAX_VALUE / tick - 1}) {
                if (q > 0 && q <= Long.MAX_VALUE / tick) {
                    long m = q * tick;
                    readings.addAll(List.of(m - 1, m, m + 1 < 0 ? m : m + 1));
                }
            }
            for (int i = 0; i < 20_000; i++) {
                readings.add(random.nextLong(Long.MAX_VALUE));
                readings.add(random.nextLong(Math.min(Long.MAX_VALUE, tick * 4 > 0 ? tick * 4 : Long.MAX_VALUE)));
            }
            for (long n : readings) {
                assertEquals(n / tick, clock.ticksIn(n), () -> n + " / " + tick);
                if (n >= 0) {
                    assertEquals(TickClock.keyOf(n, tick), clock.keyOf(n), () -> "key of " + n + " at tick " + tick);
                }
            }
        }
    }

    @Test
    void aClockCountsTicksFromItsOriginAndNeverRoundsADeadlineDown() {
        AtomicLong now = new AtomicLong(-123_456_789L); // any reading, negative included
        TickClock clock = new TickClock(now::get, MS);
        assertEquals(0, clock.tickNow());
        assertEquals(0, clock.firstKey(0, TimeUnit.MILLISECONDS), "a delay of 0 is due now");
        assertEquals(0, clock.firstKey(-5, TimeUnit.MILLISECONDS), "a negative delay is due now");
        assertEquals(1, clock.firstKey(1, TimeUnit.NANOSECONDS));
        now.addAndGet(MS + 1);
        assertEquals(1, clock.tickNow());
        assertEquals(3, clock.firstKey(1, TimeUnit.MILLISECONDS), "1 ms from 1 ms + 1 ns is due in tick 3");
        assertEquals(2 * MS - 1, clock.nanosUntilTick(3), "the start of tick 3 is 2 ms - 1 ns away");
        assertEquals(Long.MAX_VALUE / MS + 1, clock.firstKey(Long.MAX_VALUE, TimeUnit.DAYS), "saturates");
    }
}
