package dev.tickwheel.micrometer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickwheel.WheelTimer;
import io.micrometer.core.instrument.Tag;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a Prometheus server scrapes from a monitored timer: the lateness percentiles as one gauge family with a
 * {@code quantile} label, in seconds, and the counters with their {@code _total} suffix. Runs at chosen lateness on a
 * manual clock, as in {@link WheelTimerMetricsTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusScrapeTest {

    @Test
    void theScrapeCarriesTheLatenessPercentilesAndTheCounts() throws InterruptedException {
        ManualClock clock = new ManualClock();
        HandOffs handOffs = new HandOffs();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (WheelTimer timer = WheelTimerMetrics.monitor(registry, WheelTimer.builder().timeSource(clock)
                .executor(handOffs).daemon(true).build(), "timeouts", Tag.of("service", "api"))) {
            for (int i = 0; i < 4; i++) {
                timer.schedule(() -> { }, 2, MILLISECONDS);
            }
            timer.schedule(() -> { }, 1, TimeUnit.HOURS).cancel(false);
            clock.advance(2, MILLISECONDS);
            List<Runnable> due = handOffs.take(4);
            HandOffs.awaitFired(timer::metrics, 4);
            for (Runnable run : due) {
                clock.advance(1, MILLISECONDS); // 1, 2, 3, 4 ms late
                run.run();
            }

            List<String> lines = registry.scrape().lines().filter(l -> l.startsWith("tickwheel_"))
                    .sorted().collect(Collectors.toList());
            String labels = "name=\"timeouts\",service=\"api\""; // the registry writes labels sorted by name
            // Four runs 1..4 ms late: p50 = the 2nd = 2 ms, reported as the top of its bucket (2,031,615 ns);
            // p90, p99 and p99.9 = the 4th = the maximum, 4 ms exactly.
            assertEquals(List.of(
                    "tickwheel_owner_lag_seconds{" + labels + "} 0.0",
                    "tickwheel_timers_cancelled_total{" + labels + "} 1.0",
                    "tickwheel_timers_fired_total{" + labels + "} 4.0",
                    "tickwheel_timers_lateness_count_total{" + labels + "} 4.0",
                    "tickwheel_timers_lateness_max_seconds{" + labels + "} 0.004",
                    "tickwheel_timers_lateness_seconds{name=\"timeouts\",quantile=\"0.5\",service=\"api\"} 0.002031615",
                    "tickwheel_timers_lateness_seconds{name=\"timeouts\",quantile=\"0.9\",service=\"api\"} 0.004",
                    "tickwheel_timers_lateness_seconds{name=\"timeouts\",quantile=\"0.99\",service=\"api\"} 0.004",
                    "tickwheel_timers_lateness_seconds{name=\"timeouts\",quantile=\"0.999\",service=\"api\"} 0.004",
                    "tickwheel_timers_pending{" + labels + "} 0.0",
                    "tickwheel_timers_rejected_total{" + labels + "} 0.0",
                    "tickwheel_timers_scheduled_total{" + labels + "} 5.0"), lines);
            String scrape = registry.scrape();
            assertTrue(scrape.contains("# TYPE tickwheel_timers_lateness_seconds gauge"), scrape);
            assertTrue(scrape.contains("# TYPE tickwheel_timers_fired_total counter"), scrape);
        }
    }
}
