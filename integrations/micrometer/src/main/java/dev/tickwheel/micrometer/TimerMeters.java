package dev.tickwheel.micrometer;

import dev.tickwheel.TimerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The meters both binders register, for any timer that hands out a {@link TimerMetrics} snapshot. Stateless: every
 * function reads a fresh snapshot through {@code read}, on the registry's thread. Not public: the binders are.
 */
final class TimerMeters {

    /** The lateness percentiles exported, as the {@code quantile} tag's values and as arguments in (0, 100]. */
    static final String[] QUANTILES = {"0.5", "0.9", "0.99", "0.999"};
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private TimerMeters() {
    }

    /** @return the caller's tags (none if null) plus {@code name} */
    static Tags tags(String name, Iterable<Tag> tags) {
        Objects.requireNonNull(name, "name");
        return Tags.concat(tags == null ? Tags.empty() : Tags.of(tags), "name", name);
    }

    /**
     * Registers every meter of {@code timer} in {@code registry}. The registry holds {@code timer} weakly.
     *
     * @param read the timer's {@code metrics()}; called on the registry's thread, so safe from any thread
     */
    static <T> void bind(MeterRegistry registry, T timer, Function<T, TimerMetrics> read, Tags tags) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(timer, "timer");
        Gauge.builder("tickwheel.timers.pending", timer, t -> read.apply(t).pending())
                .tags(tags).description("Timers accepted and not yet ended (ran, cancelled or handed back)")
                .register(registry);
        counter(registry, "tickwheel.timers.scheduled", "Timers accepted (a periodic timer counts once)",
                timer, t -> read.apply(t).scheduled(), tags);
        counter(registry, "tickwheel.timers.fired", "Runs handed to the executor by the owner thread (each period"
                + " counts)", timer, t -> read.apply(t).fired(), tags);
        counter(registry, "tickwheel.timers.cancelled", "Successful cancels", timer,
                t -> read.apply(t).cancelled(), tags);
        counter(registry, "tickwheel.timers.rejected", "Schedules rejected (shut down, maxPending)", timer,
                t -> read.apply(t).rejected(), tags);
        TimeGauge.builder("tickwheel.owner.lag", timer, TimeUnit.NANOSECONDS, t -> read.apply(t).lagNanos())
                .tags(tags).description("How far the owner thread was behind the clock after its last step (the"
                        + " age of the oldest due timer not yet handed out)")
                .register(registry);
        for (int i = 0; i < QUANTILES.length; i++) {
            double percentile = PERCENTILES[i];
            TimeGauge.builder("tickwheel.timers.lateness", timer, TimeUnit.NANOSECONDS,
                            t -> read.apply(t).lateness().percentileNanos(percentile))
                    .tags(tags).tag("quantile", QUANTILES[i])
                    .description("Lateness of runs (start of run - start of the tick due), percentile since the"
                            + " timer's creation or its last resetLateness()")
                    .register(registry);
        }
        TimeGauge.builder("tickwheel.timers.lateness.max", timer, TimeUnit.NANOSECONDS,
                        t -> read.apply(t).lateness().maxNanos())
                .tags(tags).description("Largest lateness since the timer's creation or its last resetLateness()")
                .register(registry);
        counter(registry, "tickwheel.timers.lateness.count", "Runs whose lateness was recorded since the timer's"
                + " creation or its last resetLateness()", timer, t -> read.apply(t).lateness().count(), tags);
    }

    private static <T> void counter(MeterRegistry registry, String name, String description, T timer,
                                    ToLongFunction<T> count, Tags tags) {
        FunctionCounter.builder(name, timer, t -> count.applyAsLong(t)).tags(tags).description(description)
                .register(registry);
    }
}
