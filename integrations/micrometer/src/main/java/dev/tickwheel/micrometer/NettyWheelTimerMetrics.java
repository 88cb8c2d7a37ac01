package dev.tickwheel.micrometer;

import dev.tickwheel.netty.NettyWheelTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Micrometer meters for the Netty adapter, {@link NettyWheelTimer}: the same meters as {@link WheelTimerMetrics}
 * (listed there, with what each means), read from {@link NettyWheelTimer#metrics()}.
 *
 * <pre>{@code
 * Timer timer = NettyWheelTimerMetrics.monitor(registry, new NettyWheelTimer(), "netty-timeouts");
 * }</pre>
 *
 * This class is the only one of the module that uses {@code tickwheel-netty} (an optional dependency here, read with
 * {@code requires static}), so a user without Netty never loads it.
 *
 * <h2>Threading</h2>
 * Immutable; {@link #bindTo} may be called from any thread. The meters read the timer on the registry's thread and
 * hold it weakly.
 */
@SuppressWarnings("exports") // NettyWheelTimer is in the API on purpose; its module is read only if present
public final class NettyWheelTimerMetrics implements MeterBinder {

    private final NettyWheelTimer timer;
    private final Tags tags;

    /**
     * @param timer the timer to measure
     * @param name  the value of the {@code name} tag, naming this timer among others
     * @param tags  more tags for every meter (may be empty)
     * @throws NullPointerException if timer or name is null
     */
    public NettyWheelTimerMetrics(NettyWheelTimer timer, String name, Iterable<Tag> tags) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.tags = TimerMeters.tags(name, tags);
    }

    /**
     * Registers the meters of {@code timer} in {@code registry} and returns the same timer.
     *
     * @param registry where the meters go
     * @param timer    the timer to measure
     * @param name     the value of the {@code name} tag
     * @param tags     more tags for every meter
     * @return {@code timer}
     * @throws NullPointerException if registry, timer or name is null
     */
    public static NettyWheelTimer monitor(MeterRegistry registry, NettyWheelTimer timer, String name, Tag... tags) {
        return monitor(registry, timer, name, Arrays.asList(tags));
    }

    /**
     * As {@link #monitor(MeterRegistry, NettyWheelTimer, String, Tag...)}, with the tags as an {@code Iterable}.
     *
     * @param registry where the meters go
     * @param timer    the timer to measure
     * @param name     the value of the {@code name} tag
     * @param tags     more tags for every meter
     * @return {@code timer}
     * @throws NullPointerException if registry, timer or name is null
     */
    public static NettyWheelTimer monitor(MeterRegistry registry, NettyWheelTimer timer, String name,
                                          Iterable<Tag> tags) {
        new NettyWheelTimerMetrics(timer, name, tags).bindTo(registry);
        return timer;
    }

    /** Registers the meters, and turns the timer's lateness record on (off by default) for the lateness meters. */
    @Override
    public void bindTo(MeterRegistry registry) {
        timer.recordLateness(true);
        TimerMeters.bind(registry, timer, NettyWheelTimer::metrics, tags);
    }
}
