package dev.tickwheel.micrometer;

import dev.tickwheel.TimerMetrics;
import dev.tickwheel.WheelTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Micrometer meters for a {@link WheelTimer}, in the shape of Micrometer's own binders: construct it and call
 * {@link #bindTo(MeterRegistry)}, or call {@link #monitor(MeterRegistry, WheelTimer, String, Tag...)}.
 *
 * <pre>{@code
 * WheelTimer timer = WheelTimerMetrics.monitor(registry, WheelTimer.create(), "timeouts", Tag.of("service", "api"));
 * }</pre>
 *
 * <h2>Meters</h2>
 * Every meter carries the tag {@code name} (the name given here, one per timer) and the caller's tags. Every figure
 * is read from {@link WheelTimer#metrics()} when the registry publishes or is scraped, so the timer's hot paths
 * ({@code schedule}, {@code cancel}, the runs) pay nothing for them; see {@link TimerMetrics} for how exact they are
 * under load.
 * <table>
 *   <caption>The meters</caption>
 *   <tr><th>name</th><th>type</th><th>what it reads</th></tr>
 *   <tr><td>{@code tickwheel.timers.pending}</td><td>gauge</td><td>{@link TimerMetrics#pending()}: timers accepted
 *   and not yet ended</td></tr>
 *   <tr><td>{@code tickwheel.timers.scheduled}</td><td>function counter</td><td>{@link TimerMetrics#scheduled()}:
 *   timers accepted (a periodic timer counts once)</td></tr>
 *   <tr><td>{@code tickwheel.timers.fired}</td><td>function counter</td><td>{@link TimerMetrics#fired()}: runs handed
 *   out by the owner thread (each period counts)</td></tr>
 *   <tr><td>{@code tickwheel.timers.cancelled}</td><td>function counter</td><td>{@link TimerMetrics#cancelled()}:
 *   successful cancels</td></tr>
 *   <tr><td>{@code tickwheel.timers.rejected}</td><td>function counter</td><td>{@link TimerMetrics#rejected()}:
 *   schedules refused (shut down, {@code maxPending})</td></tr>
 *   <tr><td>{@code tickwheel.owner.lag}</td><td>time gauge</td><td>{@link TimerMetrics#lagNanos()}: how far the
 *   owner thread was behind the clock after its last step</td></tr>
 *   <tr><td>{@code tickwheel.timers.lateness}, tag {@code quantile} = {@code 0.5}, {@code 0.9}, {@code 0.99},
 *   {@code 0.999}</td><td>time gauges</td><td>{@link TimerMetrics.Lateness#percentileNanos(double)}: that
 *   percentile of how late runs started</td></tr>
 *   <tr><td>{@code tickwheel.timers.lateness.max}</td><td>time gauge</td><td>{@link TimerMetrics.Lateness#maxNanos()}
 *   </td></tr>
 *   <tr><td>{@code tickwheel.timers.lateness.count}</td><td>function counter</td><td>
 *   {@link TimerMetrics.Lateness#count()}: runs recorded</td></tr>
 * </table>
 * In Prometheus' text format the time gauges are in seconds ({@code tickwheel_timers_lateness_seconds{quantile="0.99"}},
 * {@code tickwheel_owner_lag_seconds}) and the counters end in {@code _total}.
 *
 * <h2>Why lateness is exported as gauges that read the timer's histogram</h2>
 * The timer keeps its own lateness histogram ({@link TimerMetrics#lateness()}: log-linear buckets, within 3.1% above
 * the true value, recorded by each running thread into a stripe of its own without a lock), since its creation or
 * the last {@link WheelTimer#resetLateness()}. The record is off by default (it reads the clock on every run);
 * {@link #bindTo} turns it on ({@link WheelTimer#recordLateness(boolean)}), so the lateness meters count the runs
 * that start from the binding on. A Micrometer {@code Timer} or {@code DistributionSummary} fed from it
 * would need each run's value a second time, or the bucket counts added since the last scrape:
 * <ul>
 *   <li>recording each run again into a Micrometer meter would put a second histogram on every run's path, the cost
 *   that {@code metrics()} exists to avoid;</li>
 *   <li>the public snapshot gives percentiles, not bucket counts, and samples rebuilt from percentiles would be
 *   invented; replaying the whole histogram at each scrape would count every run again.</li>
 * </ul>
 * Gauges that read the histogram at each scrape lose no run and count none twice: every reading is the one
 * histogram as it stands, computed by the timer, and the backend gets real percentiles (p50, p90, p99, p99.9), the
 * largest value and the count. What they mean follows from the histogram: the percentiles are over every run since
 * the timer's creation or its last {@code resetLateness()}, not over the last scrape interval, so on a long-lived
 * timer they move slowly. The binder never calls {@code resetLateness()} (it is the user's): a user who wants
 * windowed percentiles calls it on a schedule of their own, and {@code tickwheel.timers.lateness.count} then drops,
 * which Prometheus' {@code rate} and {@code increase} read as a counter reset. As with any summary's quantiles,
 * percentiles of several timers or instances cannot be averaged or summed: take their maximum. Each gauge reads its
 * own snapshot, so under load the four percentiles of one scrape are read a few microseconds apart.
 *
 * <h2>Threading</h2>
 * Immutable; {@link #bindTo} may be called from any thread, and for several registries. The meters hold the timer
 * weakly, as Micrometer's gauges do.
 */
public final class WheelTimerMetrics implements MeterBinder {

    private final WheelTimer timer;
    private final Tags tags;

    /**
     * @param timer the timer to measure
     * @param name  the value of the {@code name} tag, naming this timer among others
     * @param tags  more tags for every meter (may be empty)
     * @throws NullPointerException if timer or name is null
     */
    public WheelTimerMetrics(WheelTimer timer, String name, Iterable<Tag> tags) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.tags = TimerMeters.tags(name, tags);
    }

    /**
     * Registers the meters of {@code timer} in {@code registry} and returns the same timer, as Micrometer's
     * {@code ExecutorServiceMetrics.monitor} does (there it returns a wrapper; here nothing needs wrapping).
     *
     * @param registry where the meters go
     * @param timer    the timer to measure
     * @param name     the value of the {@code name} tag
     * @param tags     more tags for every meter
     * @return {@code timer}
     * @throws NullPointerException if registry, timer or name is null
     */
    public static WheelTimer monitor(MeterRegistry registry, WheelTimer timer, String name, Tag... tags) {
        return monitor(registry, timer, name, Arrays.asList(tags));
    }

    /**
     * As {@link #monitor(MeterRegistry, WheelTimer, String, Tag...)}, with the tags as an {@code Iterable}.
     *
     * @param registry where the meters go
     * @param timer    the timer to measure
     * @param name     the value of the {@code name} tag
     * @param tags     more tags for every meter
     * @return {@code timer}
     * @throws NullPointerException if registry, timer or name is null
     */
    public static WheelTimer monitor(MeterRegistry registry, WheelTimer timer, String name, Iterable<Tag> tags) {
        new WheelTimerMetrics(timer, name, tags).bindTo(registry);
        return timer;
    }

    /** Registers the meters, and turns the timer's lateness record on (off by default) for the lateness meters. */
    @Override
    public void bindTo(MeterRegistry registry) {
        timer.recordLateness(true);
        TimerMeters.bind(registry, timer, WheelTimer::metrics, tags);
    }
}
