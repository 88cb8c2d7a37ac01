package dev.tickwheel.bench.suite;

import dev.tickwheel.bench.Peer;
import java.util.EnumSet;
import java.util.Set;

/**
 * The targets, each with its threshold, in one place. {@link Verdicts} judges each against the metrics it
 * names; a target whose metrics were not measured in a run is left out of that run's list.
 */
enum Target {
    /** Throughput at least this many times Netty 1 ms's, at every P and thread count of scenarios 1 and 2. */
    THROUGHPUT_VS_NETTY_1MS(2, Peer.NETTY_1MS, Metric.SCHEDULE_CANCEL, Metric.EXPIRY),
    /** The same against Netty 100 ms. */
    THROUGHPUT_VS_NETTY_100MS(2, Peer.NETTY_100MS, Metric.SCHEDULE_CANCEL, Metric.EXPIRY),
    /** Issue 12: expiry with the default pool at least this many times Netty 1 ms's, with 1 and 2 producers. */
    EXPIRY_VS_NETTY_1MS(2, Peer.NETTY_1MS, Metric.EXPIRY),
    /** Issue 12: CPU per schedule + cancel (all threads) at most this fraction of Netty 1 ms's, at every P. */
    CPU_VS_NETTY_1MS(0.5, Peer.NETTY_1MS, Metric.CPU),
    /** At most this many bytes allocated per schedule + cancel, at every P and thread count. */
    ALLOCATION(48, null, Metric.ALLOCATION),
    /** Issue 12: at most this many bytes allocated per fired timer (the timer itself included), default pool. */
    FIRE_ALLOCATION(48, null, Metric.FIRE_ALLOCATION),
    /** At most this many bytes retained per pending timer. */
    RETAINED(48, null, Metric.RETAINED),
    /** At most this many early fires, over every Tickwheel configuration measured. */
    EARLY_FIRES(0, null, Metric.EARLY_FIRES),
    /**
     * Issues 12 and 23: lateness p50 at most this many times the JDK's, quiet and with busy processes beside (the
     * median of interleaved runs; the one-run table row where only that was measured).
     */
    LATENESS_P50_VS_JDK(1, Peer.JDK_STPE, Metric.LATENESS_P50, Metric.JUDGED_LATENESS_P50),
    /** Lateness p99 at most this many times the JDK's, likewise. */
    LATENESS_P99_VS_JDK(1, Peer.JDK_STPE, Metric.LATENESS_P99, Metric.JUDGED_LATENESS_P99),
    /** Issue 23: lateness p99.9 at most this many times the JDK's, likewise. */
    LATENESS_P999_VS_JDK(1, Peer.JDK_STPE, Metric.LATENESS_P999, Metric.JUDGED_LATENESS_P999),
    /** At most this many ms of CPU in the idle window. */
    IDLE_CPU(1, null, Metric.IDLE_CPU),
    /** An operation at the most pending timers at most this many times costlier than at the fewest. */
    SCALING_COST(1.5, null, Metric.SCALING_COST),
    /** The wheel alone at {@link #WHEEL_SMALL} pending: at least this many times Agrona's throughput. */
    WHEEL_VS_AGRONA(1, null, Metric.WHEEL_ALONE),
    /** The wheel alone: throughput at {@link #WHEEL_SMALL} over at {@link #WHEEL_LARGE} at most this. */
    WHEEL_NO_COLLAPSE(1.5, null, Metric.WHEEL_ALONE),
    /** Issue 23: the expiry shot's fire rate at least Netty 1 ms's, with the default builder. */
    FIRING_VS_NETTY_1MS(1, Peer.NETTY_1MS, Metric.FIRING_RATE),
    /** Issue 23: the last timer of the shot fires within this many ms of its latest deadline (or the producers' end). */
    EXPIRY_LAG(20, null, Metric.EXPIRY_LAG),
    /** Issue 23: the worker sweep's slowest shot at most this many times its fastest. */
    SWEEP_SPREAD(1.1, null, Metric.SWEEP_SPREAD),
    /** Issue 23: the async chain on the default pool no slower than on the JDK's executor of the same size. */
    CHAIN_VS_JDK(1, Peer.JDK_STPE, Metric.CHAIN);

    /** The wheel-alone settings the wheel targets read. */
    static final long WHEEL_SMALL = 1_000;
    static final long WHEEL_LARGE = 1_000_000;

    private final double limit;
    private final Peer versus;
    private final Set<Metric> metrics;

    Target(double limit, Peer versus, Metric first, Metric... rest) {
        this.limit = limit;
        this.versus = versus;
        this.metrics = EnumSet.of(first, rest);
    }

    /** @return the threshold, in the unit of the metric or as a ratio to {@link #versus()} */
    double limit() {
        return limit;
    }

    /** @return the peer the target compares Tickwheel with, or null if it is an absolute figure */
    Peer versus() {
        return versus;
    }

    /** @return the metrics the target reads */
    Set<Metric> metrics() {
        return metrics;
    }

    /** @return the targets that read the metric (none for most) */
    static Set<Target> judging(Metric m) {
        Set<Target> out = EnumSet.noneOf(Target.class);
        for (Target t : values()) {
            if (t.metrics.contains(m)) {
                out.add(t);
            }
        }
        return out;
    }
}
