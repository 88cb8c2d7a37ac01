package dev.tickwheel;

import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;

/**
 * The lateness histogram: its buckets (exact below 32 ns, within 1/32 above beyond), what a timer records on the
 * manual clock (each run the timer starts, at the lateness the clock says; not a handed-back run, not a run a caller
 * starts early), reset, and many threads recording at once.
 */
class LatenessHistogramTest {

    @Test
    void everyValueFallsInABucketWhoseHighestValueIsWithinOneThirtySecondAboveIt() {
        SplittableRandom random = new SplittableRandom(42);
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 31L, 32L, 33L, 63L, 64L, 65L, 1000L, 1L << 40,
                (1L << 62) - 1, 1L << 62, Long.MAX_VALUE));
        for (int i = 0; i < 100_000; i++) {
            values.add(random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63));
        }
        int previousBucket = -1;
        long previous = -1;
        values.sort(null);
        for (long v : values) {
            int b = LatenessHistogram.bucket(v);
            assertTrue(b >= 0 && b < LatenessHistogram.BUCKETS, v + " -> bucket " + b);
            long high = LatenessHistogram.highestIn(b);
            assertTrue(high >= v, v + " above its bucket's highest value " + high);
            assertTrue(v < 32 ? high == v : high - v <= v / 32, v + " reported as " + high + ": more than 1/32 above");
            assertTrue(v == previous || b >= previousBucket, "buckets follow the values' order at " + v);
            previousBucket = b;
            previous = v;
        }
        assertEquals(LatenessHistogram.BUCKETS - 1, LatenessHistogram.bucket(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, LatenessHistogram.highestIn(LatenessHistogram.BUCKETS - 1));
    }

    @Test
    void percentilesOfKnownValues() {
        LatenessHistogram h = new LatenessHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.record(i * 1000L); // 1 µs .. 1 ms
        }
        h.record(-5); // a run before its time: not kept
        TimerMetrics.Lateness l = h.snapshot();
        assertEquals(1000, l.count());
        assertWithin(500_000, l.p50Nanos());
        assertWithin(900_000, l.p90Nanos());
        assertWithin(990_000, l.p99Nanos());
        assertWithin(999_000, l.p999Nanos());
        assertEquals(1_000_000, l.maxNanos(), "the max is exact");
        assertThrows(IllegalArgumentException.class, () -> l.percentileNanos(0));
        assertThrows(IllegalArgumentException.class, () -> l.percentileNanos(100.5));
        assertThrows(IllegalArgumentException.class, () -> l.percentileNanos(Double.NaN));

        h.reset();
        TimerMetrics.Lateness empty = h.snapshot();
        assertEquals(0, empty.count());
        assertEquals(0, empty.p99Nanos());
        assertEquals(0, empty.maxNanos());
        h.record(7);
        assertEquals(1, h.snapshot().count());
        assertEquals(7, h.snapshot().maxNanos());
    }

    private static void assertWithin(long expected, long actual) {
        assertTrue(actual >= expected && actual - expected <= expected / 32,
                "expected " + expected + " (to 1/32 above), got " + actual);
    }

    @Test
    void aTimerRecordsHowLateEachRunStartsOnItsClock() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(Runnable::run).recordLateness().build();
        assertTrue(t.recordsLateness());
        t.schedule(() -> { }, 10, MILLISECONDS); // due at tick 10
        t.schedule(() -> { }, 10, MILLISECONDS);
        ScheduledFuture<?> periodic = t.scheduleAtFixedRate(() -> { }, 20, 20, MILLISECONDS);
        OwnerLoop.of(t).step();
        clock.advance(10_300, MICROSECONDS); // 300 µs after tick 10 starts
        OwnerLoop.of(t).step();
        TimerMetrics.Lateness l = t.metrics().lateness();
        assertEquals(2, l.count());
        assertWithin(300_000, l.p50Nanos());
        assertEquals(300_000, l.maxNanos());

        clock.advance(9_700 + 50, MICROSECONDS); // 20.05 ms: the periodic's first run, 50 µs late
        OwnerLoop.of(t).step();
        clock.advance(20, MILLISECONDS); // 40.05 ms: its second, 50 µs late
        OwnerLoop.of(t).step();
        l = t.metrics().lateness();
        assertEquals(4, l.count(), "each period counts");
        assertWithin(50_000, l.percentileNanos(50));

        t.resetLateness();
        assertEquals(0, t.metrics().lateness().count());
        clock.advance(21, MILLISECONDS); // 61.05 ms: 1.05 ms late for tick 60
        OwnerLoop.of(t).step();
        l = t.metrics().lateness();
        assertEquals(1, l.count());
        assertWithin(1_050_000, l.p50Nanos());
        periodic.cancel(false);
    }

    /**
     * The record costs a clock read per run, so it is off unless asked for: a default timer counts no run; switched on
     * at run time it counts the runs that start from then on; switched off it stops counting and keeps what it has.
     */
    @Test
    void theRecordIsOffByDefaultAndCountsOnlyTheRunsThatStartWhileItIsOn() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(Runnable::run).build();
        assertFalse(t.recordsLateness(), "off by default");
        t.schedule(() -> { }, 10, MILLISECONDS);
        t.schedule(() -> { }, 20, MILLISECONDS);
        t.schedule(() -> { }, 30, MILLISECONDS);
        OwnerLoop.of(t).step();
        clock.advance(10_200, MICROSECONDS); // the first, 200 µs late: not recorded
        OwnerLoop.of(t).step();
        assertEquals(2, t.metrics().pending(), "it ran");
        assertEquals(0, t.metrics().lateness().count());

        t.recordLateness(true);
        clock.advance(10, MILLISECONDS); // the second, 200 µs late: recorded
        OwnerLoop.of(t).step();
        TimerMetrics.Lateness l = t.metrics().lateness();
        assertEquals(1, l.count());
        assertEquals(200_000, l.maxNanos());

        t.recordLateness(false);
        assertFalse(t.recordsLateness());
        clock.advance(10, MILLISECONDS); // the third: not recorded, and the second's record stays
        OwnerLoop.of(t).step();
        assertEquals(0, t.metrics().pending());
        assertEquals(1, t.metrics().lateness().count());
        t.shutdownNow();
    }

    @Test
    void neitherACallersEarlyRunNorAHandedBackRunIsRecorded() {
        ManualTimeSource clock = new ManualTimeSource(0);
        WheelTimer t = WheelTimer.builder().timeSource(clock).tick(1, MILLISECONDS).manualDrive()
                .executor(Runnable::run).recordLateness().build();
        ScheduledFuture<?> early = t.schedule(() -> { }, 50, MILLISECONDS);
        t.schedule(() -> { }, 60, MILLISECONDS);
        OwnerLoop.of(t).step();
        ((Runnable) early).run(); // a caller runs it 50 ms before its time
        List<Runnable> back = t.shutdownNow();
        assertEquals(1, back.size());
        clock.advance(100, MILLISECONDS);
        back.get(0).run(); // the shutdownNow caller runs it, late by 40 ms: not the timer's run
        assertEquals(0, t.metrics().lateness().count());
    }

    @Test
    void manyThreadsRecordingAtOnceLoseNoCount() throws Exception {
        LatenessHistogram h = new LatenessHistogram();
        int threads = 4;
        int each = 100_000;
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int seed = i;
            Thread th = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int j = 0; j < each; j++) {
                    h.record(random.nextLong(1_000_000));
                }
            });
            all.add(th);
            th.start();
        }
        for (Thread th : all) {
            th.join();
        }
        assertEquals((long) threads * each, h.snapshot().count());
    }
}
