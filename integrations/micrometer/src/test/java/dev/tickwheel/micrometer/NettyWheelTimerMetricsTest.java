package dev.tickwheel.micrometer;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.TimerMetrics;
import dev.tickwheel.netty.NettyWheelTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.util.Timeout;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Netty adapter's binder registers the same meters, read from {@link NettyWheelTimer#metrics()}. The adapter
 * runs on the real clock (it takes no time source), so the counts are exact and the lateness figures are checked
 * against the timer's own histogram at rest.
 */
@org.junit.jupiter.api.Timeout(value = 60, unit = TimeUnit.SECONDS,
        threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class NettyWheelTimerMetricsTest {

    @Test
    void theNettyAdaptersMetersAfterTimeoutsCancelsARejectionAndRuns() throws InterruptedException {
        HandOffs handOffs = new HandOffs();
        MeterRegistry registry = new SimpleMeterRegistry();
        NettyWheelTimer timer = NettyWheelTimer.builder().taskExecutor(handOffs).maxPendingTimeouts(3).build();
        try {
            assertSame(timer, NettyWheelTimerMetrics.monitor(registry, timer, "netty", Tag.of("client", "http")));
            AtomicInteger ran = new AtomicInteger();
            timer.newTimeout(t -> ran.incrementAndGet(), 1, MILLISECONDS);
            timer.newTimeout(t -> ran.incrementAndGet(), 1, MILLISECONDS);
            Timeout cancelled = timer.newTimeout(t -> ran.incrementAndGet(), 1, HOURS);
            assertThrows(RejectedExecutionException.class, () -> timer.newTimeout(t -> { }, 1, HOURS));
            assertTrue(cancelled.cancel());
            List<Runnable> due = handOffs.take(2);
            HandOffs.awaitFired(timer::metrics, 2);
            due.forEach(Runnable::run);
            assertEquals(2, ran.get());

            assertEquals(0, registry.get("tickwheel.timers.pending").tag("name", "netty").gauge().value());
            assertEquals(3, count(registry, "tickwheel.timers.scheduled"));
            assertEquals(2, count(registry, "tickwheel.timers.fired"));
            assertEquals(1, count(registry, "tickwheel.timers.cancelled"));
            assertEquals(1, count(registry, "tickwheel.timers.rejected"));
            assertEquals(2, count(registry, "tickwheel.timers.lateness.count"));
            TimerMetrics.Lateness lateness = timer.metrics().lateness();
            assertEquals(lateness.p50Nanos(), nanos(registry, "tickwheel.timers.lateness", "0.5"));
            assertEquals(lateness.p90Nanos(), nanos(registry, "tickwheel.timers.lateness", "0.9"));
            assertEquals(lateness.p99Nanos(), nanos(registry, "tickwheel.timers.lateness", "0.99"));
            assertEquals(lateness.p999Nanos(), nanos(registry, "tickwheel.timers.lateness", "0.999"));
            assertEquals(lateness.maxNanos(), nanos(registry, "tickwheel.timers.lateness.max", null));
            assertTrue(lateness.maxNanos() >= lateness.p50Nanos());
        } finally {
            timer.stop();
        }
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).tags("name", "netty", "client", "http").functionCounter().count();
    }

    private static long nanos(MeterRegistry registry, String name, String quantile) {
        var search = registry.get(name).tag("name", "netty");
        if (quantile != null) {
            search = search.tag("quantile", quantile);
        }
        return Math.round(search.timeGauge().value(TimeUnit.NANOSECONDS));
    }
}
