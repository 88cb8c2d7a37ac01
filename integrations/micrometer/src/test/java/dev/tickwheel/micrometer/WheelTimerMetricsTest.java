package dev.tickwheel.micrometer;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.TimerFuture;
import dev.tickwheel.WheelTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every meter of {@link WheelTimerMetrics} after a known sequence of schedules, cancels, rejections and runs. The
 * timer reads a manual clock and hands its runs to the test, which runs each at a lateness it chose, so every
 * figure, the lateness percentiles included, is known exactly. Counts are checked at rest, where
 * {@code metrics()} is exact.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WheelTimerMetricsTest {

    private final ManualClock clock = new ManualClock();
    private final HandOffs handOffs = new HandOffs();
    private final WheelTimer timer = WheelTimer.builder().timeSource(clock).executor(handOffs).maxPending(12)
            .daemon(true).build();
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void closeTimer() {
        timer.shutdownNow();
    }

    @Test
    void everyMeterReadsTheTimerAfterSchedulesCancelsRejectionsAndRuns() throws InterruptedException {
        assertFalse(timer.recordsLateness(), "a timer's lateness record is off by default");
        assertSame(timer, WheelTimerMetrics.monitor(registry, timer, "timeouts", Tag.of("service", "api")));
        assertTrue(timer.recordsLateness(), "binding turns it on for the lateness meters");
        assertCounts(0, 0, 0, 0, 0);
        assertLateness(0, 0, 0, 0, 0, 0);

        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            timer.schedule(ran::incrementAndGet, 5, MILLISECONDS); // due at the start of the tick at 5 ms
        }
        TimerFuture<?> cancelled = timer.schedule(ran::incrementAndGet, 1, HOURS);
        timer.schedule(ran::incrementAndGet, 1, HOURS);
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(ran::incrementAndGet, 1, HOURS));
        assertTrue(cancelled.cancel(false));
        assertCounts(11, 12, 0, 1, 1);

        clock.advance(5, MILLISECONDS);
        List<Runnable> due = handOffs.take(10);
        HandOffs.awaitFired(timer::metrics, 10);
        assertCounts(11, 12, 10, 1, 1); // handed out, not yet run: still pending
        assertLateness(0, 0, 0, 0, 0, 0);
        for (Runnable run : due) {
            clock.advance(1, MILLISECONDS); // the i-th run starts i ms after its tick: 1, 2, ... 10 ms late
            run.run();
        }
        assertEquals(10, ran.get());
        assertCounts(1, 12, 10, 1, 1);
        // Ten runs, 1..10 ms late. The histogram reports a value as the top of its bucket (32 per power of two),
        // capped by the exact maximum: p50 = the 5th = 5 ms -> [4,980,736, 5,111,807]; p90 = the 9th = 9 ms ->
        // [8,912,896, 9,175,039]; p99 and p99.9 = the 10th = the maximum, 10 ms exactly.
        assertLateness(10, 5_111_807, 9_175_039, 10_000_000, 10_000_000, 10_000_000);
        // A second reading counts nothing twice and loses nothing.
        assertLateness(10, 5_111_807, 9_175_039, 10_000_000, 10_000_000, 10_000_000);

        // Two more runs, on time (0 ns late), between two readings: the next reading has exactly twelve.
        timer.schedule(ran::incrementAndGet, 1, MILLISECONDS);
        timer.schedule(ran::incrementAndGet, 1, MILLISECONDS);
        clock.advance(1, MILLISECONDS);
        List<Runnable> onTime = handOffs.take(2);
        HandOffs.awaitFired(timer::metrics, 12);
        onTime.forEach(Runnable::run);
        assertEquals(12, ran.get());
        assertCounts(1, 14, 12, 1, 1);
        // 0, 0, 1, ..., 10 ms: p50 = the 6th = 4 ms -> [3,997,696, 4,063,231]; p90 = the 11th = 9 ms; p99 = the 12th.
        assertLateness(12, 4_063_231, 9_175_039, 10_000_000, 10_000_000, 10_000_000);

        timer.shutdown();
        assertThrows(RejectedExecutionException.class, () -> timer.schedule(ran::incrementAndGet, 1, HOURS));
        assertEquals(1, timer.shutdownNow().size()); // the hour-long timer, handed back: ended, not cancelled
        assertTrue(timer.awaitTermination(30, SECONDS));
        assertCounts(0, 14, 12, 1, 2);
        assertGauge("tickwheel.owner.lag", 0); // caught up: nothing was due and not handed out

        timer.resetLateness(); // the user's call, never the binder's: the meters follow it
        assertLateness(0, 0, 0, 0, 0, 0);
    }

    @Test
    void everyMeterCarriesTheNameTagAndTheCallersTags() {
        new WheelTimerMetrics(timer, "timeouts", List.of(Tag.of("service", "api"), Tag.of("zone", "a")))
                .bindTo(registry);
        Set<String> names = new TreeSet<>();
        for (Meter meter : registry.getMeters()) {
            names.add(meter.getId().getName() + tagOf(meter, "quantile"));
            assertEquals("timeouts", meter.getId().getTag("name"), meter.getId().toString());
            assertEquals("api", meter.getId().getTag("service"), meter.getId().toString());
            assertEquals("a", meter.getId().getTag("zone"), meter.getId().toString());
        }
        assertEquals(new TreeSet<>(List.of("tickwheel.owner.lag", "tickwheel.timers.cancelled",
                "tickwheel.timers.fired", "tickwheel.timers.lateness.count", "tickwheel.timers.lateness.max",
                "tickwheel.timers.lateness{0.5}", "tickwheel.timers.lateness{0.9}",
                "tickwheel.timers.lateness{0.99}", "tickwheel.timers.lateness{0.999}", "tickwheel.timers.pending",
                "tickwheel.timers.rejected", "tickwheel.timers.scheduled")), names);
        for (String counter : List.of("tickwheel.timers.scheduled", "tickwheel.timers.fired",
                "tickwheel.timers.cancelled", "tickwheel.timers.rejected", "tickwheel.timers.lateness.count")) {
            assertEquals(Meter.Type.COUNTER, registry.get(counter).meter().getId().getType(), counter);
        }
        for (String gauge : List.of("tickwheel.timers.pending", "tickwheel.owner.lag", "tickwheel.timers.lateness",
                "tickwheel.timers.lateness.max")) {
            for (Meter meter : registry.get(gauge).meters()) {
                assertEquals(Meter.Type.GAUGE, meter.getId().getType(), gauge);
            }
        }
        assertEquals("seconds", registry.get("tickwheel.owner.lag").meter().getId().getBaseUnit());
    }

    @Test
    void twoTimersBoundUnderTwoNamesKeepTheirOwnFigures() {
        try (WheelTimer other = WheelTimer.builder().timeSource(clock).executor(handOffs).daemon(true).build()) {
            WheelTimerMetrics.monitor(registry, timer, "a");
            WheelTimerMetrics.monitor(registry, other, "b");
            timer.schedule(() -> { }, 1, HOURS);
            other.schedule(() -> { }, 1, HOURS).cancel(false);
            other.schedule(() -> { }, 1, HOURS);
            assertEquals(1, registry.get("tickwheel.timers.scheduled").tag("name", "a").functionCounter().count());
            assertEquals(2, registry.get("tickwheel.timers.scheduled").tag("name", "b").functionCounter().count());
            assertEquals(0, registry.get("tickwheel.timers.cancelled").tag("name", "a").functionCounter().count());
            assertEquals(1, registry.get("tickwheel.timers.cancelled").tag("name", "b").functionCounter().count());
            other.shutdownNow();
        }
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> new WheelTimerMetrics(null, "t", List.of()));
        assertThrows(NullPointerException.class, () -> new WheelTimerMetrics(timer, null, List.of()));
        assertThrows(NullPointerException.class, () -> WheelTimerMetrics.monitor(null, timer, "t"));
        new WheelTimerMetrics(timer, "t", null).bindTo(registry); // no extra tags
        assertEquals(1, registry.get("tickwheel.timers.pending").gauge().getId().getTags().size());
    }

    private static String tagOf(Meter meter, String key) {
        String value = meter.getId().getTag(key);
        return value == null ? "" : "{" + value + "}";
    }

    private void assertCounts(long pending, long scheduled, long fired, long cancelled, long rejected) {
        assertEquals(pending, registry.get("tickwheel.timers.pending").tag("name", "timeouts").gauge().value(),
                "pending");
        assertCounter("tickwheel.timers.scheduled", scheduled);
        assertCounter("tickwheel.timers.fired", fired);
        assertCounter("tickwheel.timers.cancelled", cancelled);
        assertCounter("tickwheel.timers.rejected", rejected);
        assertGauge("tickwheel.owner.lag", 0);
    }

    private void assertLateness(long count, long p50, long p90, long p99, long p999, long max) {
        assertCounter("tickwheel.timers.lateness.count", count);
        assertPercentile("0.5", p50);
        assertPercentile("0.9", p90);
        assertPercentile("0.99", p99);
        assertPercentile("0.999", p999);
        assertGauge("tickwheel.timers.lateness.max", max);
    }

    private void assertCounter(String name, long expected) {
        assertEquals(expected, registry.get(name).tags("name", "timeouts", "service", "api").functionCounter()
                .count(), name);
    }

    private void assertPercentile(String quantile, long expectedNanos) {
        TimeGauge gauge = registry.get("tickwheel.timers.lateness").tags("name", "timeouts", "quantile", quantile)
                .timeGauge();
        // The registry keeps seconds: back in nanoseconds the value may be off by a rounding error, never by 1 ns.
        assertEquals(expectedNanos, Math.round(gauge.value(TimeUnit.NANOSECONDS)), "lateness quantile " + quantile);
    }

    private void assertGauge(String name, long expectedNanos) {
        assertEquals(expectedNanos, Math.round(registry.get(name).tag("name", "timeouts").timeGauge()
                .value(TimeUnit.NANOSECONDS)), name);
    }
}
